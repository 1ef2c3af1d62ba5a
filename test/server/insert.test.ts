// editls.insert through the real server over stdio: closed files byte-exact (BOM, CRLF, UTF-16, no
// final newline), open buffers in utf-8/utf-16/utf-32 sessions (through workspace/applyEdit, disk
// untouched), previews, range errors, argument coercion and a missing file.
import { describe, expect, it } from 'vitest';
import { CAPS_HELIX, CAPS_UTF32, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

const INSERT = 'editls.insert';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('closed files', () => {
  it('inserts after a line of a CRLF file with a BOM: new breaks CRLF, BOM kept, written to disk', async () => {
    const ws = setup({ 'a.txt': Buffer.concat([BOM, Buffer.from('one\r\ntwo\r\n', 'utf8')]) });
    const client = await start(ws);
    const r = await client.exec(INSERT, { path: 'a.txt', insert_line: 1, new_str: 'x\ny' });
    expect(ws.bytes('a.txt')).toEqual(Buffer.concat([BOM, Buffer.from('one\r\nx\r\ny\r\ntwo\r\n', 'utf8')]));
    expect(r).toMatchObject({ success: true, status: 'applied', applied: true, filesChanged: 1, replacements: 1, insertedLines: { startLine: 2, endLine: 3 } });
    expect(r.files[0].via).toBe('disk');
    expect(r.message).toBe('editls.insert: 1 insertion in a.txt; written to disk');
    expect(r.unifiedDiff).toContain('+x');
  });

  it('a UTF-16 LE file stays UTF-16 LE', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb\n', 'utf16le')]);
    const ws = setup({ 'w.txt': utf16 });
    const client = await start(ws);
    await client.exec(INSERT, { path: 'w.txt', insert_line: '2', new_str: '名前 😀' });
    expect(ws.bytes('w.txt')).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb\n名前 😀\n', 'utf16le')]));
  });

  it('at the end of a file without a final newline, the file still ends without one', async () => {
    const ws = setup({ 'n.txt': 'a\nb' });
    const client = await start(ws);
    await client.exec(INSERT, { path: 'n.txt', insert_line: 2, new_str: 'c' });
    expect(ws.read('n.txt')).toBe('a\nb\nc');
  });

  it('at the start (0) and into an empty file', async () => {
    const ws = setup({ 'e.txt': '', 's.txt': 'b\n' });
    const client = await start(ws);
    await client.exec(INSERT, { path: 'e.txt', insert_line: 0, new_str: 'first' });
    await client.exec(INSERT, { path: 's.txt', insert_line: 0, new_str: 'a' });
    expect(ws.read('e.txt')).toBe('first\n');
    expect(ws.read('s.txt')).toBe('a\nb\n');
  });

  it('a line past the end or negative is invalid_range; nothing written', async () => {
    const ws = setup({ 'r.txt': 'a\nb\n' });
    const client = await start(ws);
    const past = await client.execError(INSERT, { path: 'r.txt', insert_line: 3, new_str: 'x' });
    expect(past.data).toEqual({ kind: 'invalid_range', lineCount: 2 });
    expect(past.message).toContain('r.txt');
    const negative = await client.execError(INSERT, { path: 'r.txt', insert_line: -1, new_str: 'x' });
    expect(negative.data.kind).toBe('invalid_range');
    expect(ws.read('r.txt')).toBe('a\nb\n');
  });

  it('bad arguments are invalid_args; a missing file is file_not_found', async () => {
    const ws = setup({ 'r.txt': 'a\n' });
    const client = await start(ws);
    for (const bad of [{ path: 'r.txt', insert_line: 1.5, new_str: 'x' }, { path: 'r.txt', new_str: 'x' }, { path: 'r.txt', insert_line: 1, new_str: '' }, { path: 'r.txt', insert_line: 1, new_str: '\ud83d' }]) {
      const err = await client.execError(INSERT, bad);
      expect(err.data.kind).toBe('invalid_args');
    }
    const missing = await client.execError(INSERT, { path: 'nope.txt', insert_line: 0, new_str: 'x' });
    expect(missing.data.kind).toBe('file_not_found');
    expect(ws.read('r.txt')).toBe('a\n');
  });

  it('a preview changes nothing and returns a previewId', async () => {
    const ws = setup({ 'p.txt': 'a\n' });
    const client = await start(ws);
    const r = await client.exec(INSERT, { path: 'p.txt', insert_line: 1, new_str: 'b', apply: 'preview' });
    expect(r).toMatchObject({ status: 'preview', applied: false });
    expect(typeof r.previewId).toBe('string');
    expect(ws.read('p.txt')).toBe('a\n');
    await client.exec('editls.applyPreview', { id: r.previewId });
    expect(ws.read('p.txt')).toBe('a\nb\n');
  });
});

describe('open buffers, every position encoding', () => {
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['utf-32 (lsp-mode capabilities, positionEncodings utf-32)', CAPS_UTF32, undefined],
  ] as const) {
    it(`inserts into the unsaved buffer after a line of emoji and CJK, disk untouched — ${name}`, async () => {
      const disk = 'x😀 名前\r\nend\r\n';
      const ws = setup({ 'a.txt': disk });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      await client.type('a.txt', 'end', 'END');
      const r = await client.exec(INSERT, { path: 'a.txt', insert_line: 1, new_str: '👨‍👩‍👧 new' });
      expect(client.bufferText('a.txt')).toBe('x😀 名前\r\n👨‍👩‍👧 new\r\nEND\r\n');
      expect(ws.read('a.txt')).toBe(disk);
      expect(r.files[0].via).toBe('editor');
      expect(r.insertedLines).toEqual({ startLine: 2, endLine: 2 });
    });
  }
});
