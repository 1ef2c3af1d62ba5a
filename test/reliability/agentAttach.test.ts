// Attacks on the agent socket of an editor's editls (server/attach/): random and near-miss tokens,
// requests and LSP lifecycle messages before and after attaching (shutdown, exit, didOpen, applyEdit
// answers), malformed frames, and path escapes through attached MCP tools. The editor's session must
// stay up and serve the editor, nothing outside the workspace may change, no attacker may attach.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { privateRuntimeDir, startMcp } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';
import { report, size } from './budget.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function connect(endpoint: string) {
  const socket = net.connect(endpoint);
  await new Promise((r, j) => socket.once('connect', r).once('error', j));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const conn = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
  conn.onError(() => undefined);
  conn.listen();
  return { socket, conn, closed };
}

describe('agent socket attacks', () => {
  it('no wrong token attaches, no message before attaching is served, the editor session stays up', async () => {
    const ws = tempWorkspace({ 'a.txt': 'keep\n' });
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    const editor = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, clientName: 'E', env: { ...process.env, XDG_RUNTIME_DIR: rt.xdg } });
    cleanups.push(() => editor.shutdown());
    const recordFile = path.join(rt.dir, `${editor.proc.pid}.json`);
    expect(await waitFor(() => existsSync(recordFile))).toBe(true);
    const record = JSON.parse(readFileSync(recordFile, 'utf8'));
    const n = size(300, 20);
    let attached = 0;
    let served = 0;
    let closedAfterRefusal = 0;
    const tokenFor = (i: number): unknown => {
      switch (i % 6) {
        case 0: return randomBytes(16).toString('hex');
        case 1: return record.token.slice(0, 31) + (record.token[31] === '0' ? '1' : '0'); // one digit off
        case 2: return record.token.toUpperCase() === record.token ? record.token + ' ' : record.token.toUpperCase();
        case 3: return record.token + '00';
        case 4: return 12345;
        default: return '';
      }
    };
    for (let i = 0; i < n; i++) {
      const { socket, conn, closed } = await connect(record.endpoint);
      try {
        if (i % 3 === 0) {
          // Something other than editls/attach first: a command, shutdown, or exit.
          conn.sendNotification('exit');
          const r = await conn.sendRequest(i % 2 ? 'shutdown' : 'workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'a.txt', old_string: 'keep', new_string: 'pwned' }] }).then(
            () => 'served',
            () => 'refused',
          );
          if (r === 'served') served++;
        } else {
          const r = await conn.sendRequest('editls/attach', { token: tokenFor(i), clientInfo: { name: 'intruder' } }).then(
            () => 'attached',
            () => 'refused',
          );
          if (r === 'attached') attached++;
        }
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        if (socket.destroyed) closedAfterRefusal++;
      } finally {
        conn.dispose();
        socket.destroy();
      }
    }
    // Malformed frames: the connection goes, the server stays.
    for (const junk of ['Content-Length: 5\r\n\r\n{{{{{', 'garbage\r\n\r\n', 'Content-Length: -1\r\n\r\n', '\u0000'.repeat(64)]) {
      const s = net.connect(record.endpoint);
      await new Promise((r) => s.once('connect', r));
      s.write(junk);
      s.end();
      await new Promise((r) => s.once('close', r));
    }
    // An attached agent cannot end or steer the editor's session: LSP lifecycle and document messages are not served.
    const legit = await connect(record.endpoint);
    await legit.conn.sendRequest('editls/attach', { token: record.token, clientInfo: { name: 'legit' } });
    let lifecycleServed = 0;
    for (const method of ['shutdown', 'initialize', 'workspace/applyEdit', 'textDocument/codeAction']) {
      if (await legit.conn.sendRequest(method, {}).then(() => true, () => false)) lifecycleServed++;
    }
    legit.conn.sendNotification('exit');
    legit.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: editor.uri('a.txt'), languageId: 'plaintext', version: 1, text: 'pwned' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(lifecycleServed).toBe(0);
    legit.conn.dispose();
    legit.socket.destroy();
    // The editor is still served, and the file is untouched.
    const r = await editor.exec('editls.readFile', { file_path: 'a.txt' });
    expect(r.content).toBe('     1\tkeep');
    expect(ws.read('a.txt')).toBe('keep\n');
    expect(editor.logs.filter((l) => l.startsWith('agent connected'))).toEqual(['agent connected: legit']);
    expect(editor.logs.join('\n')).not.toContain(record.token);
    report('agent socket attacks', { connections: n, attached, served, closedAfterRefusal, malformedFrames: 4, attachedLifecycleServed: lifecycleServed, editorStillServing: 'yes' });
    expect({ attached, served, closedAfterRefusal }).toEqual({ attached: 0, served: 0, closedAfterRefusal: n });
  }, 120_000);

  it("an attached agent is confined to its own folder: escapes to the editor's other folders and outside refused, nothing changes", async () => {
    // The editor on the workspace root, the agent in app/: the root's own files are outside the agent's folder.
    const ws = tempWorkspace({ 'app/in.txt': 'in\n', 'sibling.txt': 'secret\n' });
    const outside = mkdtempSync(path.join(os.tmpdir(), 'editls-outside-'));
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup, () => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
    const editor = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, clientName: 'E', env: { ...process.env, XDG_RUNTIME_DIR: rt.xdg } });
    cleanups.push(() => editor.shutdown());
    expect(await waitFor(() => existsSync(path.join(rt.dir, `${editor.proc.pid}.json`)))).toBe(true);
    const app = ws.file('app');
    const agent = await startMcp({ root: app, xdg: rt.xdg });
    cleanups.push(() => agent.close());
    const targets: string[] = [];
    for (const secret of [path.join(outside, 'secret.txt'), ws.file('sibling.txt')]) {
      targets.push(secret, `file://${secret}`, path.relative(app, secret), `${app}/../${path.relative(path.dirname(app), secret)}`, `${app}/in.txt\u0000/../../${path.basename(secret)}`);
    }
    let attempts = 0;
    let succeeded = 0;
    let leaked = 0;
    const rounds = size(10, 1);
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) {
        for (const [tool, args] of [
          ['read_file', { file_path: t }],
          ['edit', { file_path: t, old_string: 'secret', new_string: 'pwned' }],
          ['edit', { file_path: t + '.new', old_string: '', new_string: 'pwned' }],
          ['insert', { path: t, insert_line: 0, new_str: 'pwned' }],
          ['search_and_replace', { path: t, search: 'secret', replace: 'pwned' }],
          ['search_files', { path: path.dirname(t), regex: 'secret' }],
          ['replace_in_files', { path: path.dirname(t), search: 'secret', replace: 'pwned' }],
        ] as const) {
          attempts++;
          const r = await agent.call(tool, args);
          expect(r.text).not.toMatch(/working headless/);
          if (!r.isError) succeeded++;
          if (r.text.includes('secret\n') || /\d\tsecret/.test(r.text) || /\| secret/.test(r.text)) leaked++;
        }
      }
    }
    // Symbols: the editor indexes the whole workspace; the agent sees its own folder's only.
    const sym = await agent.call('workspace_symbols', { query: 'secret' });
    if (/sibling|secret\.txt/.test(sym.text)) leaked++;
    const outsideChanged =
      readFileSync(path.join(outside, 'secret.txt'), 'utf8') !== 'secret\n' || ws.read('sibling.txt') !== 'secret\n' || existsSync(path.join(outside, 'secret.txt.new')) || existsSync(ws.file('sibling.txt.new')) ? 1 : 0;
    report("attached agent path escapes (agent in a subfolder of the editor's workspace)", { attempts, succeeded, leaked, outsideChanged });
    expect({ succeeded, leaked, outsideChanged }).toEqual({ succeeded: 0, leaked: 0, outsideChanged: 0 });
  }, 120_000);
});
