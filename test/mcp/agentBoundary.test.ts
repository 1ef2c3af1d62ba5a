// An agent's folder is its boundary (issue 24, item 1; contract: "Invariants"): attached to an editor
// whose workspace is a monorepo root, or headless, an agent started in packages/app resolves its
// relative paths there and reads, lists, searches and writes nothing outside it — the same answers
// either way. A folder swapped for a link since editls mcp started is refused, attached or headless.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, renameSync, symlinkSync, existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { privateRuntimeDir, startMcp, type McpAgent } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { EVENTUALLY_MS, waitFor } from '../helpers/waitFor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function monorepo() {
  const ws = tempWorkspace({
    'package.json': '{ "name": "root" }\n',
    'root.ts': 'export function rootFn() {}\n',
    'packages/app/package.json': '{ "name": "app" }\n',
    'packages/app/src/a.ts': 'export function appFn() {}\n',
    'packages/lib/b.ts': 'export function libFn() {}\n',
  });
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  return { ws, rt, app: ws.file('packages/app') };
}

async function editorOn(root: string, xdg: string): Promise<TestClient> {
  const editor = await TestClient.start({ root, capabilities: CAPS_VSCODE, clientName: 'TestEditor', env: { ...process.env, XDG_RUNTIME_DIR: xdg } });
  cleanups.push(() => editor.shutdown());
  const record = path.join(xdg, 'editls', `${editor.proc.pid}.json`);
  expect(await waitFor(() => existsSync(record))).toBe(true);
  return editor;
}

/** A reply's text without the lines about which session served it (they differ by design). */
function answer(r: { text: string; isError: boolean }): string {
  return `${r.isError ? 'error ' : ''}${r.text.split('\n').filter((l) => !/^note: (attached to|working headless|.*has exited)/.test(l)).join('\n').trimEnd()}`;
}

/** The same calls, attached or headless: what each answers. */
async function scenario(agent: McpAgent, ws: { root: string }): Promise<string[]> {
  const out: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await agent.call(name, args);
    out.push(`${name} ${JSON.stringify(args)} -> ${answer(r)}`);
    return r;
  };
  await call('read_file', { file_path: 'package.json' });
  await call('edit', { file_path: 'package.json', old_string: '"app"', new_string: '"app2"' });
  await call('edit', { file_path: 'package.json', old_string: '"app2"', new_string: '"app"' });
  await call('read_file', { file_path: '../../package.json' });
  await call('read_file', { file_path: path.join(ws.root, 'package.json') });
  await call('edit', { file_path: '../lib/b.ts', old_string: 'libFn', new_string: 'x' });
  await call('edit', { file_path: path.join(ws.root, 'new.ts'), old_string: '', new_string: 'created\n' });
  await call('search_files', { path: '.', regex: 'function' });
  await call('search_files', { path: '..', regex: 'function' });
  await call('replace_in_files', { search: 'export function', replace: 'export function', path: '.' });
  // The index is built in the background: asked until the agent's own symbol is there.
  let symbols = '';
  for (const end = Date.now() + EVENTUALLY_MS; !symbols.includes('appFn') && Date.now() < end; ) symbols = answer(await agent.call('workspace_symbols', { query: 'Fn' }));
  out.push(`workspace_symbols Fn -> ${symbols}`);
  return out;
}

