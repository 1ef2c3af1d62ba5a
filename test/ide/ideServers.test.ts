// editls's IDE servers over the real stdio server: Claude Code's (WebSocket MCP, lock file) and
// Gemini CLI's IDE companion (MCP over HTTP, discovery file), driven by the MCP SDK's client as the
// CLIs drive them, with a scripted editor that answers the review prompt. What the agent is told is
// what the editor did; nothing is ever written by editls; the files go at shutdown.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverFixture } from '../helpers/serverFixture.js';
import { connectClaude, connectGemini, discoveryFile, openClaudeSocket } from '../helpers/ideClients.js';
import { CAPS_VSCODE, type TestClient } from '../helpers/lspClient.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const fx = serverFixture();

interface Prompted {
  message: string;
  answer(title: string | null): void;
  cancelled: boolean;
}

/** The editor with its review prompts kept for the test to answer, and a private place for the discovery files (`before` prepares it). */
async function editor(files: Record<string, string>, init: Record<string, unknown> = {}, before?: (home: TempWorkspace) => void) {
  const ws = fx.setup(files);
  const home = fx.setup({});
  mkdirSync(path.join(home.root, 'tmp'));
  before?.(home);
  const env = { ...process.env, CLAUDE_CONFIG_DIR: path.join(home.root, 'claude'), TMPDIR: path.join(home.root, 'tmp') };
  const client = await fx.start(ws, { env, initializationOptions: init, capabilities: { ...CAPS_VSCODE, window: { ...CAPS_VSCODE.window, showDocument: { support: true } } } });
  const prompts: Prompted[] = [];
  const shown: string[] = [];
  client.conn.onRequest('window/showMessageRequest', (p: { message: string }, token: { onCancellationRequested(f: () => void): unknown }) => {
    return new Promise((resolve) => {
      const entry: Prompted = { message: p.message, cancelled: false, answer: (title) => resolve(title === null ? null : { title }) };
      token.onCancellationRequested(() => {
        entry.cancelled = true;
        resolve(null);
      });
      prompts.push(entry);
    });
  });
  client.conn.onRequest('window/showDocument', (p: { uri: string }) => {
    shown.push(p.uri);
    return { success: true };
  });
  return { ws, home, client, prompts, shown, claudeDir: path.join(home.root, 'claude', 'ide'), geminiDir: path.join(home.root, 'tmp', 'gemini', 'ide') };
}

async function prompt(prompts: Prompted[], n = 1): Promise<Prompted> {
  expect(await waitFor(() => prompts.length >= n)).toBe(true);
  return prompts[n - 1]!;
}

function hints(client: TestClient, ws: TempWorkspace, rel: string) {
  return client.diagnostics.get(client.uri(rel)) ?? [];
}

