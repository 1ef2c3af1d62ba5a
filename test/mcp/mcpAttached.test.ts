// `editls mcp` attached to an editor's editls: the scripted editor (TestClient, real server over
// stdio) with open, unsaved buffers plus the SDK's MCP client on `editls mcp` in the same folder.
// Agent edits reach the buffer through workspace/applyEdit (never the disk), reads see unsaved text,
// agent and editor commands never lose an update, review mode, exit -> headless, other folders never
// attach, records and socket modes, clean-up after exit and after kill -9, the token.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { CAPS_VSCODE, TestClient, type ClientOptions } from '../helpers/lspClient.js';
import { privateRuntimeDir, startMcp, type McpAgent } from '../helpers/mcpClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Setup {
  ws: TempWorkspace;
  rt: ReturnType<typeof privateRuntimeDir>;
  editor: TestClient;
  agent: McpAgent;
}

async function editorAndAgent(files: Record<string, string>, options: Partial<ClientOptions> = {}, agentRoot?: string): Promise<Setup> {
  const ws = tempWorkspace(files);
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  const editor = await startEditor(ws, rt.xdg, options);
  await recordOf(rt.dir, editor);
  const agent = await startMcp({ root: agentRoot ?? ws.root, xdg: rt.xdg, name: 'test-agent' });
  cleanups.push(() => agent.close());
  return { ws, rt, editor, agent };
}

async function startEditor(ws: TempWorkspace, xdg: string, options: Partial<ClientOptions> = {}): Promise<TestClient> {
  const editor = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, clientName: 'TestEditor', env: { ...process.env, XDG_RUNTIME_DIR: xdg }, ...options });
  cleanups.push(() => editor.shutdown());
  return editor;
}

/** The editor's discovery record, once published (after initialized). */
async function recordOf(dir: string, editor: TestClient): Promise<any> {
  const file = path.join(dir, `${editor.proc.pid}.json`);
  return until(() => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined), 'the discovery record');
}

