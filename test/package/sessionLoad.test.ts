// `editls --stdio` answers `initialize` from its first bundle and loads the rest (dist/editls-session.js)
// once the answer is written (server/main.ts): what a client sends meanwhile waits and is served in
// order, judged by the same checks; the symbol index build reads the ripgrep main.ts started when it
// answered (server/indexAhead.ts) when the build's arguments are the same, and starts its own when
// the settings make them differ. An install without the second bundle answers `initialize`, then
// says why it cannot serve and exits. The real dist/editls.js over stdio; needs `node esbuild.mjs` first.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_JS } from '../helpers/lspClient.js';
import { RawClient } from '../helpers/rawClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const spaces: TempWorkspace[] = [];
const clients: RawClient[] = [];
afterAll(() => {
  clients.forEach((c) => c.kill());
  spaces.forEach((w) => w.cleanup());
});

function start(files: Record<string, string>): { c: RawClient; ws: TempWorkspace } {
  const ws = tempWorkspace(files, 'editls-session-load-');
  spaces.push(ws);
  const c = RawClient.start();
  clients.push(c);
  return { c, ws };
}

const AHEAD_LOG = 'symbol index: building from the ripgrep started once initialize was answered';
const logged = (c: RawClient, text: string) => c.messages.some((m) => m.method === 'window/logMessage' && String(m.params?.message).includes(text));

describe('the session loaded after the initialize answer', () => {
  it('serves, in order, what the client sent before the answer came back', async () => {
    const { c, ws } = start({ 'a.ts': 'export function alpha() {}\n' });
    const uri = pathToFileURL(ws.file('a.ts')).href;
    const root = pathToFileURL(ws.root).href;
    // All in one write, right behind `initialize`: the session is not loaded when these arrive.
    c.raw(
      Buffer.concat([
        RawClient.frameBytes({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: root, capabilities: {}, workspaceFolders: [{ uri: root, name: 'w' }] } }),
        RawClient.frameBytes({ jsonrpc: '2.0', method: 'initialized', params: {} }),
        // Unsaved text, CRLF and an emoji: readFile must see this buffer, not the disk.
        RawClient.frameBytes({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'typescript', version: 1, text: 'export function beta() {} // \u{1F600}\r\nlet x = 1;\r\n' } } }),
        // A notification of the wrong shape: ignored (and said so) by the session's checks.
        RawClient.frameBytes({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 'two' }, contentChanges: [] } }),
        RawClient.frameBytes({ jsonrpc: '2.0', id: 2, method: 'workspace/executeCommand', params: { command: 'editls.readFile', arguments: [{ file_path: 'a.ts' }] } }),
        RawClient.frameBytes({ jsonrpc: '2.0', id: 3, method: 'workspace/symbol', params: { query: 'beta' } }),
        // A request of the wrong shape: InvalidParams from the same checks.
        RawClient.frameBytes({ jsonrpc: '2.0', id: 4, method: 'workspace/symbol', params: { query: 5 } }),
      ]),
    );
    const read = await c.waitFor((m) => m.id === 2 && m.method === undefined, 15_000);
    expect(read.result).toMatchObject({ success: true, source: 'editor', totalLines: 2 });
    expect(read.result.content).toBe('     1\texport function beta() {} // \u{1F600}\n     2\tlet x = 1;');
    const symbols = await c.waitFor((m) => m.id === 3 && m.method === undefined, 15_000);
    expect(symbols.result.map((s: { name: string }) => s.name)).toEqual(['beta']);
    const bad = await c.waitFor((m) => m.id === 4 && m.method === undefined, 15_000);
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toMatch(/^invalid params for workspace\/symbol: query: expected string, received number/);
    expect(logged(c, 'editls ignored textDocument/didChange: its params have the wrong shape (textDocument.version')).toBe(true);
  });

  it('the index build reads the ripgrep started ahead; other settings make it start its own', async () => {
    const files = { 'src/a.ts': 'export function alpha() {}\n', 'lib/b.py': 'def beta():\n    pass\n', 'c.rs': 'pub fn gamma() {}\r\n' };
    const ahead = start(files);
    await ahead.c.initialize(ahead.ws.root);
    const found = await ahead.c.request('workspace/symbol', { query: '' }, 15_000);
    expect(found.result.map((s: { name: string }) => s.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(logged(ahead.c, AHEAD_LOG)).toBe(true);

    // maxFileSize in initializationOptions: the build's arguments differ from those started ahead.
    const own = start(files);
    await own.c.initialize(own.ws.root, { initializationOptions: { maxFileSize: 4096 } });
    const ownFound = await own.c.request('workspace/symbol', { query: '' }, 15_000);
    expect(ownFound.result.map((s: { name: string }) => s.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    await own.c.waitFor((m) => m.method === 'window/logMessage' && /^symbol index: indexed 3 symbols/.test(m.params.message), 15_000);
    expect(logged(own.c, AHEAD_LOG)).toBe(false);
  });

  it('an install without the session bundle answers initialize, then says why it cannot serve and exits 1', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'editls-no-session-'));
    spaces.push({ cleanup: () => rmSync(dist, { recursive: true, force: true }) } as TempWorkspace);
    cpSync(path.dirname(SERVER_JS), dist, { recursive: true, filter: (f) => !f.endsWith('.map') && !path.basename(f).startsWith('editls-session.') });
    // Away from node_modules too: the first bundle needs nothing there (without ripgrep, nothing is started ahead).
    const c = new RawClient(spawn(process.execPath, [path.join(dist, 'editls.js'), '--stdio'], { stdio: 'pipe' }));
    clients.push(c);
    const ws = tempWorkspace({ 'a.ts': 'export function alpha() {}\n' }, 'editls-session-load-');
    spaces.push(ws);
    const init = await c.initialize(ws.root);
    expect(init.result.serverInfo).toMatchObject({ name: 'editls' });
    expect(await c.waitForExit(15_000)).toBe(true);
    expect(c.exitCode).toBe(1);
    expect(c.stderr).toContain('editls: cannot load the rest of editls (dist/editls-session.js)');
  });
});