describe("Claude Code's IDE integration", () => {
  it('publishes a private lock file naming the folders, and removes it at shutdown', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const lockFile = await discoveryFile(e.claudeDir, /^\d+\.lock$/);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
    expect(lock).toMatchObject({ workspaceFolders: [e.ws.root], transport: 'ws', runningInWindows: false, pid: process.pid });
    expect(lock.ideName).toMatch(/\(editls\)$/);
    expect(lock.authToken).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(lockFile).mode & 0o777).toBe(0o600);
    expect(statSync(e.claudeDir).mode & 0o777).toBe(0o700);
    await e.client.shutdown();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses a connection without the token, with a wrong one, from a web page or without the mcp subprotocol', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const lockFile = await discoveryFile(e.claudeDir, /^\d+\.lock$/);
    const { authToken } = JSON.parse(readFileSync(lockFile, 'utf8'));
    const port = Number(path.basename(lockFile, '.lock'));
    await expect(openClaudeSocket(port, {})).rejects.toThrow('HTTP 401');
    // A token one digit off (its last digit changed: a token ending in 0 made this the right one, 1 run in 16).
    const wrong = `${authToken.slice(0, -1)}${authToken.endsWith('0') ? '1' : '0'}`;
    expect(wrong).not.toBe(authToken);
    await expect(openClaudeSocket(port, { 'x-claude-code-ide-authorization': wrong })).rejects.toThrow('HTTP 401');
    await expect(openClaudeSocket(port, { 'x-claude-code-ide-authorization': authToken, Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openClaudeSocket(port, { 'x-claude-code-ide-authorization': authToken }, ['other'])).rejects.toThrow('HTTP 400');
    const ok = await openClaudeSocket(port, { 'x-claude-code-ide-authorization': authToken });
    expect(ok.protocol).toBe('mcp');
    ok.close();
  });

  it('openDiff accepted in the editor answers FILE_SAVED with the text; editls writes nothing', async () => {
    const e = await editor({ 'a.txt': 'one\r\ntwo\r\nthree\r\n' });
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const file = e.ws.file('a.txt');
    const proposed = 'one\ntwo (edited)\nthree\n';
    const answer = claude.call('openDiff', { old_file_path: file, new_file_path: file, new_file_contents: proposed, tab_name: '✻ [Claude Code] a.txt (abc123) ⧉' });
    const p = await prompt(e.prompts);
    expect(p.message).toBe('Claude Code edit to a.txt: +1 −1');
    // The preview shows the one changed line only (CR LF file, LF proposal), and the file is shown.
    expect(await waitFor(() => hints(e.client, e.ws, 'a.txt').length === 1)).toBe(true);
    expect(hints(e.client, e.ws, 'a.txt')[0]!.range.start.line).toBe(1);
    expect(e.shown).toEqual([e.client.uri('a.txt')]);
    p.answer('Apply');
    expect(await answer).toEqual({ texts: ['FILE_SAVED', proposed], isError: false });
    expect(e.ws.read('a.txt')).toBe('one\r\ntwo\r\nthree\r\n');
    expect(await waitFor(() => hints(e.client, e.ws, 'a.txt').length === 0)).toBe(true);
    await claude.close();
  });

  it('openDiff discarded answers DIFF_REJECTED; a new file is reviewed from nothing', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const file = e.ws.file('new/b.txt');
    const answer = claude.call('openDiff', { old_file_path: file, new_file_path: file, new_file_contents: 'hello\n', tab_name: 't1' });
    const p = await prompt(e.prompts);
    expect(p.message).toBe('Claude Code edit to new/b.txt: +1 −0');
    p.answer('Discard');
    const result = await answer;
    expect(result.texts[0]).toBe('DIFF_REJECTED');
    expect(result.isError).toBe(false);
    expect(existsSync(file)).toBe(false);
    await claude.close();
  });

  it("the preview's own code action accepts it without writing (agents attached through editls mcp cannot see it: test/workspace/previews.test.ts)", async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\n' });
    await e.client.open('a.txt');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const file = e.ws.file('a.txt');
    const answer = claude.call('openDiff', { old_file_path: file, new_file_path: file, new_file_contents: 'one\nTWO\n', tab_name: 't' });
    await prompt(e.prompts);
    const actions = (await e.client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: e.client.uri('a.txt') }, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, context: { diagnostics: [] } })) as { title: string; command: { command: string; arguments: unknown[] } }[];
    const accept = actions.find((a) => a.title.startsWith("editls: accept Claude Code's edit"))!;
    expect(accept.title).toMatch(/^editls: accept Claude Code's edit p\d+ \(Claude Code edit, 1 change in a\.txt\)$/);
    expect(actions.some((a) => a.title.startsWith("editls: reject Claude Code's edit"))).toBe(true);
    const applied = await e.client.exec(accept.command.command, accept.command.arguments[0]);
    expect(applied.message).toMatch(/accepted Claude Code's change to a\.txt .*Claude Code writes it/);
    expect(await answer).toEqual({ texts: ['FILE_SAVED', 'one\nTWO\n'], isError: false });
    // The prompt was withdrawn, the buffer and the disk untouched.
    expect(await waitFor(() => e.prompts[0]!.cancelled)).toBe(true);
    expect(e.client.bufferText('a.txt')).toBe('one\ntwo\n');
    expect(e.ws.read('a.txt')).toBe('one\ntwo\n');
    expect(e.client.appliedEdits).toEqual([]);
    await claude.close();
  });

  it('refuses a buffer with unsaved changes (an error: Claude Code asks in the terminal) and tells the user why', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\n' });
    await e.client.open('a.txt', 'one\ntwo\nunsaved\n');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const file = e.ws.file('a.txt');
    const result = await claude.call('openDiff', { old_file_path: file, new_file_path: file, new_file_contents: 'one\nTWO\n', tab_name: 't' });
    expect(result.isError).toBe(true);
    expect(result.texts[0]).toMatch(/a\.txt has unsaved changes in the editor/);
    expect(e.prompts).toEqual([]);
    expect(await waitFor(() => e.client.messages.some((m) => /not shown for review: a\.txt has unsaved changes/.test(m)))).toBe(true);
    expect(e.ws.read('a.txt')).toBe('one\ntwo\n');
    await claude.close();
  });

  it('close_tab (answered in the terminal) and closeAllDiffTabs withdraw the review: the prompt is cancelled, DIFF_REJECTED', async () => {
    const e = await editor({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const a = claude.call('openDiff', { old_file_path: e.ws.file('a.txt'), new_file_path: e.ws.file('a.txt'), new_file_contents: 'ONE\n', tab_name: 'tab-a' });
    await prompt(e.prompts);
    expect(await claude.call('close_tab', { tab_name: 'tab-a' })).toEqual({ texts: ['TAB_CLOSED'], isError: false });
    expect((await a).texts[0]).toBe('DIFF_REJECTED');
    expect(await waitFor(() => e.prompts[0]!.cancelled)).toBe(true);
    const b = claude.call('openDiff', { old_file_path: e.ws.file('b.txt'), new_file_path: e.ws.file('b.txt'), new_file_contents: 'BEE\n', tab_name: 'tab-b' });
    await prompt(e.prompts, 2);
    expect(await claude.call('closeAllDiffTabs', {})).toEqual({ texts: ['CLOSED_1_DIFF_TABS'], isError: false });
    expect((await b).texts[0]).toBe('DIFF_REJECTED');
    expect(await waitFor(() => hints(e.client, e.ws, 'b.txt').length === 0)).toBe(true);
    await claude.close();
  });

  it('an edit of the buffer while the review waits rejects it (never applied on other text)', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\n' });
    await e.client.open('a.txt');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const answer = claude.call('openDiff', { old_file_path: e.ws.file('a.txt'), new_file_path: e.ws.file('a.txt'), new_file_contents: 'one\nTWO\n', tab_name: 't' });
    await prompt(e.prompts);
    await e.client.type('a.txt', 'one', 'uno');
    const result = await answer;
    expect(result.texts[0]).toBe('DIFF_REJECTED');
    expect(result.texts[1]).toMatch(/went out of date: the document changed in the editor/);
  });

  it('getWorkspaceFolders, getOpenEditors, checkDocumentDirty, getDiagnostics, saveDocument answer what editls knows', async () => {
    const e = await editor({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    await e.client.open('a.txt');
    await e.client.open('b.txt', 'changed\n');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    const folders = JSON.parse((await claude.call('getWorkspaceFolders', {})).texts[0]!);
    expect(folders).toEqual({ success: true, folders: [{ name: path.basename(e.ws.root), uri: e.client.uri('').replace(/\/$/, ''), path: e.ws.root }], rootPath: e.ws.root });
    const tabs = JSON.parse((await claude.call('getOpenEditors', {})).texts[0]!).tabs;
    expect(tabs.map((t: { label: string; isDirty: boolean; isActive: boolean }) => [t.label, t.isDirty, t.isActive])).toEqual([['b.txt', true, true], ['a.txt', false, false]]);
    expect(JSON.parse((await claude.call('checkDocumentDirty', { filePath: e.ws.file('a.txt') })).texts[0]!)).toMatchObject({ success: true, isDirty: false });
    expect(JSON.parse((await claude.call('checkDocumentDirty', { filePath: e.ws.file('nope.txt') })).texts[0]!)).toMatchObject({ success: false });
    expect(await claude.call('getDiagnostics', { uri: e.client.uri('a.txt') })).toEqual({ texts: ['[]'], isError: false });
    expect(JSON.parse((await claude.call('saveDocument', { filePath: e.ws.file('b.txt') })).texts[0]!).success).toBe(false);
    await claude.close();
  });

  it('sends the selection the editor shows in a code action request as selection_changed', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo 😀 three\n' });
    await e.client.open('a.txt');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    await e.client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: e.client.uri('a.txt') }, range: { start: { line: 1, character: 4 }, end: { line: 1, character: 6 } }, context: { diagnostics: [] } });
    expect(await waitFor(() => claude.notifications.some((n) => n.method === 'selection_changed'))).toBe(true);
    const sel = claude.notifications.find((n) => n.method === 'selection_changed')!.params;
    expect(sel).toEqual({ text: '😀', filePath: e.ws.file('a.txt'), fileUrl: e.client.uri('a.txt'), selection: { start: { line: 1, character: 4 }, end: { line: 1, character: 6 }, isEmpty: false } });
    await claude.close();
  });
});

