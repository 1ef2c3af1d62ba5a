// FIFOs (named pipes) in the workspace, through the real server over stdio: no read ever opens one
// (reading a FIFO without a writer blocks a libuv thread, and four of them stop all file IO). Edits
// and searches name them as io_error, the symbol index drops files swapped for FIFOs, an open
// buffer over a FIFO is searched as the user sees it, and the server answers and exits promptly.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SymbolInformation } from 'vscode-languageserver';
import { CAPS_VSCODE, type TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const { setup, start } = serverFixture();

/** More than the libuv thread pool (4 threads by default). */
const FIFOS = 6;

function mkfifo(ws: TempWorkspace, rel: string): void {
  rmSync(ws.file(rel), { force: true });
  execFileSync('mkfifo', [ws.file(rel)]);
}

function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);
}

async function symbols(client: TestClient, query: string): Promise<string[]> {
  const hits = (await client.conn.sendRequest('workspace/symbol', { query })) as SymbolInformation[];
  return hits.map((h) => h.name).sort();
}

describe.skipIf(process.platform === 'win32')('FIFOs in the workspace', () => {
  it('edits name them as io_error; searches skip them; the server keeps answering and exits', async () => {
    const ws = setup({ 'a.txt': 'needle one\n' });
    for (let i = 0; i < FIFOS; i++) mkfifo(ws, `pipe${i}.txt`);
    // Named like a temp file a crashed editls left: the start-up sweep must not open it either.
    mkfifo(ws, '.editls-tmp-1-a.txt.0123456789ab');
    const client = await start(ws);
    const errors = await within(
      5000,
      Promise.all(Array.from({ length: FIFOS }, (_, i) => client.execError('editls.edit', { file_path: `pipe${i}.txt`, old_string: 'a', new_string: 'b' }))),
      'edits on FIFOs',
    );
    for (const [i, e] of errors.entries()) {
      expect(e.data.kind).toBe('io_error');
      expect(e.message).toContain(`pipe${i}.txt is not a regular file`);
    }
    const found = await within(5000, client.exec('editls.searchFiles', { path: '.', regex: 'needle' }), 'search over a folder with FIFOs');
    expect(found.matches.map((m: { path: string }) => m.path)).toEqual(['a.txt']);
    // A FIFO named as the search scope is never handed to ripgrep (which would open it and wait).
    const scoped = await within(5000, client.execError('editls.searchFiles', { path: 'pipe0.txt', regex: 'needle' }), 'search of a FIFO');
    expect(scoped.data.kind).toBe('io_error');
    await within(5000, client.exec('editls.edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' }), 'an edit after them');
    expect(ws.read('a.txt')).toBe('needle two\n');
    // The start-up sweep (once the index is built and nothing was asked for a second) has run past the FIFO.
    expect(await waitFor(() => client.logs.some((l) => /swept the workspace for temporary files left by an interrupted write: 0 removed/.test(l)))).toBe(true);
    expect(existsSync(ws.file('.editls-tmp-1-a.txt.0123456789ab'))).toBe(true);
    const t0 = performance.now();
    expect(await client.shutdown()).toBe(0);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('the symbol index drops files replaced by FIFOs (watched-file events, buffer close) without reading them', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < FIFOS; i++) files[`m${i}.py`] = `def fifo_target_${i}(): pass\n`;
    files['keep.py'] = 'def fifo_keeper(): pass\n';
    const ws = setup(files);
    const caps = { ...CAPS_VSCODE, workspace: { ...CAPS_VSCODE.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } };
    const client = await start(ws, { capabilities: caps });
    expect(await symbols(client, 'fifo')).toHaveLength(FIFOS + 1);
    await client.open('m0.py');
    for (let i = 0; i < FIFOS; i++) mkfifo(ws, `m${i}.py`);
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: Array.from({ length: FIFOS }, (_, i) => ({ uri: client.uri(`m${i}.py`), type: 2 })),
    });
    await client.close('m0.py');
    expect(await within(5000, symbols(client, 'fifo'), 'workspace/symbol after the FIFO swap')).toEqual(['fifo_keeper']);
    await within(5000, client.exec('editls.edit', { file_path: 'keep.py', old_string: 'pass', new_string: 'return 1' }), 'an edit');
    const t0 = performance.now();
    expect(await client.shutdown()).toBe(0);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('an open buffer whose disk file is a FIFO is searched as the user sees it, the FIFO never opened', async () => {
    const ws = setup({ 'a.txt': 'nothing here\n' });
    mkfifo(ws, 'pipe.txt');
    const client = await start(ws);
    await client.open('pipe.txt', 'first\nthe needle in the buffer\n');
    const r = await within(5000, client.exec('editls.searchFiles', { path: '.', regex: 'needle' }), 'search');
    expect(r.matches).toMatchObject([{ path: 'pipe.txt', line: 2, text: 'the needle in the buffer' }]);
  });
});
