// editls.undo through the real server over stdio: exact prior bytes on disk (BOM, CRLF, UTF-16),
// open buffers in utf-8/utf-16/utf-32 sessions through the editor, repeated undo going further back,
// stale when the file changed since, undo of a creation, undoDepth, the last command without a path,
// and the "undo last editls change" code action.
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { CAPS_HELIX, CAPS_UTF32, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

const UNDO = 'editls.undo';
const EDIT = 'editls.edit';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('closed files', () => {
  it('each undo restores the exact prior bytes (BOM, CRLF), going back one change at a time; then no_change', async () => {
    const original = Buffer.concat([BOM, Buffer.from('alpha\r\nbeta\ngamma\r\n', 'utf8')]);
    const ws = setup({ 'a.txt': original });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA\nmore' });
    const afterFirst = ws.bytes('a.txt');
    await client.exec('editls.insert', { path: 'a.txt', insert_line: 0, new_str: 'top' });
    await client.exec('editls.searchAndReplace', { path: 'a.txt', search: 'a', replace: 'A' });
    const r = await client.exec(UNDO, { path: 'a.txt' });
    expect(r).toMatchObject({ success: true, applied: true, filesChanged: 1, undone: 'editls.searchAndReplace a.txt', remaining: { 'a.txt': 2 } });
    expect(r.files[0].via).toBe('disk');
    expect(r.message).toBe('editls.undo: 1 change in a.txt; written to disk');
    await client.exec(UNDO, { path: 'a.txt' });
    expect(ws.bytes('a.txt')).toEqual(afterFirst);
    await client.exec(UNDO, { path: 'a.txt' });
    expect(ws.bytes('a.txt')).toEqual(original);
    const none = await client.execError(UNDO, { path: 'a.txt' });
    expect(none.data.kind).toBe('no_change');
    expect(none.message).toContain('a.txt');
  });

  it('a UTF-16 LE file gets its exact bytes back', async () => {
    const original = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('名前 😀\r\nx\r\n', 'utf16le')]);
    const ws = setup({ 'w.txt': original });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'w.txt', old_string: '😀', new_string: '👨‍👩‍👧' });
    expect(ws.bytes('w.txt')).not.toEqual(original);
    await client.exec(UNDO, {});
    expect(ws.bytes('w.txt')).toEqual(original);
  });

  it('a file changed on disk since the edit is stale, and nothing changes', async () => {
    const ws = setup({ 's.txt': 'one\ntwo\n' });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 's.txt', old_string: 'one', new_string: 'ONE' });
    writeFileSync(ws.file('s.txt'), 'ONE\ntwo\nthree by someone else\n');
    const err = await client.execError(UNDO, { path: 's.txt' });
    expect(err.data.kind).toBe('stale');
    expect(err.message).toContain('s.txt');
    expect(ws.read('s.txt')).toBe('ONE\ntwo\nthree by someone else\n');
  });

  it('without a path, the most recent command is undone; a path picks that file', async () => {
    const ws = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'a', new_string: 'A1' });
    await client.exec(EDIT, { file_path: 'b.txt', old_string: 'b', new_string: 'B1' });
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'A1', new_string: 'A2' });
    await client.exec(UNDO, { path: 'b.txt' });
    expect(ws.read('b.txt')).toBe('b\n');
    expect(ws.read('a.txt')).toBe('A2\n');
    await client.exec(UNDO, {});
    expect(ws.read('a.txt')).toBe('A1\n');
    await client.exec(UNDO, {});
    expect(ws.read('a.txt')).toBe('a\n');
    expect((await client.execError(UNDO, {})).data.kind).toBe('no_change');
  });

  it('with no arguments at all (a palette command, a keybinding without args), the last change is undone', async () => {
    const ws = setup({ 'a.txt': 'a\n' });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'a', new_string: 'A' });
    await client.conn.sendRequest('workspace/executeCommand', { command: UNDO, arguments: [] });
    expect(ws.read('a.txt')).toBe('a\n');
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'a', new_string: 'B' });
    await client.conn.sendRequest('workspace/executeCommand', { command: UNDO });
    expect(ws.read('a.txt')).toBe('a\n');
  });

  it('undo of a creation deletes the file if it still holds what editls wrote', async () => {
    const ws = setup({});
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'new/c.txt', old_string: '', new_string: 'created\n' });
    const r = await client.exec(UNDO, { path: 'new/c.txt' });
    expect(r).toMatchObject({ success: true, deleted: ['new/c.txt'], filesChanged: 1 });
    expect(existsSync(ws.file('new/c.txt'))).toBe(false);
    await client.exec(EDIT, { file_path: 'd.txt', old_string: '', new_string: 'created\n' });
    writeFileSync(ws.file('d.txt'), 'created\nand edited by hand\n');
    expect((await client.execError(UNDO, { path: 'd.txt' })).data.kind).toBe('stale');
    expect(ws.read('d.txt')).toBe('created\nand edited by hand\n');
  });

  it('undoDepth bounds how far back undo goes', async () => {
    const ws = setup({ 'd.txt': '0\n' });
    const client = await start(ws, { initializationOptions: { undoDepth: 2 } });
    for (let i = 1; i <= 3; i++) await client.exec(EDIT, { file_path: 'd.txt', old_string: `${i - 1}`, new_string: `${i}` });
    await client.exec(UNDO, { path: 'd.txt' });
    await client.exec(UNDO, { path: 'd.txt' });
    expect(ws.read('d.txt')).toBe('1\n');
    expect((await client.execError(UNDO, { path: 'd.txt' })).data.kind).toBe('no_change');
  });

  it('a preview records nothing; bad arguments are invalid_args', async () => {
    const ws = setup({ 'p.txt': 'x\n' });
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'p.txt', old_string: 'x', new_string: 'y', apply: 'preview' });
    expect((await client.execError(UNDO, { path: 'p.txt' })).data.kind).toBe('no_change');
    expect((await client.execError(UNDO, { path: 'p.txt', extra: 1 })).data.kind).toBe('invalid_args');
    expect((await client.execError(UNDO, { path: '../outside.txt' })).data.kind).toBe('outside_workspace');
  });
});