describe('the discovery files', () => {
  it("sweep files left by an editls that is gone, and leave live ones and other IDEs' alone", async () => {
    const alive = process.pid;
    const dead = 2 ** 22 + 12345; // above pid_max's default: no such process
    const e = await editor({ 'a.txt': 'one\n' }, {}, (home) => {
      home.write('claude/ide/1111.lock', JSON.stringify({ pid: alive, editlsPid: dead, authToken: 'x' }));
      home.write('claude/ide/2222.lock', JSON.stringify({ pid: alive, editlsPid: alive, authToken: 'x' }));
      home.write('claude/ide/3333.lock', JSON.stringify({ pid: dead, ideName: 'Visual Studio Code', authToken: 'x' }));
      home.write(`tmp/gemini/ide/gemini-ide-server-${dead}-4444.json`, JSON.stringify({ port: 4444, ideInfo: { name: 'editls', displayName: 'x' } }));
      home.write(`tmp/gemini/ide/gemini-ide-server-${dead}-5555.json`, JSON.stringify({ port: 5555, ideInfo: { name: 'vscode', displayName: 'VS Code' } }));
      home.write(`tmp/gemini/ide/gemini-ide-server-${alive}-6666.json`, JSON.stringify({ port: 6666, ideInfo: { name: 'editls', displayName: 'x' } }));
    });
    const lock = await discoveryFile(e.claudeDir, /^\d{5}\.lock$/);
    await discoveryFile(e.geminiDir, new RegExp(`^gemini-ide-server-${e.client.proc.pid}-`));
    expect(readdirSync(e.claudeDir).sort()).toEqual(['2222.lock', '3333.lock', path.basename(lock)].sort());
    expect(readdirSync(e.geminiDir).filter((n) => !n.includes(`-${e.client.proc.pid}-`)).sort()).toEqual([`gemini-ide-server-${alive}-6666.json`, `gemini-ide-server-${dead}-5555.json`].sort());
  });

  it('follow the settings as they change: off removes the file, on again publishes one (two changes at once start one server)', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const first = await discoveryFile(e.claudeDir, /^\d+\.lock$/);
    const change = (configuration: unknown) => {
      (e.client.options as { configuration?: unknown }).configuration = configuration;
      return e.client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    };
    await change({ claudeCodeIde: false });
    expect(await waitFor(() => !existsSync(first))).toBe(true);
    await change({ claudeCodeIde: true });
    await change({ claudeCodeIde: true });
    const second = await discoveryFile(e.claudeDir, /^\d+\.lock$/);
    expect(await waitFor(() => e.client.logs.filter((l) => l.startsWith("agent CLIs' IDE integrations:")).length >= 4)).toBe(true);
    expect(readdirSync(e.claudeDir)).toEqual([path.basename(second)]);
    expect(second).not.toBe(first);
  });

  it("refuse a folder that is a symbolic link (the server is not started, the log says why)", async () => {
    const elsewhere = fx.setup({});
    const e = await editor({ 'a.txt': 'one\n' }, {}, (home) => {
      mkdirSync(path.join(home.root, 'claude'));
      symlinkSync(elsewhere.root, path.join(home.root, 'claude', 'ide'));
    });
    expect(await waitFor(() => e.client.logs.some((l) => l.startsWith("agent CLIs' IDE integrations:")))).toBe(true);
    expect(e.client.logs.find((l) => l.startsWith("agent CLIs' IDE integrations:"))).toMatch(/Claude Code off \(claudeCodeIde\), Gemini CLI on 127\.0\.0\.1:\d+/);
    expect(e.client.logs.some((l) => /Claude Code's IDE integration not started: .*ide is a symbolic link/.test(l))).toBe(true);
    expect(readdirSync(elsewhere.root)).toEqual([]);
  });
});

describe('editls.sendToAgent and its code action', () => {
  it('offers "send lines … to Claude Code" only while it is connected, and sends at_mentioned (0-based lines)', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\nthree\n' });
    await e.client.open('a.txt');
    const titles = async (range: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
      ((await e.client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: e.client.uri('a.txt') }, range, context: { diagnostics: [] } })) as { title: string; command: { command: string; arguments: unknown[] } }[]);
    const selection = { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } };
    expect((await titles(selection)).map((a) => a.title).filter((t) => t.includes('send'))).toEqual([]);
    expect((await e.client.execError('editls.sendToAgent', { path: 'a.txt', startLine: 2 })).data.kind).toBe('not_found');
    const claude = await connectClaude(await discoveryFile(e.claudeDir, /^\d+\.lock$/));
    await waitFor(() => e.client.messages.some((m) => m.includes('Claude Code connected')));
    const send = (await titles(selection)).find((a) => a.title === 'editls: send lines 2–3 to Claude Code')!;
    expect(send.command).toEqual({ title: send.title, command: 'editls.sendToAgent', arguments: [{ path: e.client.uri('a.txt'), startLine: 2, endLine: 3 }] });
    const sent = await e.client.exec(send.command.command, send.command.arguments[0]);
    expect(sent).toMatchObject({ success: true, agents: ['Claude Code'], message: 'editls.sendToAgent: sent a.txt lines 2–3 to Claude Code' });
    expect(await waitFor(() => claude.notifications.some((n) => n.method === 'at_mentioned'))).toBe(true);
    expect(claude.notifications.find((n) => n.method === 'at_mentioned')!.params).toEqual({ filePath: e.ws.file('a.txt'), lineStart: 1, lineEnd: 2 });
    // A cursor offers its own line.
    expect((await titles({ start: { line: 0, character: 1 }, end: { line: 0, character: 1 } })).map((a) => a.title)).toContain('editls: send line 1 to Claude Code');
    expect((await e.client.execError('editls.sendToAgent', { path: 'a.txt', startLine: 3, endLine: 2 })).data.kind).toBe('invalid_args');
    await claude.close();
  });
});

