// editls.searchAndReplace through the real server over stdio: closed files on disk (BOM, CRLF, mixed
// endings, UTF-16), open buffers in utf-8/16/32 sessions, line ranges, no-match results, errors on
// the wire, previews, and a catastrophic regex stopped while other requests are answered.
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_UTF32, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const FAMILY = '👨‍👩‍👧';
const SAR = 'editls.searchAndReplace';

describe('closed files are edited on disk', () => {
  it('regex with groups on a BOM + CRLF file with one LF line: only matched spans change', async () => {
    const ws = setup({ 'a.txt': Buffer.concat([BOM, Buffer.from('id: 1\r\nid: 22\nid: 333\r\n', 'utf8')]) });
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'a.txt', search: 'id: (\\d+)', replace: 'key=$1;\nnext', use_regex: true });
    expect(ws.bytes('a.txt')).toEqual(Buffer.concat([BOM, Buffer.from('key=1;\r\nnext\r\nkey=22;\r\nnext\nkey=333;\r\nnext\r\n', 'utf8')]));
    expect(r).toMatchObject({ success: true, status: 'applied', applied: true, filesChanged: 1, replacements: 3 });
    expect(r.files[0]).toMatchObject({ path: 'a.txt', via: 'disk', replacements: 3 });
    expect(r.unifiedDiff).toContain('+key=22;');
    expect(r.message).toBe('editls.searchAndReplace: 3 replacements in a.txt; written to disk');
  });

  it('keeps a UTF-16 LE file UTF-16 LE; literal mode keeps $ verbatim; ignore_case as a string', async () => {
    const text = 'Price: 5 €\r\nprice: 6 €\r\n';
    const ws = setup({ 'u16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) });
    const client = await start(ws);
    await client.exec(SAR, { path: 'u16.txt', search: 'PRICE:', replace: '$& cost:', ignore_case: 'true' });
    expect(ws.bytes('u16.txt')).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('$& cost: 5 €\r\n$& cost: 6 €\r\n', 'utf16le')]));
  });

  it('line ranges: 1-based, inclusive, numbers as strings, clamped end, anchors at the scope ends', async () => {
    const ws = setup({ 'r.txt': 'foo 1\r\nfoo 2\r\nfoo 3\r\nfoo 4\r\n' });
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'r.txt', search: '^foo|\\d$', replace: '#', use_regex: 'true', start_line: '2', end_line: 3 });
    expect(ws.read('r.txt')).toBe('foo 1\r\n# 2\r\nfoo #\r\nfoo 4\r\n');
    expect(r.lines).toEqual({ startLine: 2, endLine: 3 });
    const clamped = await client.exec(SAR, { path: 'r.txt', search: 'foo', replace: 'bar', start_line: 4, end_line: 99 });
    expect(clamped.lines).toEqual({ startLine: 4, endLine: 4 });
    expect(ws.read('r.txt')).toBe('foo 1\r\n# 2\r\nfoo #\r\nbar 4\r\n');
  });

  it('zero matches: success with replacements 0, nothing written, nothing sent to the editor', async () => {
    const ws = setup({ 'z.txt': 'alpha\n' });
    const before = statSync(ws.file('z.txt')).mtimeMs;
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'z.txt', search: 'beta', replace: 'x' });
    expect(r).toMatchObject({ success: true, status: 'applied', filesChanged: 0, replacements: 0, files: [], unifiedDiff: '' });
    expect(r.message).toBe('editls.searchAndReplace: no match for "beta" in z.txt; nothing changed');
    expect(statSync(ws.file('z.txt')).mtimeMs).toBe(before);
    expect(client.appliedEdits).toHaveLength(0);
    const preview = await client.exec(SAR, { path: 'z.txt', search: 'beta', replace: 'x', apply: 'preview' });
    expect(preview).toMatchObject({ status: 'preview', filesChanged: 0, replacements: 0 });
    expect(preview.previewId).toBeUndefined();
  });

  it('a 1 MB minified line with 131,072 matches', async () => {
    const line = 'var a=1;'.repeat(131_072);
    const ws = setup({ 'min.js': line });
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'min.js', search: 'a=(\\d)', replace: 'b=$1$1', use_regex: true });
    expect(r.replacements).toBe(131_072);
    expect(ws.read('min.js')).toBe('var b=11;'.repeat(131_072));
    expect(r.diffTruncated).toBe(true);
    expect(r.unifiedDiff.length).toBeLessThan(51_000);
  });

  it('a regex over a long CRLF file with lone CRs, a BOM and emoji (sent to the worker from its body), then undone', async () => {
    const lines = Array.from({ length: 12_000 }, (_, i) => (i % 997 === 0 ? `id${i} 😀\r` : `id${i} 中 x\r\n`)).join('');
    const before = Buffer.concat([BOM, Buffer.from(lines, 'utf8')]);
    const ws = setup({ 'crlf.txt': before });
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'crlf.txt', search: '(id)(\\d+)(?= )', replace: '$2$1', use_regex: true });
    expect(r.replacements).toBe(12_000);
    expect(ws.bytes('crlf.txt')).toEqual(Buffer.concat([BOM, Buffer.from(lines.replace(/(id)(\d+)(?= )/gu, '$2$1'), 'utf8')]));
    await client.exec('editls.undo', {});
    expect(ws.bytes('crlf.txt')).toEqual(before);
  });

  it('binary and missing files are refused', async () => {
    const ws = setup({ 'bin.dat': Buffer.from([0x61, 0x00, 0x62]) });
    const client = await start(ws);
    expect((await client.execError(SAR, { path: 'bin.dat', search: 'a', replace: 'b' })).data.kind).toBe('binary_file');
    expect((await client.execError(SAR, { path: 'nope.txt', search: 'a', replace: 'b' })).data.kind).toBe('file_not_found');
    expect(ws.bytes('bin.dat')).toEqual(Buffer.from([0x61, 0x00, 0x62]));
  });
});