describe('open buffers, every position encoding', () => {
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['utf-32 (lsp-mode capabilities, positionEncodings utf-32)', CAPS_UTF32, undefined],
  ] as const) {
    it(`reverts the buffer through the editor, disk untouched — ${name}`, async () => {
      const disk = 'x😀 名前\r\nend\r\n';
      const ws = setup({ 'a.txt': disk });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      await client.type('a.txt', 'end', 'END');
      const before = client.bufferText('a.txt');
      await client.exec(EDIT, { file_path: 'a.txt', old_string: '😀 名前', new_string: '👨‍👩‍👧\n漢字' });
      expect(client.bufferText('a.txt')).toBe('x👨‍👩‍👧\r\n漢字\r\nEND\r\n');
      const r = await client.exec(UNDO, { path: 'a.txt' });
      expect(r.files[0].via).toBe('editor');
      expect(client.bufferText('a.txt')).toBe(before);
      expect(ws.read('a.txt')).toBe(disk);
    });
  }

  it('a buffer the user typed in since is stale; the code action is offered only while undo would work', async () => {
    const ws = setup({ 'a.txt': 'hello world\n' });
    const client = await start(ws);
    await client.open('a.txt');
    const actions = async () =>
      (await client.conn.sendRequest('textDocument/codeAction', {
        textDocument: { uri: client.uri('a.txt') },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [] },
      })) as { title: string; command?: { command: string; arguments: unknown[] } }[];
    expect((await actions()).some((a) => a.command?.command === UNDO)).toBe(false);
    await client.exec(EDIT, { file_path: 'a.txt', old_string: 'world', new_string: 'there' });
    const offer = (await actions()).find((a) => a.command?.command === UNDO);
    expect(offer?.title).toBe('editls: undo last editls change (editls.edit a.txt)');
    await client.type('a.txt', 'hello', 'HELLO');
    expect((await actions()).some((a) => a.command?.command === UNDO)).toBe(false);
    const err = await client.execError(UNDO, { path: 'a.txt' });
    expect(err.data.kind).toBe('stale');
    expect(client.bufferText('a.txt')).toBe('HELLO there\n');
    await client.type('a.txt', 'HELLO', 'hello');
    await client.conn.sendRequest('workspace/executeCommand', { command: offer!.command!.command, arguments: offer!.command!.arguments });
    expect(client.bufferText('a.txt')).toBe('hello world\n');
  });

  it('undo of a creation whose buffer is open is refused with a clear message', async () => {
    const ws = setup({});
    const client = await start(ws);
    await client.exec(EDIT, { file_path: 'n.txt', old_string: '', new_string: 'x\n' });
    await client.open('n.txt');
    const err = await client.execError(UNDO, { path: 'n.txt' });
    expect(err.data.kind).toBe('apply_rejected');
    expect(err.message).toContain('close it');
    expect(ws.read('n.txt')).toBe('x\n');
  });
});