describe("Gemini CLI's IDE companion", () => {
  it('publishes a private discovery file and answers only the token on 127.0.0.1', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const file = await discoveryFile(e.geminiDir, /^gemini-ide-server-\d+-\d+\.json$/);
    const info = JSON.parse(readFileSync(file, 'utf8'));
    expect(info).toMatchObject({ workspacePath: e.ws.root, ideInfo: { name: 'editls' } });
    expect(path.basename(file)).toBe(`gemini-ide-server-${e.client.proc.pid}-${info.port}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const post = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${info.port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer nope' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${info.authToken}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${info.authToken}` })).status).toBe(200);
    await e.client.shutdown();
    expect(existsSync(file)).toBe(false);
  });

  it('openDiff answers at once; Apply sends ide/diffAccepted with the text, Discard ide/diffRejected; editls writes nothing', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\n' });
    const gemini = await connectGemini(await discoveryFile(e.geminiDir, /\.json$/));
    const file = e.ws.file('a.txt');
    expect(await gemini.call('openDiff', { filePath: file, newContent: 'one\nTWO\n' })).toEqual({ texts: [], isError: false });
    (await prompt(e.prompts)).answer('Apply');
    expect(await waitFor(() => gemini.notifications.some((n) => n.method === 'ide/diffAccepted'))).toBe(true);
    expect(gemini.notifications.find((n) => n.method === 'ide/diffAccepted')!.params).toEqual({ filePath: file, content: 'one\nTWO\n' });
    await gemini.call('openDiff', { filePath: file, newContent: 'one\nthree\n' });
    (await prompt(e.prompts, 2)).answer('Discard');
    expect(await waitFor(() => gemini.notifications.some((n) => n.method === 'ide/diffRejected'))).toBe(true);
    expect(gemini.notifications.find((n) => n.method === 'ide/diffRejected')!.params).toEqual({ filePath: file });
    expect(e.ws.read('a.txt')).toBe('one\ntwo\n');
    await gemini.close();
  });

  it('closeDiff (answered in the terminal) withdraws the review, returns the proposed text as JSON and sends no outcome', async () => {
    const e = await editor({ 'a.txt': 'one\n' });
    const gemini = await connectGemini(await discoveryFile(e.geminiDir, /\.json$/));
    const file = e.ws.file('a.txt');
    await gemini.call('openDiff', { filePath: file, newContent: 'ONE\n' });
    const p = await prompt(e.prompts);
    expect(await gemini.call('closeDiff', { filePath: file, suppressNotification: true })).toEqual({ texts: [JSON.stringify({ content: 'ONE\n' })], isError: false });
    expect(await waitFor(() => p.cancelled)).toBe(true);
    expect(await waitFor(() => hints(e.client, e.ws, 'a.txt').length === 0)).toBe(true);
    expect(gemini.notifications.filter((n) => n.method === 'ide/diffAccepted' || n.method === 'ide/diffRejected')).toEqual([]);
    expect(await gemini.call('closeDiff', { filePath: file })).toEqual({ texts: [JSON.stringify({ content: null })], isError: false });
    await gemini.close();
  });

  it('sends the open files, the active one with the cursor and selection (1-based), as ide/contextUpdate', async () => {
    const e = await editor({ 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n' });
    const gemini = await connectGemini(await discoveryFile(e.geminiDir, /\.json$/));
    await e.client.open('b.txt');
    await e.client.open('a.txt');
    await e.client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: e.client.uri('a.txt') }, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, context: { diagnostics: [] } });
    const last = () => [...gemini.notifications].reverse().find((n) => n.method === 'ide/contextUpdate')?.params.workspaceState.openFiles as { path: string; isActive?: boolean; cursor?: unknown; selectedText?: string }[] | undefined;
    expect(await waitFor(() => last()?.[0]?.selectedText === 'two')).toBe(true);
    expect(last()!.map((f) => [f.path, f.isActive === true])).toEqual([[e.ws.file('a.txt'), true], [e.ws.file('b.txt'), false]]);
    expect(last()![0]!.cursor).toEqual({ line: 2, character: 4 });
    await gemini.close();
  });

  it('both servers stay off when their settings say so', async () => {
    const e = await editor({ 'a.txt': 'one\n' }, { claudeCodeIde: false, geminiIde: false });
    expect(await waitFor(() => e.client.logs.some((l) => l.startsWith('agent CLIs\' IDE integrations:')))).toBe(true);
    expect(e.client.logs.find((l) => l.startsWith('agent CLIs\' IDE integrations:'))).toBe("agent CLIs' IDE integrations: Claude Code off (claudeCodeIde), Gemini CLI off (geminiIde)");
    expect(existsSync(e.claudeDir) && readdirSync(e.claudeDir).length > 0).toBe(false);
    expect(existsSync(e.geminiDir) && readdirSync(e.geminiDir).length > 0).toBe(false);
  });
});