describe('open buffers change through the editor', () => {
  const line = `x😀 ${FAMILY} 𠀀 target, target`;
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    // utf-32 negotiated: lsp-mode itself (clientInfo "emacs") drops \r from edits, so editls refuses
    // these CRLF replacements for it (test/server/lineEndingsSync.test.ts)
    ['utf-32', CAPS_UTF32, undefined],
  ] as const) {
    it(`replaces every match after emoji, a ZWJ family and astral CJK — ${name}`, async () => {
      const ws = setup({ 'a.txt': `first\r\n${line}\r\nlast` });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      const r = await client.exec(SAR, { path: 'a.txt', search: '(t)arget', replace: '$1ARGET\n', use_regex: true, start_line: 2, end_line: 2 });
      expect(r.replacements).toBe(2);
      expect(client.bufferText('a.txt')).toBe(`first\r\nx😀 ${FAMILY} 𠀀 tARGET\r\n, tARGET\r\n\r\nlast`);
      expect(ws.read('a.txt')).toBe(`first\r\n${line}\r\nlast`);
      expect(r.files[0].via).toBe('editor');
    });
  }

  it('a 1 MB line with matches all along it, in a utf-8 session', { timeout: 150_000 }, async () => {
    // (100 matches: the test client applies each edit by scanning the buffer from its start, which on
    // a busy machine takes seconds; the editor's deadline is not what this test is about.)
    const text = ('é😀 hit;' + 'x'.repeat(10_000)).repeat(100);
    const ws = setup({ 'long.txt': text });
    const client = await start(ws, { capabilities: CAPS_HELIX, clientName: 'helix', initializationOptions: { applyTimeoutMs: 120_000 } });
    await client.open('long.txt');
    const r = await client.exec(SAR, { path: 'long.txt', search: 'hit', replace: 'HIT' });
    expect(r.replacements).toBe(100);
    expect(client.bufferText('long.txt')).toBe(text.replaceAll('hit', 'HIT'));
  });
});

