// editls.replaceRange through the real server over stdio: closed files byte-exact (BOM, CRLF), open
// buffers where columns stay UTF-16 whatever the session's encoding, previews, stale, identical
// replacements, diff options, range errors and argument coercion.
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

const RR = 'editls.replaceRange';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** 1-based line and UTF-16 column of the start and end of `needle` in `text` (no BOM in `text`). */
function rangeOf(text: string, needle: string) {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not found`);
  const pos = (offset: number) => {
    let line = 1;
    let start = 0;
    for (let i = 0; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++;
        start = i + 1;
      }
    }
    return [line, offset - start + 1] as const;
  };
  const [startLine, startColumn] = pos(at);
  const [endLine, endColumn] = pos(at + needle.length);
  return { startLine, startColumn, endLine, endColumn };
}

describe('closed files', () => {
  it('replaces a range across a CRLF break, BOM kept; new breaks take the dominant ending', async () => {
    const body = 'one\r\ntwo\r\nthree\n';
    const ws = setup({ 'a.txt': Buffer.concat([BOM, Buffer.from(body, 'utf8')]) });
    const client = await start(ws);
    const range = rangeOf(body, 'ne\r\ntw');
    const r = await client.exec(RR, { filePath: 'a.txt', ...range, expectedText: 'ne\r\ntw', replacementText: 'NE\nTW' });
    expect(ws.bytes('a.txt')).toEqual(Buffer.concat([BOM, Buffer.from('oNE\r\nTWo\r\nthree\n', 'utf8')]));
    expect(r).toMatchObject({ success: true, status: 'applied', applied: true, filesChanged: 1, replacements: 1, wouldChange: true });
    expect(r.oldRange).toEqual({ startLine: 1, startColumn: 2, endLine: 2, endColumn: 3 });
    expect(r.newRange).toEqual({ startLine: 1, startColumn: 2, endLine: 2, endColumn: 3 });
    expect(r.files[0].via).toBe('disk');
  });

  it('an identical replacement succeeds and touches nothing', async () => {
    const ws = setup({ 'same.txt': 'keep me\n' });
    const mtime = statSync(ws.file('same.txt')).mtimeMs;
    const client = await start(ws);
    const r = await client.exec(RR, { filePath: 'same.txt', ...rangeOf('keep me\n', 'keep'), expectedText: 'keep', replacementText: 'keep' });
    expect(r).toMatchObject({ success: true, filesChanged: 0, replacements: 0, wouldChange: false, unifiedDiff: '' });
    expect(r.newRange).toEqual(r.oldRange);
    expect(statSync(ws.file('same.txt')).mtimeMs).toBe(mtime);
    expect(client.appliedEdits).toHaveLength(0);
  });

  it('a missing file is file_not_found', async () => {
    const ws = setup({});
    const client = await start(ws);
    const err = await client.execError(RR, { filePath: 'nope.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'x', replacementText: 'y' });
    expect(err.data.kind).toBe('file_not_found');
  });
});

describe('open buffers: columns are UTF-16 whatever the session encoding', () => {
  const line = 'xé😀 target here';
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['lsp-mode (utf-32)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`replaces "target" at UTF-16 column 6 — ${name}`, async () => {
      const text = `hello\r\n${line}\r\n`;
      const ws = setup({ 'a.txt': text });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      const range = rangeOf(text, 'target');
      expect(range).toEqual({ startLine: 2, startColumn: 6, endLine: 2, endColumn: 12 });
      const r = await client.exec(RR, { filePath: 'a.txt', ...range, expectedText: 'target', replacementText: 'TARGET😀' });
      expect(client.bufferText('a.txt')).toBe('hello\r\nxé😀 TARGET😀 here\r\n');
      expect(ws.read('a.txt')).toBe(text);
      expect(r.newRange).toEqual({ startLine: 2, startColumn: 6, endLine: 2, endColumn: 14 });
      expect(r.files[0].via).toBe('editor');
    });
  }
});

describe('previews and stale', () => {
  it('applyChanges false (also "false") is a preview with the ranges and a previewId', async () => {
    const text = 'let a = 1;\nlet b = 2;\n';
    const ws = setup({ 'p.ts': text });
    const client = await start(ws);
    for (const applyChanges of [false, 'false']) {
      const r = await client.exec(RR, { filePath: 'p.ts', ...rangeOf(text, 'b = 2'), expectedText: 'b = 2', replacementText: 'b =\n  2', applyChanges });
      expect(r).toMatchObject({ status: 'preview', applied: false, wouldChange: true, replacements: 1 });
      expect(r.newRange).toEqual({ startLine: 2, startColumn: 5, endLine: 3, endColumn: 4 });
      expect(typeof r.previewId).toBe('string');
      expect(r.unifiedDiff).toContain('+  2;');
      expect(r.edit.documentChanges[0].edits).toHaveLength(1);
    }
    expect(ws.read('p.ts')).toBe(text);
  });

  it('stale carries the actual text, also in a preview', async () => {
    const text = 'const x = 1;\r\n';
    const ws = setup({ 's.ts': text });
    const client = await start(ws);
    for (const applyChanges of [true, false]) {
      const err = await client.execError(RR, { filePath: 's.ts', ...rangeOf(text, 'x = 1;\r\n'), expectedText: 'x = 1;\n', replacementText: 'x = 2;\n', applyChanges });
      expect(err.code).toBe(-32803);
      expect(err.data).toEqual({ kind: 'stale', actual: 'x = 1;\r\n' });
      expect(err.message).toContain('line endings');
    }
    expect(ws.read('s.ts')).toBe(text);
  });

  it('stale against an open buffer the user edited', async () => {
    const text = 'alpha beta\n';
    const ws = setup({ 'b.txt': text });
    const client = await start(ws);
    await client.open('b.txt');
    await client.type('b.txt', 'beta', 'BETA');
    const err = await client.execError(RR, { filePath: 'b.txt', ...rangeOf(text, 'beta'), expectedText: 'beta', replacementText: 'gamma' });
    expect(err.data).toEqual({ kind: 'stale', actual: 'BETA' });
    expect(client.bufferText('b.txt')).toBe('alpha BETA\n');
  });
});

describe('diff options', () => {
  const text = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const whole = text.slice(0, -1);

  it('includeDiff false leaves the diff out', async () => {
    const ws = setup({ 'd.txt': text });
    const client = await start(ws);
    const r = await client.exec(RR, { filePath: 'd.txt', ...rangeOf(text, whole), expectedText: whole, replacementText: whole.toUpperCase(), includeDiff: 'false', applyChanges: false });
    expect(r.unifiedDiff).toBe('');
    expect(r.files[0].diff).toBe('');
    expect(r.diffTruncated).toBeUndefined();
  });

  it('maxDiffChars cuts a long diff and says so; 0 is unlimited; the default is 50,000', async () => {
    const ws = setup({ 'd.txt': text });
    const client = await start(ws);
    const args = { filePath: 'd.txt', ...rangeOf(text, whole), expectedText: whole, replacementText: whole.toUpperCase(), applyChanges: false };
    const cut = await client.exec(RR, { ...args, maxDiffChars: 100 });
    expect(cut.diffTruncated).toBe(true);
    expect(cut.unifiedDiff).toMatch(/\[diff truncated: showing \d+ of \d+ characters; raise maxDiffChars \(0 = unlimited\) to see all\]\n$/);
    expect(cut.files[0].diff).toBe(cut.unifiedDiff);
    const all = await client.exec(RR, { ...args, maxDiffChars: '0' });
    expect(all.diffTruncated).toBeUndefined();
    expect(all.unifiedDiff.startsWith(cut.unifiedDiff.split('[diff truncated')[0])).toBe(true);
    expect(all.unifiedDiff).toContain('+LINE 39');
    const byDefault = await client.exec(RR, args);
    expect(byDefault.unifiedDiff).toBe(all.unifiedDiff);
  });
});

describe('errors', () => {
  const text = 'ab\r\nx😀y\n';
  const base = { filePath: 'e.txt', replacementText: 'z' };

  it('invalid_range for each rule, and the file is untouched', async () => {
    const ws = setup({ 'e.txt': text });
    const client = await start(ws);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ startLine: 1, startColumn: 2, endLine: 1, endColumn: 2, expectedText: 'x' }, /empty/],
      [{ startLine: 1, startColumn: 0, endLine: 1, endColumn: 2, expectedText: 'a' }, /1-based/],
      [{ startLine: 5, startColumn: 1, endLine: 5, endColumn: 2, expectedText: 'a' }, /past the end/],
      [{ startLine: 1, startColumn: 1, endLine: 1, endColumn: 9, expectedText: 'a' }, /past the end of line 1/],
      [{ startLine: 2, startColumn: 1, endLine: 1, endColumn: 1, expectedText: 'a' }, /before the start/],
      [{ startLine: 1, startColumn: 1, endLine: 1, endColumn: 4, expectedText: 'ab\r' }, /CRLF/],
      [{ startLine: 2, startColumn: 1, endLine: 2, endColumn: 3, expectedText: 'x\uD83D' }, /surrogate pair/],
    ];
    for (const [range, message] of cases) {
      const err = await client.execError(RR, { ...base, ...range });
      expect(err.data.kind).toBe('invalid_range');
      expect(err.message).toMatch(message);
    }
    expect(ws.read('e.txt')).toBe(text);
  });

  it('numbers may be numeric strings; anything else is InvalidParams with the issues', async () => {
    const ws = setup({ 'e.txt': text });
    const client = await start(ws);
    const ok = await client.exec(RR, { ...base, startLine: '1', startColumn: '1', endLine: '1', endColumn: '2', expectedText: 'a', applyChanges: false });
    expect(ok.wouldChange).toBe(true);
    const cases: [Record<string, unknown>, string][] = [
      [{ startLine: 1.5, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'a' }, 'startLine'],
      [{ startLine: 'one', startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'a' }, 'startLine'],
      [{ startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: '' }, 'expectedText'],
      [{ startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'a', maxDiffChars: -1 }, 'maxDiffChars'],
      [{ startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'a', applyChanges: false, apply: 'disk' }, 'applyChanges'],
      [{ startLine: 1, startColumn: 1, endLine: 1, expectedText: 'a' }, 'endColumn'],
    ];
    for (const [args, path] of cases) {
      const err = await client.execError(RR, { ...base, ...args });
      expect(err.code).toBe(-32602);
      expect(err.data.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect(ws.read('e.txt')).toBe(text);
  });
});