describe("an agent's folder is its boundary", () => {
  it('attached to an editor on the monorepo root, an agent in packages/app answers exactly as it does headless, and nothing outside its folder is read or written', async () => {
    const { ws, rt, app } = monorepo();
    const editor = await editorOn(ws.root, rt.xdg);
    await editor.open('package.json', '{ "name": "root" } // unsaved\n');
    const agent = await startMcp({ root: app, xdg: rt.xdg });
    cleanups.push(() => agent.close());
    const attached = await scenario(agent, ws);
    expect((await agent.call('read_file', { file_path: 'package.json' })).structured.session.mode).toBe('attached');
    // Outside the agent's folder: nothing changed, nothing created, and the root's unsaved buffer untouched.
    expect(ws.read('package.json')).toBe('{ "name": "root" }\n');
    expect(editor.bufferText('package.json')).toBe('{ "name": "root" } // unsaved\n');
    expect(ws.read('packages/lib/b.ts')).toBe('export function libFn() {}\n');
    expect(existsSync(ws.file('new.ts'))).toBe(false);
    expect(editor.appliedEdits).toHaveLength(0);

    await editor.shutdown();
    const headless = await scenario(agent, ws);
    expect((await agent.call('read_file', { file_path: 'package.json' })).structured.session.mode).toBe('headless');
    expect(headless).toEqual(attached);

    // What the answers are: the agent's own package.json, refusals outside, its own files only.
    const [read, , , up, abs, lib, create, search, searchUp, replace, symbols] = attached;
    expect(read).toContain('{ "name": "app" }');
    expect(up).toMatch(/-> error outside_workspace: /);
    expect(abs).toMatch(/-> error outside_workspace: /);
    expect(lib).toMatch(/-> error outside_workspace: /);
    expect(create).toMatch(/-> error outside_workspace: /);
    expect(search).toContain('# src/a.ts');
    expect(search).not.toMatch(/root\.ts|b\.ts/);
    expect(searchUp).toMatch(/-> error outside_workspace: /);
    expect(replace).not.toMatch(/root\.ts|b\.ts/);
    expect(symbols).toContain('appFn');
    expect(symbols).not.toMatch(/rootFn|libFn/);
    expect(ws.read('packages/app/package.json')).toBe('{ "name": "app" }\n');
  }, 60_000);

  it('headless: a --root folder swapped for a link before the first call is refused; nothing is read or created in the link\'s target', async () => {
    const { ws, rt, app } = monorepo();
    const outside = tempWorkspace({ 'package.json': '{ "name": "outside" }\n' });
    cleanups.push(outside.cleanup);
    const agent = await startMcp({ root: app, xdg: rt.xdg });
    cleanups.push(() => agent.close());
    renameSync(app, `${app}.bak`);
    symlinkSync(outside.root, app, 'dir');
    const read = await agent.call('read_file', { file_path: 'package.json' });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/^outside_workspace: the agent's folder .* now resolves to .* since editls mcp started/);
    expect(read.text).not.toContain('"outside"');
    const create = await agent.call('edit', { file_path: 'made.txt', old_string: '', new_string: 'x\n' });
    expect(create.isError).toBe(true);
    expect(existsSync(path.join(outside.root, 'made.txt'))).toBe(false);
    expect(readFileSync(path.join(outside.root, 'package.json'), 'utf8')).toBe('{ "name": "outside" }\n');
    expect(ws.read('package.json')).toBe('{ "name": "root" }\n');
  });

  it('attached: the agent\'s folder swapped for a link after it attached is refused by the editor\'s editls too', async () => {
    const { ws, rt, app } = monorepo();
    const outside = tempWorkspace({ 'package.json': '{ "name": "outside" }\n' });
    cleanups.push(outside.cleanup);
    const editor = await editorOn(ws.root, rt.xdg);
    const agent = await startMcp({ root: app, xdg: rt.xdg });
    cleanups.push(() => agent.close());
    expect((await agent.call('read_file', { file_path: 'package.json' })).structured.session.mode).toBe('attached');
    renameSync(app, `${app}.bak`);
    mkdirSync(path.join(outside.root, 'src'));
    symlinkSync(outside.root, app, 'dir');
    for (const [name, args] of [
      ['read_file', { file_path: 'package.json' }],
      ['edit', { file_path: 'src/new.ts', old_string: '', new_string: 'x\n' }],
      ['search_files', { path: '.', regex: 'name' }],
    ] as const) {
      const r = await agent.call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.text, name).toMatch(/^outside_workspace: /);
      expect(r.text, name).not.toContain('"outside"');
    }
    expect(existsSync(path.join(outside.root, 'src', 'new.ts'))).toBe(false);
    expect(editor.appliedEdits).toHaveLength(0);
    // The editor's editls checks on its own (an agent other than editls mcp may skip its check).
    const record = JSON.parse(readFileSync(path.join(rt.dir, `${editor.proc.pid}.json`), 'utf8'));
    const socket = net.connect(record.endpoint);
    await new Promise((r) => socket.once('connect', r));
    const conn = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    conn.listen();
    cleanups.push(() => (conn.dispose(), socket.destroy()));
    // A folder outside the editor's workspace is refused at attach; the swapped one is refused per request.
    await expect(conn.sendRequest('editls/attach', { token: record.token, clientInfo: { name: 'raw' }, root: outside.root })).rejects.toMatchObject({ message: expect.stringMatching(/not inside this editor's workspace/) });
    const again = net.connect(record.endpoint);
    await new Promise((r) => again.once('connect', r));
    const raw = createMessageConnection(new StreamMessageReader(again), new StreamMessageWriter(again));
    raw.listen();
    cleanups.push(() => (raw.dispose(), again.destroy()));
    renameSync(app, `${app}.link`);
    renameSync(`${app}.bak`, app);
    await raw.sendRequest('editls/attach', { token: record.token, clientInfo: { name: 'raw' }, root: app });
    renameSync(app, `${app}.bak`);
    renameSync(`${app}.link`, app);
    await expect(raw.sendRequest('workspace/executeCommand', { command: 'editls.readFile', arguments: [{ file_path: 'package.json' }] })).rejects.toMatchObject({
      data: { kind: 'outside_workspace' },
      message: expect.stringMatching(/the agent's folder .* since the agent attached/),
    });
  });
});
