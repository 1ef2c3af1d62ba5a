// Server lifecycle and settings over stdio: exit codes, settings from initializationOptions and
// workspace/configuration (invalid ones logged, defaults kept), and workspace-folder changes.
import { afterEach, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { TestClient, CAPS_VSCODE, CAPS_NEOVIM_07 } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('lifecycle', () => {
  it('exits 0 after shutdown + exit, 1 on exit without shutdown', async () => {
    const ws = tempWorkspace({});
    cleanups.push(() => ws.cleanup());
    const a = await TestClient.start({ root: ws.root });
    expect(await a.shutdown()).toBe(0);
    const b = await TestClient.start({ root: ws.root });
    await b.conn.sendNotification('exit');
    expect(await b.exitCode).toBe(1);
    b.conn.dispose();
  });

  it('writes nothing but protocol to stdout and exits when stdin closes', async () => {
    const ws = tempWorkspace({ 'a.txt': 'x\n' });
    cleanups.push(() => ws.cleanup());
    const c = await TestClient.start({ root: ws.root });
    await c.exec('editls.edit', { file_path: 'a.txt', old_string: 'x', new_string: 'y' });
    c.proc.stdin.end();
    expect(await c.exitCode).toBe(1);
    c.conn.dispose();
  });
});

describe('settings', () => {
  it('logs invalid initializationOptions and keeps the defaults', async () => {
    const ws = tempWorkspace({ 'a.txt': 'x\n' });
    cleanups.push(() => ws.cleanup());
    const c = await TestClient.start({ root: ws.root, capabilities: CAPS_NEOVIM_07, initializationOptions: { maxFileSize: 'big', closedFiles: 'nowhere', bogus: 1 } });
    cleanups.push(() => c.shutdown());
    const r = await c.exec('editls.edit', { file_path: 'a.txt', old_string: 'x', new_string: 'y' });
    expect(r.files[0].via).toBe('disk');
    const logs = c.logs.join('\n');
    expect(logs).toMatch(/maxFileSize/);
    expect(logs).toMatch(/closedFiles/);
    expect(logs).toMatch(/bogus/);
  });

  it('takes workspace/configuration over initializationOptions', async () => {
    const ws = tempWorkspace({ 'a.txt': 'hello world\n' });
    cleanups.push(() => ws.cleanup());
    const c = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, initializationOptions: { maxFileSize: 1000 }, configuration: { maxFileSize: 5 } });
    cleanups.push(() => c.shutdown());
    await new Promise((r) => setTimeout(r, 200));
    const err = await c.execError('editls.edit', { file_path: 'a.txt', old_string: 'hello', new_string: 'bye' });
    expect(err.data.kind).toBe('too_large');
  });
});

describe('workspace folders', () => {
  it('follows workspace/didChangeWorkspaceFolders', async () => {
    const ws = tempWorkspace({ 'a.txt': 'a\n' });
    const other = tempWorkspace({ 'b.txt': 'b\n' });
    cleanups.push(() => ws.cleanup(), () => other.cleanup());
    const c = await TestClient.start({ root: ws.root });
    cleanups.push(() => c.shutdown());
    expect((await c.execError('editls.edit', { file_path: other.file('b.txt'), old_string: 'b', new_string: 'B' })).data.kind).toBe('outside_workspace');
    await c.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: pathToFileURL(other.root).href, name: 'other' }], removed: [] },
    });
    await c.exec('editls.edit', { file_path: other.file('b.txt'), old_string: 'b', new_string: 'B' });
    expect(other.read('b.txt')).toBe('B\n');
    await c.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [], removed: [{ uri: pathToFileURL(ws.root).href, name: 'ws' }] },
    });
    expect((await c.execError('editls.edit', { file_path: ws.file('a.txt'), old_string: 'a', new_string: 'A' })).data.kind).toBe('outside_workspace');
    expect(ws.read('a.txt')).toBe('a\n');
  });
});
