// NormalizedText: the normalised view (no BOM, \n breaks), offset mapping back, and minimal span edits.
import { describe, expect, it } from 'vitest';
import { NormalizedText, normalizeEol } from '../../server/core/text/normalizedText.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';

describe('normalizeEol', () => {
  it.each([
    ['a\r\nb', 'a\nb'],
    ['a\rb', 'a\nb'],
    ['a\r\r\nb', 'a\n\nb'],
    ['\n\r', '\n\n'],
    ['plain', 'plain'],
  ])('%j -> %j', (input, output) => expect(normalizeEol(input)).toBe(output));
});

describe('NormalizedText.from', () => {
  it.each([
    ['', '', false, '\n', false],
    ['a\nb\n', 'a\nb\n', false, '\n', false],
    ['a\r\nb\r\n', 'a\nb\n', false, '\r\n', false],
    ['a\rb\r', 'a\nb\n', false, '\r', false],
    ['\uFEFFa\r\nb', 'a\nb', true, '\r\n', false],
    ['a\r\nb\nc\r\n', 'a\nb\nc\n', false, '\r\n', true],
    ['a\r\nb\n', 'a\nb\n', false, '\n', true], // tie prefers \n
    ['a\r\nb\r', 'a\nb\n', false, '\r\n', true], // tie between \r\n and \r prefers \r\n
    ['a\rb\rc\n', 'a\nb\nc\n', false, '\r', true],
  ])('%j', (original, text, hasBom, eol, mixed) => {
    const n = NormalizedText.from(original);
    expect(n.original).toBe(original);
    expect(n.text).toBe(text);
    expect(n.hasBom).toBe(hasBom);
    expect(n.eol).toBe(eol);
    expect(n.mixedEndings).toBe(mixed);
  });

  it('toOriginal maps around CRLF, lone CR and BOM', () => {
    const original = '\uFEFFab\r\ncd\ref\r\n';
    const n = NormalizedText.from(original);
    expect(n.text).toBe('ab\ncd\nef\n');
    // Every normalised character maps to the original character it came from.
    const firstBreak = n.text.indexOf('\n');
    expect(n.toOriginal(0)).toBe(1);
    expect(n.toOriginal(firstBreak)).toBe(original.indexOf('\r'));
    expect(n.toOriginal(firstBreak + 1)).toBe(original.indexOf('c'));
    expect(n.toOriginal(n.text.indexOf('e'))).toBe(original.indexOf('e'));
    expect(n.toOriginal(n.text.length)).toBe(original.length);
    for (let i = 0; i < n.text.length; i++) {
      const ch = original[n.toOriginal(i)]!;
      expect(ch === '\r' ? '\n' : ch).toBe(n.text[i]);
    }
  });
});