describe('errors on the wire', () => {
  it('invalid_regex carries the engine reason', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws);
    const err = await client.execError(SAR, { path: 'a.txt', search: '(unclosed', replace: '', use_regex: true });
    expect(err.code).toBe(-32803);
    expect(err.data.kind).toBe('invalid_regex');
    expect(err.message).toContain('Unterminated group');
    expect(err.message).toContain('a.txt');
  });

  it('bad line ranges are invalid_range and change nothing', async () => {
    const ws = setup({ 'a.txt': 'a\nb\nc\n' });
    const client = await start(ws);
    for (const [s, e] of [[0, 2], [3, 2], [4, 9]] as const) {
      const err = await client.execError(SAR, { path: 'a.txt', search: 'a', replace: 'z', start_line: s, end_line: e });
      expect(err.data.kind).toBe('invalid_range');
    }
    expect(ws.read('a.txt')).toBe('a\nb\nc\n');
  });

  it('bad arguments are InvalidParams with the issues', async () => {
    const ws = setup({ 'a.txt': 'a\n' });
    const client = await start(ws);
    const cases: [Record<string, unknown>, string][] = [
      [{ path: 'a.txt', search: 'a', replace: 'b', start_line: 1.5 }, 'start_line'],
      [{ path: 'a.txt', search: 'a', replace: 'b', start_line: '2.5' }, 'start_line'],
      [{ path: 'a.txt', search: 'a', replace: 'b', use_regex: 'yes' }, 'use_regex'],
      [{ path: 'a.txt', search: 'a' }, 'replace'],
      [{ path: 'a.txt', search: '', replace: 'b' }, 'search'],
      [{ path: 'a.txt', search: 'a', replace: 'b', regex: true }, '(arguments)'],
    ];
    for (const [args, path] of cases) {
      const err = await client.execError(SAR, args);
      expect(err.code).toBe(-32602);
      expect(err.data.kind).toBe('invalid_args');
      expect(err.data.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect(ws.read('a.txt')).toBe('a\n');
  });

  it('a match that would leave half an emoji is refused', async () => {
    const ws = setup({ 'e.txt': 'a😀b\n' });
    const client = await start(ws);
    const err = await client.execError(SAR, { path: 'e.txt', search: '\\uDE00', replace: '', use_regex: true });
    expect(err.data.kind).toBe('invalid_regex');
    expect(ws.read('e.txt')).toBe('a😀b\n');
  });
});

describe('previews', () => {
  it('apply "preview" changes nothing and returns the edit and a previewId', async () => {
    const ws = setup({ 'p.txt': 'one two one\n' });
    const client = await start(ws);
    const r = await client.exec(SAR, { path: 'p.txt', search: 'one', replace: '1', apply: 'preview' });
    expect(r).toMatchObject({ status: 'preview', applied: false, replacements: 2 });
    expect(typeof r.previewId).toBe('string');
    expect(r.edit.documentChanges[0].edits).toHaveLength(2);
    expect(ws.read('p.txt')).toBe('one two one\n');
  });
});

describe('a catastrophic regex does not hang the server', () => {
  it('is stopped with regex_timeout while other requests are answered', async () => {
    const ws = setup({ 'evil.txt': 'a'.repeat(40) + '!\n', 'ok.txt': 'fine fine\n', 'other.txt': 'x = 1;\n' });
    const client = await start(ws, { initializationOptions: { regexTimeoutMs: 1500 } });
    await client.open('evil.txt');
    const order: string[] = [];
    const stuck = client.execError(SAR, { path: 'evil.txt', search: '(a+)+$', replace: '', use_regex: true }).then((e) => {
      order.push('catastrophic');
      return e;
    });
    const regex = client.exec(SAR, { path: 'ok.txt', search: 'f(i)ne', replace: 'f$1ne!', use_regex: true }).then((r) => {
      order.push('regex');
      return r;
    });
    const edit = client.exec('editls.edit', { file_path: 'other.txt', old_string: 'x = 1', new_string: 'x = 2' }).then((r) => {
      order.push('edit');
      return r;
    });
    expect((await regex).replacements).toBe(2);
    expect((await edit).replacements).toBe(1);
    const err = await stuck;
    expect(order.indexOf('catastrophic')).toBe(2);
    expect(err.code).toBe(-32803);
    expect(err.data).toMatchObject({ kind: 'regex_timeout', timeoutMs: 1500 });
    expect(err.message).toContain('evil.txt');
    expect(client.bufferText('evil.txt')).toBe('a'.repeat(40) + '!\n');
    expect(ws.read('ok.txt')).toBe('fine! fine!\n');
    // The next regex on the same file runs normally.
    const after = await client.exec(SAR, { path: 'evil.txt', search: 'a+', replace: 'b', use_regex: true });
    expect(after.replacements).toBe(1);
    expect(client.bufferText('evil.txt')).toBe('b!\n');
  });
});