describe('attached: edits land in the editor', () => {
  it('an agent edit to an open, unsaved buffer goes through workspace/applyEdit; the disk is untouched; the editor logs the agent', async () => {
    const { ws, editor, agent } = await editorAndAgent({ 'a.ts': 'const a = 1;\n' });
    await editor.open('a.ts', 'const a = 1; // unsaved\n');
    const r = await agent.call('edit', { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(r.isError).toBe(false);
    expect(editor.bufferText('a.ts')).toBe('const a = 2; // unsaved\n');
    expect(ws.read('a.ts')).toBe('const a = 1;\n');
    expect(editor.appliedEdits).toHaveLength(1);
    expect(r.structured.files[0].via).toBe('editor');
    expect(r.structured.session).toMatchObject({ mode: 'attached', editor: 'TestEditor', pid: editor.proc.pid });
    expect(r.text).toContain("note: attached to TestEditor's editls");
    expect(editor.logs).toContain(`agent connected: test-agent 1.0 (folder ${ws.root})`);
  });

  it('read_file returns the unsaved buffer text', async () => {
    const { editor, agent } = await editorAndAgent({ 'b.txt': 'disk\n' });
    await editor.open('b.txt', 'buffer line 1\nbuffer line 2\n');
    const r = await agent.call('read_file', { file_path: 'b.txt' });
    expect(r.text.split('\n\nnote:')[0]).toBe('     1\tbuffer line 1\n     2\tbuffer line 2');
    expect(r.structured.source).toBe('editor');
  });

  it('agent and editor commands on one file never lose an update', async () => {
    const { editor, agent } = await editorAndAgent({ 'c.txt': '' });
    await editor.open('c.txt', 'end\n');
    const n = 12;
    await Promise.all([
      ...Array.from({ length: n }, (_, i) => agent.call('insert', { path: 'c.txt', insert_line: 0, new_str: `agent ${i}` })),
      ...Array.from({ length: n }, (_, i) => editor.exec('editls.insert', { path: 'c.txt', insert_line: 0, new_str: `editor ${i}` })),
    ]);
    const lines = editor.bufferText('c.txt')!.split('\n');
    for (let i = 0; i < n; i++) {
      expect(lines).toContain(`agent ${i}`);
      expect(lines).toContain(`editor ${i}`);
    }
    expect(lines).toHaveLength(2 * n + 2);
  });

  it('symbols and searches see the editor session', async () => {
    const { editor, agent } = await editorAndAgent({ 'd.ts': 'export const x = 1;\n' });
    await editor.open('d.ts', 'export const x = 1;\nfunction onlyInBuffer() {}\n');
    const s = await agent.call('search_files', { path: '.', regex: 'onlyInBuffer' });
    expect(s.text).toContain('2 | function onlyInBuffer() {}');
    const sym = await until(async () => {
      const r = await agent.call('workspace_symbols', { query: 'onlyInBuffer' });
      return r.text.includes('onlyInBuffer  function') ? r : undefined;
    }, 'the symbol');
    expect(sym.isError).toBe(false);
  });
});

describe('attached: review mode', () => {
  async function reviewing(answer: (message: string) => string | null | Promise<string | null>, settings: Record<string, unknown> = {}, files: Record<string, string> = { 'r.txt': 'keep this\n' }) {
    const s = await editorAndAgent(files, { initializationOptions: { agentEdits: 'review', ...settings }, capabilities: { ...CAPS_VSCODE, window: { ...(CAPS_VSCODE.window ?? {}), showDocument: { support: true } } } });
    const asked: string[] = [];
    const shown: string[] = [];
    /** Prompts the server cancelled ($/cancelRequest), by their message. */
    const cancelled: string[] = [];
    s.editor.conn.onRequest('window/showMessageRequest', async (p: { message: string; actions: { title: string }[] }, token: { onCancellationRequested(f: () => void): unknown }) => {
      asked.push(p.message);
      token.onCancellationRequested(() => cancelled.push(p.message));
      const title = await answer(p.message);
      return title === null ? null : { title };
    });
    s.editor.conn.onRequest('window/showDocument', (p: { uri: string }) => {
      shown.push(p.uri);
      return { success: true };
    });
    if ('r.txt' in files) await s.editor.open('r.txt', files['r.txt']);
    return { ...s, asked, shown, cancelled };
  }

  /** A prompt the test answers when it likes, and a way to see it was asked. */
  function heldAnswer() {
    let answer!: (title: string | null) => void;
    let asked!: () => void;
    const wasAsked = new Promise<void>((r) => (asked = r));
    const given = new Promise<string | null>((r) => (answer = r));
    return { answer, wasAsked, prompt: () => (asked(), given) };
  }

  it('the agent cancels its call (its request timeout): the prompt is cancelled, the preview discarded, a later Apply applies nothing, and an approved retry lands once', async () => {
    const held = heldAnswer();
    let calls = 0;
    const s = await reviewing(() => (++calls === 1 ? held.prompt() : 'Apply'));
    const uri = s.editor.uri('r.txt');
    const call = s.agent.client.callTool({ name: 'insert', arguments: { path: 'r.txt', insert_line: 0, new_str: 'added' } }, undefined, { timeout: 1500 });
    await held.wasAsked;
    await expect(call).rejects.toThrow(/timed out/i);
    expect(await waitFor(() => s.cancelled.length === 1)).toBe(true);
    expect(await waitFor(() => (s.editor.diagnostics.get(uri) ?? []).length === 0)).toBe(true);
    held.answer('Apply');
    expect(await waitFor(() => s.editor.messages.some((m) => /no longer waiting for review \(withdrawn/.test(m)))).toBe(true);
    expect(s.editor.bufferText('r.txt')).toBe('keep this\n');
    expect(s.editor.appliedEdits).toHaveLength(0);
    // The agent's retry, approved, inserts the line once.
    const retry = await s.agent.call('insert', { path: 'r.txt', insert_line: 0, new_str: 'added' });
    expect(retry.isError).toBe(false);
    expect(s.editor.bufferText('r.txt')).toBe('added\nkeep this\n');
  });

  it('the agent exits while its prompt is up: the review is withdrawn; Apply afterwards changes nothing', async () => {
    const held = heldAnswer();
    const s = await reviewing(held.prompt);
    void s.agent.client.callTool({ name: 'edit', arguments: { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' } }, undefined, { timeout: 60_000 }).catch(() => undefined);
    await held.wasAsked;
    process.kill(s.agent.pid, 'SIGKILL');
    expect(await waitFor(() => s.cancelled.length === 1)).toBe(true);
    held.answer('Apply');
    expect(await waitFor(() => s.editor.messages.some((m) => /no longer waiting for review/.test(m)))).toBe(true);
    expect(s.editor.bufferText('r.txt')).toBe('keep this\n');
    expect(s.editor.appliedEdits).toHaveLength(0);
  });

  it('the user applies the preview through its code action, then dismisses the prompt: the agent is told it was applied', async () => {
    const held = heldAnswer();
    const s = await reviewing(held.prompt);
    const call = s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
    await held.wasAsked;
    await s.editor.exec('editls.applyPreview', { path: 'r.txt' });
    const r = await call;
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ success: true, applied: true, review: 'applied by the user in the editor' });
    expect(s.editor.bufferText('r.txt')).toBe('changed this\n');
    expect(await waitFor(() => s.cancelled.length === 1)).toBe(true);
    held.answer(null);
    expect(s.editor.appliedEdits).toHaveLength(1);
  });

  it('the user discards the preview through its code action: the agent is told at once, nothing changes', async () => {
    const held = heldAnswer();
    const s = await reviewing(held.prompt);
    const call = s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
    await held.wasAsked;
    await s.editor.exec('editls.discardPreview', { path: 'r.txt' });
    const r = await call;
    expect(r.text).toMatch(/^apply_rejected: the agent edit to r\.txt was not applied: the user discarded it/);
    held.answer('Apply');
    expect(await waitFor(() => s.editor.messages.some((m) => /no longer waiting for review/.test(m)))).toBe(true);
    expect(s.editor.bufferText('r.txt')).toBe('keep this\n');
  });

  it('the user types in the document under review: the agent is told it expired (stale), nothing is applied', async () => {
    const held = heldAnswer();
    const s = await reviewing(held.prompt);
    const call = s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
    await held.wasAsked;
    await s.editor.type('r.txt', 'this', 'that');
    const r = await call;
    expect(r.text).toMatch(/^stale: the agent edit to r\.txt was not applied: the document changed in the editor while it waited for review/);
    held.answer('Apply');
    expect(s.editor.bufferText('r.txt')).toBe('keep that\n');
  });

  it('the prompt counts the whole change: +20000 −20000 for 20,000 changed lines', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const s = await reviewing(() => 'Discard', {}, { 'big.txt': big });
    await s.agent.call('search_and_replace', { path: 'big.txt', search: 'line', replace: 'LINE' });
    expect(s.asked).toEqual(['Agent edit to big.txt: +20000 −20000']);
  });

  it('Apply: the user is asked ("Agent edit to r.txt: +1 −1"), the file shown, the preview hinted, then the edit lands', async () => {
    let diagnosticsWhileAsked = 0;
    const s = await reviewing(async () => {
      diagnosticsWhileAsked = s.editor.diagnostics.get(s.editor.uri('r.txt'))?.length ?? 0;
      return 'Apply';
    });
    const r = await s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed', apply: 'disk' });
    expect(r.isError).toBe(false);
    expect(s.asked).toEqual(['Agent edit to r.txt: +1 −1']);
    expect(s.shown).toEqual([s.editor.uri('r.txt')]);
    expect(diagnosticsWhileAsked).toBeGreaterThan(0);
    // apply: "disk" from the agent did not skip the review, and an open buffer is never written under.
    expect(s.editor.bufferText('r.txt')).toBe('changed this\n');
    expect(s.ws.read('r.txt')).toBe('keep this\n');
  });

  it('Discard and a dismissed prompt: apply_rejected, nothing changes, the hints go', async () => {
    const answers = ['Discard', null];
    const s = await reviewing(() => answers.shift() ?? null);
    for (let i = 0; i < 2; i++) {
      const r = await s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^apply_rejected: the agent edit to r\.txt was not applied: the user discarded it/);
    }
    expect(s.editor.bufferText('r.txt')).toBe('keep this\n');
    expect(s.editor.appliedEdits).toHaveLength(0);
    // The hints' clearing reaches the editor on its own connection, not with the agent's answer: wait for it.
    const uri = s.editor.uri('r.txt');
    for (let waited = 0; waited < 3000 && (s.editor.diagnostics.get(uri) ?? []).length > 0; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(s.editor.diagnostics.get(uri) ?? []).toEqual([]);
  });

  it('no answer within reviewTimeoutMs: apply_rejected (timeout); a later apply_preview of the preview is also reviewed', async () => {
    const s = await reviewing(() => new Promise<string | null>(() => undefined), { reviewTimeoutMs: 300 });
    const started = Date.now();
    const r = await s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^apply_rejected: .*no answer in the editor within/);
    expect(Date.now() - started).toBeLessThan(5000);
    // apply: "preview" only previews; applying that preview asks again (and times out again).
    const p = await s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed', apply: 'preview' });
    expect(p.structured.status).toBe('preview');
    const a = await s.agent.call('apply_preview', { id: p.structured.previewId });
    expect(a.text).toMatch(/^apply_rejected: /);
    expect(s.editor.bufferText('r.txt')).toBe('keep this\n');
    expect(s.asked).toHaveLength(2);
  });

  it('reads are not reviewed; undo is asked before it runs', async () => {
    const s = await reviewing((m) => (m.startsWith('Agent edit') ? 'Apply' : 'Discard'));
    expect((await s.agent.call('read_file', { file_path: 'r.txt' })).isError).toBe(false);
    expect(s.asked).toHaveLength(0);
    await s.agent.call('edit', { file_path: 'r.txt', old_string: 'keep', new_string: 'changed' });
    const u = await s.agent.call('undo', { path: 'r.txt' });
    expect(u.text).toMatch(/^apply_rejected: /);
    expect(s.asked[1]).toBe('Agent (test-agent 1.0) wants to undo its own last change (editls.edit r.txt (preview p1))');
    expect(s.editor.bufferText('r.txt')).toBe('changed this\n');
  });
});

describe('attached: sessions end, folders, records, token', () => {
  it("the editor's editls exits: the next call works headless on disk and says so", async () => {
    const { ws, editor, agent } = await editorAndAgent({ 'e.txt': 'one\n' });
    expect((await agent.call('read_file', { file_path: 'e.txt' })).structured.session.mode).toBe('attached');
    await editor.shutdown();
    const r = await agent.call('edit', { file_path: 'e.txt', old_string: 'one', new_string: 'two' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("note: TestEditor's editls");
    expect(r.text).toContain('has exited');
    expect(r.text).toContain('note: working headless on');
    expect(r.structured.session.mode).toBe('headless');
    expect(ws.read('e.txt')).toBe('two\n');
  });

  it("the editor's editls dies during a call: the call ends with io_error saying the change may or may not have landed", async () => {
    const { editor, agent } = await editorAndAgent({ 'm.txt': 'one\n' });
    await editor.open('m.txt', 'one\n');
    let asked!: () => void;
    const applyAsked = new Promise<void>((r) => (asked = r));
    editor.applyBehavior = () => {
      asked();
      return new Promise(() => undefined); // the editor never answers
    };
    const call = agent.call('edit', { file_path: 'm.txt', old_string: 'one', new_string: 'two' });
    await applyAsked;
    editor.proc.kill('SIGKILL');
    const started = Date.now();
    const r = await call;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^io_error: TestEditor's editls \(pid \d+\) exited during the call .*may or may not/);
    const next = await agent.call('read_file', { file_path: 'm.txt' });
    expect(next.structured.session.mode).toBe('headless');
  });

  it("an agent in another folder never attaches to an editor whose workspace does not contain it", async () => {
    const other = tempWorkspace({ 'o.txt': 'other\n' });
    cleanups.push(other.cleanup);
    const { editor, agent } = await editorAndAgent({ 'f.txt': 'f\n' }, {}, other.root);
    const r = await agent.call('read_file', { file_path: 'o.txt' });
    expect(r.structured.session.mode).toBe('headless');
    expect((await agent.call('read_file', { file_path: path.join(editor.options.root, 'f.txt') })).text).toMatch(/^outside_workspace: /);
    expect(editor.logs.some((l) => l.startsWith('agent connected'))).toBe(false);
  });

  it('an agent started without XDG_RUNTIME_DIR (as Codex starts MCP servers) finds the editor through the record\'s copy in the temp folder', async () => {
    const { ws, rt, editor } = await editorAndAgent({ 'x.txt': 'x\n' });
    await editor.open('x.txt', 'x unsaved\n');
    const agent = await startMcp({ root: ws.root, xdg: null, name: 'no-xdg-agent' });
    cleanups.push(() => agent.close());
    const r = await agent.call('read_file', { file_path: 'x.txt' });
    expect(r.structured.session).toMatchObject({ mode: 'attached', pid: editor.proc.pid });
    expect(r.text.split('\n\nnote:')[0]).toBe('     1\tx unsaved');
    // The copy goes with the editor.
    const mirror = path.join(os.tmpdir(), `editls-${os.userInfo().uid}`, `${editor.proc.pid}.json`);
    expect(existsSync(mirror)).toBe(true);
    await editor.shutdown();
    expect(existsSync(mirror)).toBe(false);
    expect(existsSync(path.join(rt.dir, `${editor.proc.pid}.json`))).toBe(false);
  });

  it('an editor whose editls serves the folder but does not answer: calls are refused, nothing is written behind its buffers', async () => {
    const { ws, editor, agent } = await editorAndAgent({ 'u.txt': 'one\n' });
    await editor.open('u.txt', 'one unsaved\n');
    // Stopped (e.g. a frozen editor): its socket still accepts connections, but nothing answers.
    process.kill(editor.proc.pid!, 'SIGSTOP');
    try {
      const r = await agent.call('edit', { file_path: 'u.txt', old_string: 'one', new_string: 'two' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^io_error: TestEditor's editls \(pid \d+\) serves .* but could not be reached \(attach timed out\); nothing was read or changed/);
      expect(ws.read('u.txt')).toBe('one\n');
    } finally {
      process.kill(editor.proc.pid!, 'SIGCONT');
    }
    // Answering again, it is attached to and the edit lands in the buffer.
    const again = await agent.call('edit', { file_path: 'u.txt', old_string: 'one', new_string: 'two' });
    expect(again.isError).toBe(false);
    expect(editor.bufferText('u.txt')).toBe('two unsaved\n');
    expect(ws.read('u.txt')).toBe('one\n');
  });

  it('a subfolder of the workspace attaches (the working directory without --root too), its paths relative to itself', async () => {
    const ws = tempWorkspace({ 'sub/g.txt': 'g\n' });
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    const editor = await startEditor(ws, rt.xdg);
    await recordOf(rt.dir, editor);
    const agent = await startMcp({ cwd: path.join(ws.root, 'sub'), xdg: rt.xdg });
    cleanups.push(() => agent.close());
    const r = await agent.call('read_file', { file_path: 'g.txt' });
    expect(r.structured.session.mode).toBe('attached');
    expect(r.text.split('\n\nnote:')[0]).toBe('     1\tg');
  });

  it('folder 0700, record and socket 0600 with pid, folders, editor, token; both removed on exit', async () => {
    const { ws, rt, editor } = await editorAndAgent({});
    const record = await recordOf(rt.dir, editor);
    expect(statSync(rt.dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(rt.dir, `${editor.proc.pid}.json`)).mode & 0o777).toBe(0o600);
    expect(statSync(record.endpoint).mode & 0o777).toBe(0o600);
    expect(record).toMatchObject({ pid: editor.proc.pid, folders: [ws.root], clientName: 'TestEditor', endpoint: path.join(rt.dir, `${editor.proc.pid}.sock`) });
    expect(record.token).toMatch(/^[0-9a-f]{32}$/);
    expect(editor.logs.join('\n')).not.toContain(record.token);
    await editor.shutdown();
    expect(readdirSync(rt.dir)).toEqual([]);
  });

  it('after kill -9 the record and socket stay; the next editor start removes them', async () => {
    const ws = tempWorkspace({});
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    const first = await startEditor(ws, rt.xdg);
    await recordOf(rt.dir, first);
    first.proc.kill('SIGKILL');
    await first.exitCode;
    expect(readdirSync(rt.dir).sort()).toEqual([`${first.proc.pid}.json`, `${first.proc.pid}.sock`]);
    const second = await startEditor(ws, rt.xdg);
    await recordOf(rt.dir, second);
    expect(readdirSync(rt.dir).sort()).toEqual([`${second.proc.pid}.json`, `${second.proc.pid}.sock`]);
  });

  it('a runtime folder with wider modes is refused: no record, the editor logs why, the agent works headless', async () => {
    const ws = tempWorkspace({ 'h.txt': 'h\n' });
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    mkdirSync(rt.dir, { mode: 0o700 });
    chmodSync(rt.dir, 0o755);
    const editor = await startEditor(ws, rt.xdg);
    await until(() => editor.logs.find((l) => l.includes('agents cannot attach')), 'the warning');
    expect(readdirSync(rt.dir)).toEqual([]);
    const agent = await startMcp({ root: ws.root, xdg: rt.xdg });
    cleanups.push(() => agent.close());
    expect((await agent.call('read_file', { file_path: 'h.txt' })).structured.session.mode).toBe('headless');
  });

  it('a wrong token is refused and the socket closed; requests before attach are refused', async () => {
    const { rt, editor } = await editorAndAgent({});
    const record = await recordOf(rt.dir, editor);
    for (const first of ['editls/attach', 'workspace/executeCommand']) {
      const socket = net.connect(record.endpoint);
      await new Promise((r) => socket.once('connect', r));
      const closed = new Promise((r) => socket.once('close', r));
      const conn = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
      conn.listen();
      const params = first === 'editls/attach' ? { token: '0'.repeat(32), clientInfo: { name: 'intruder' } } : { command: 'editls.readFile', arguments: [{ file_path: 'x' }] };
      await expect(conn.sendRequest(first, params)).rejects.toMatchObject({ message: expect.stringMatching(/token/) });
      await closed;
      conn.dispose();
    }
    expect(editor.logs).toContain('agent connection refused: wrong token');
    expect(editor.logs.some((l) => l.startsWith('agent connected'))).toBe(false);
  });
});