describe('NormalizedText.spanEdits', () => {
  function run(original: string, find: string, replacement: string) {
    const n = NormalizedText.from(original);
    const start = n.text.indexOf(find);
    expect(start).toBeGreaterThanOrEqual(0);
    const result = n.spanEdits([{ start, end: start + find.length, text: replacement }]);
    expect(applySpanEdits(original, result.edits)).toBe(result.newOriginal);
    return result;
  }

  it('trims common prefix and suffix', () => {
    const original = 'hello world\r\n';
    const { edits, newOriginal } = run(original, 'hello world', 'hello there world');
    expect(newOriginal).toBe('hello there world\r\n');
    expect(edits).toHaveLength(1);
    expect(edits[0]!.start).toBe(edits[0]!.end);
    expect(edits[0]!.newText).toBe('there ');
  });

  it('drops replacements that change nothing', () => {
    const { edits, newOriginal } = run('a\r\nb\r\n', 'a\nb', 'a\nb');
    expect(edits).toEqual([]);
    expect(newOriginal).toBe('a\r\nb\r\n');
  });

  it('keeps an untouched CRLF inside the replaced span', () => {
    const { edits, newOriginal } = run('x\r\ny\r\n', 'x\ny', 'X\nY');
    expect(newOriginal).toBe('X\r\nY\r\n');
    expect(edits.map((e) => e.newText)).toEqual(['X\r\nY']);
  });

  it('new line breaks take the dominant ending', () => {
    expect(run('a\rb\rc\n', 'b', 'b1\nb2').newOriginal).toBe('a\rb1\rb2\rc\n');
    expect(run('\uFEFFa\r\nb', 'b', 'b\nc').newOriginal).toBe('\uFEFFa\r\nb\r\nc');
  });

  it('never splits a surrogate pair', () => {
    const { edits } = run('😀', '😀', '😁');
    expect(edits).toEqual([{ start: 0, end: 2, newText: '😁' }]);
    const tail = run('a😀', 'a😀', 'b😀');
    expect(tail.edits).toEqual([{ start: 0, end: 1, newText: 'b' }]);
    const pairTail = run('\u{1F600}\u{1F601}', '\u{1F600}\u{1F601}', '\u{1F601}\u{1F601}');
    expect(pairTail.edits).toEqual([{ start: 0, end: 2, newText: '\u{1F601}' }]);
  });

  it('never lets a lone CR fuse with an LF into one CRLF', () => {
    // Deleting the text between a lone \r and an \n: the \r is completed into a CRLF, both bytes kept.
    const del = run('a\rX\nb\nc\n', 'X', '');
    expect(del.newOriginal).toBe('a\r\n\nb\nc\n');
    expect(normalizeEol(del.newOriginal)).toBe('a\n\nb\nc\n');
    // Inserting a break right after a lone \r in an LF file.
    const ins = run('a\rb\nc\n', 'b', '\nb');
    expect(normalizeEol(ins.newOriginal)).toBe('a\n\nb\nc\n');
    // A CR file: new text ending in \r before an untouched \n.
    const cr = run('a\rb\rc\r\nd', 'c', 'c\n');
    expect(normalizeEol(cr.newOriginal)).toBe('a\nb\nc\n\nd');
    const crDel = run('a\rb\rX\nd\r', 'X', '');
    expect(normalizeEol(crDel.newOriginal)).toBe('a\nb\n\nd\n');
  });

  it('several replacements, touching ones merged', () => {
    const original = 'ab\r\ncd\r\n';
    const n = NormalizedText.from(original);
    const result = n.spanEdits([
      { start: 3, end: 4, text: 'C' },
      { start: 0, end: 1, text: 'A' },
      { start: 1, end: 2, text: 'B' },
    ]);
    expect(result.newOriginal).toBe('AB\r\nCd\r\n');
    expect(result.edits).toHaveLength(2);
    expect(applySpanEdits(original, result.edits)).toBe(result.newOriginal);
  });

  it('throws on overlapping replacements (programming error)', () => {
    const n = NormalizedText.from('abcdef');
    expect(() => n.spanEdits([{ start: 0, end: 3, text: '' }, { start: 2, end: 4, text: '' }])).toThrow();
  });
});

describe('NormalizedText.spanEditsOf: many replacements', () => {
  it.each([
    ['short pieces, joined flat', 'const a = oldName(1);\r\n'],
    ['long pieces, left a rope', `const a = oldName(1); // ${'x'.repeat(80)}\r\n`],
  ])('100,000 replacements of a CRLF text with a BOM (200,001 pieces, %s): the new text and edits the replacements make', (_name, line) => {
    const original = '\uFEFF' + line.repeat(100_000);
    const doc = NormalizedText.from(original);
    const starts = new Int32Array(100_000);
    const ends = new Int32Array(100_000);
    const nl = line.length - 1; // the \n view's line length
    for (let i = 0; i < 100_000; i++) {
      starts[i] = i * nl + 10;
      ends[i] = i * nl + 17;
    }
    const { edits, newOriginal } = doc.spanEditsOf(starts, ends, 'freshName', { replaced: 'oldName' });
    const expected = original.replaceAll('oldName', 'freshName');
    expect(newOriginal.length).toBe(expected.length);
    expect(newOriginal === expected).toBe(true);
    expect(edits).toHaveLength(100_000);
    expect(applySpanEdits(original, edits)).toBe(expected);
  });
});
