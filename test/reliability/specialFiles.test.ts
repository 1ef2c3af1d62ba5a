// Special files as an attack: a FIFO swapped in for a regular file between editls's stat and its
// open (the open is non-blocking and fstat'd, so no read ever waits on a pipe), and many FIFOs in
// a workspace whose symbol index re-reads them, while the server must keep answering and exit.
import { spawn, execFileSync } from 'node:child_process';
import { openSync, closeSync, constants, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SymbolInformation } from 'vscode-languageserver';
import { readTextFile } from '../../server/workspace/disk/fileCodec.js';
import { CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);
}

describe.skipIf(process.platform === 'win32')('special files', () => {
  it('a FIFO swapped in between stat and open never blocks a read', async () => {
    const ws: TempWorkspace = tempWorkspace({ 'target.txt': 'text\n' });
    cleanups.push(() => ws.cleanup());
    // Swaps a fresh FIFO and a fresh regular file onto target.txt, as fast as the shell can.
    const swapper = spawn('bash', ['-c', 'while true; do mkfifo f.tmp; mv -f f.tmp target.txt; echo text > r.tmp; mv -f r.tmp target.txt; done'], {
      cwd: ws.root,
      stdio: 'ignore',
      detached: true,
    });
    const swapperGone = new Promise((resolve) => swapper.on('exit', resolve));
    cleanups.push(async () => {
      // The whole group: a mkfifo or mv the loop started must not create files while the folder goes.
      try {
        process.kill(-swapper.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await swapperGone;
      // Should a read be stuck on a FIFO (the bug), a writer end releases it.
      try {
        closeSync(openSync(ws.file('target.txt'), constants.O_RDWR | constants.O_NONBLOCK));
      } catch {
        /* not a FIFO any more */
      }
    });
    const attempts = size(5000, 600);
    let text = 0;
    let special = 0;
    let other = 0;
    let slowest = 0;
    for (let i = 0; i < attempts; i++) {
      // Reads take microseconds (synchronous calls): pace them so the swapper (a shell starting mkfifo
      // and mv) swaps between them, or the loop is over before the first swap.
      await new Promise((r) => setTimeout(r, 1));
      const t0 = performance.now();
      const r = await within(2000, readTextFile(ws.file('target.txt'), 'target.txt', 1 << 20), `read ${i}`);
      slowest = Math.max(slowest, performance.now() - t0);
      if (r.ok) {
        expect(r.text).toBe('text\n');
        text++;
      } else if (r.kind === 'io_error' && r.data?.['special'] === true) special++;
      else other++; // e.g. file_not_found or an empty file caught mid-swap
    }
    report('FIFO swapped in for a file during reads', { attempts, readText: text, refusedAsSpecial: special, other, blocked: 0, slowestReadMs: Math.round(slowest) });
    expect(text + special + other).toBe(attempts);
    expect(special).toBeGreaterThan(0);
  }, 120_000);

  it('FIFOs swapped in for indexed files: the server keeps answering and exits promptly', async () => {
    const fifos = size(32, 6);
    const files: Record<string, string> = { 'keep.py': 'def fifo_keeper(): pass\n', 'a.txt': 'ping 0\n' };
    for (let i = 0; i < fifos; i++) files[`m${i}.py`] = `def fifo_target_${i}(): pass\n`;
    const ws = tempWorkspace(files);
    cleanups.push(() => ws.cleanup());
    const caps = { ...CAPS_VSCODE, workspace: { ...CAPS_VSCODE.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } };
    const client = await TestClient.start({ root: ws.root, capabilities: caps });
    cleanups.push(() => client.shutdown());
    const query = async () => ((await client.conn.sendRequest('workspace/symbol', { query: 'fifo' })) as SymbolInformation[]).map((h) => h.name);
    expect(await query()).toHaveLength(fifos + 1);
    for (let i = 0; i < fifos; i++) {
      rmSync(ws.file(`m${i}.py`));
      execFileSync('mkfifo', [ws.file(`m${i}.py`)]);
    }
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: Array.from({ length: fifos }, (_, i) => ({ uri: client.uri(`m${i}.py`), type: 2 })),
    });
    let slowest = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await within(5000, client.exec('editls.edit', { file_path: 'a.txt', old_string: `ping ${i}`, new_string: `ping ${i + 1}` }), 'edit');
      await within(5000, client.exec('editls.searchFiles', { path: '.', regex: 'fifo_' }), 'search');
      expect(await within(5000, query(), 'workspace/symbol')).toEqual(['fifo_keeper']);
      slowest = Math.max(slowest, performance.now() - t0);
    }
    writeFileSync(ws.file('after.txt'), 'x');
    const t0 = performance.now();
    const code = await client.shutdown();
    const exitMs = performance.now() - t0;
    report('FIFOs in the workspace (symbol index re-reads)', { fifos, requestRounds: 5, slowestRoundMs: Math.round(slowest), exitCode: String(code), exitMs: Math.round(exitMs) });
    expect(code).toBe(0);
    expect(exitMs).toBeLessThan(2000);
  }, 60_000);
});
