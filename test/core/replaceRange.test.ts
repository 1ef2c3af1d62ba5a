// computeReplaceRange (editls.replaceRange): before/after tables with ranges found by matching text
// (1-based lines, 1-based UTF-16 columns after a BOM, exclusive end), every invalid_range rule,
// stale with the actual text, identical replacements, old/new ranges and minimal edits.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeReplaceRange, type LineColumnRange } from '../../server/core/edits/replaceRange.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';
import { expectApplied, expectFailure } from './support.js';

const FILE = 'src/r.ts';
const FAMILY = '👨‍👩‍👧';
const minified = 'var a=1;'.repeat(131_072) + 'END;';

/** 1-based line and UTF-16 column of `offset` (line breaks \r\n, \r, \n; a BOM is not a column). */
function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = lineStart; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The range of the `nth` occurrence of `needle` in `text`. */
function rangeOf(text: string, needle: string, nth = 0): LineColumnRange {
  let at = text.indexOf(needle);
  for (let k = 0; k < nth; k++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${JSON.stringify(needle)} not in text`);
  const s = lineCol(text, at);
  const e = lineCol(text, at + needle.length);
  return { startLine: s.line, startColumn: s.column, endLine: e.line, endColumn: e.column };
}

function replace(text: string, range: LineColumnRange, expectedText: string, replacementText: string) {
  return computeReplaceRange(text, { ...range, expectedText, replacementText }, FILE);
}

describe('computeReplaceRange: before/after table', () => {
  const cases: { name: string; before: string; find: string; nth?: number; by: string; after: string }[] = [
    { name: 'plain', before: 'hello world\n', find: 'world', by: 'there', after: 'hello there\n' },
    { name: 'CRLF break inside the range; a \\n in the replacement takes the dominant ending', before: 'a\r\nb\r\nc\r\n', find: 'b\r\n', by: 'B\n', after: 'a\r\nB\r\nc\r\n' },
    { name: 'an untouched LF inside the range of a CRLF file stays LF', before: 'a\r\nx\ny\r\n', find: 'x\ny', by: 'x\nY', after: 'a\r\nx\nY\r\n' },
    { name: 'range spanning lines of a CRLF file', before: 'one\r\ntwo\r\nthree\r\n', find: 'ne\r\ntw', by: 'NE\r\nTW', after: 'oNE\r\nTWo\r\nthree\r\n' },
    { name: 'mixed endings: each line counted alike', before: 'a\nb\r\nc\rd\n', find: 'd', by: 'D', after: 'a\nb\r\nc\rD\n' },
    { name: 'lone CR file: new breaks are lone CRs', before: 'x\ry\r', find: 'y\r', by: 'Y\r\nZ\n', after: 'x\rY\rZ\r' },
    { name: 'a new break never fuses with a neighbouring one', before: 'a\rb\nc\r', find: 'b', by: 'b\n', after: 'a\rb\r\n\nc\r' },
    { name: 'BOM: columns count after it', before: '\uFEFFabc\n', find: 'b', by: 'B', after: '\uFEFFaBc\n' },
    { name: 'BOM: replacing the first character', before: '\uFEFFabc\n', find: 'a', by: 'A', after: '\uFEFFAbc\n' },
    { name: 'tab is one column', before: '\t\tx = 1;\n', find: 'x', by: 'y', after: '\t\ty = 1;\n' },
    { name: 'after an emoji (2 units)', before: 'x😀y\n', find: 'y', by: 'z', after: 'x😀z\n' },
    { name: 'the emoji itself', before: 'x😀y\n', find: '😀', by: '😁', after: 'x😁y\n' },
    { name: 'a ZWJ family (8 units)', before: `a${FAMILY}b\n`, find: FAMILY, by: '👪', after: 'a👪b\n' },
    { name: 'after a ZWJ family', before: `${FAMILY} tail\n`, find: 'tail', by: 'end', after: `${FAMILY} end\n` },
    { name: 'BMP CJK', before: '名前 = "太郎"\n', find: '太郎', by: '花子', after: '名前 = "花子"\n' },
    { name: 'astral CJK', before: '𠀀𠀁 = 1\n', find: '𠀁', by: '𠀂', after: '𠀀𠀂 = 1\n' },
    { name: 'no final newline, range to the end', before: 'a\nlast', find: 'last', by: 'final\n', after: 'a\nfinal\n' },
    { name: 'CRLF file, replacement typed with \\r\\n', before: 'p\r\nq\r\n', find: 'q', by: 'q1\r\nq2', after: 'p\r\nq1\r\nq2\r\n' },
    { name: 'through the final newline (end on the empty last line)', before: 'a\nb\n', find: 'b\n', by: '', after: 'a\n' },
    { name: 'whole text', before: 'abc', find: 'abc', by: '', after: '' },
    { name: 'second occurrence', before: 'x x x\n', find: 'x', nth: 1, by: 'y', after: 'x y x\n' },
    { name: '$ patterns are verbatim', before: 'v = 1\n', find: '1', by: '$& $1 $$', after: 'v = $& $1 $$\n' },
    { name: '1 MB minified line, column past 1M', before: minified, find: 'END', by: 'FIN', after: minified.replace('END', 'FIN') },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const range = rangeOf(c.before, c.find, c.nth);
      const r = expectApplied(c.before, replace(c.before, range, c.find, c.by), c.after);
      expect(r.replacements).toBe(1);
      expect(r.wouldChange).toBe(true);
      expect(r.oldRange).toEqual(range);
      // newRange is where the replacement now sits, in the same conventions.
      const at = lineCol(c.after, offsetOf(c.before, range));
      expect({ startLine: r.newRange.startLine, startColumn: r.newRange.startColumn }).toEqual({ startLine: at.line, startColumn: at.column });
      // the text after the range is untouched, so the replacement ends where that text now starts
      const end = lineCol(c.after, c.after.length - (c.before.length - offsetOf(c.before, range) - rangeLength(c.before, range)));
      expect({ endLine: r.newRange.endLine, endColumn: r.newRange.endColumn }).toEqual({ endLine: end.line, endColumn: end.column });
    });
  }
});

/** The UTF-16 offset of a range's start (inverse of lineCol), by walking lines. */
function offsetOf(text: string, range: LineColumnRange): number {
  let o = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let line = 1; line < range.startLine; line++) {
    const m = /\r\n|\r|\n/g;
    m.lastIndex = o;
    const hit = m.exec(text)!;
    o = hit.index + hit[0].length;
  }
  return o + range.startColumn - 1;
}

function rangeLength(text: string, range: LineColumnRange): number {
  return offsetOf(text, { startLine: range.endLine, startColumn: range.endColumn, endLine: 0, endColumn: 0 }) - offsetOf(text, range);
}

describe('computeReplaceRange: newRange', () => {
  it('multi-line replacement', () => {
    const before = 'a\nbcd\ne\n';
    const r = replace(before, rangeOf(before, 'c'), 'c', 'X\nYY\nZZZ');
    expect(r.ok && r.newRange).toEqual({ startLine: 2, startColumn: 2, endLine: 4, endColumn: 4 });
  });

  it('CRLF in the replacement counts as one break', () => {
    const before = 'ab\r\n';
    const r = replace(before, rangeOf(before, 'b'), 'b', 'x\r\ny');
    expect(r.ok && r.newRange).toEqual({ startLine: 1, startColumn: 2, endLine: 2, endColumn: 2 });
  });

  it('empty replacement is an empty new range', () => {
    const before = 'abc\n';
    const r = replace(before, rangeOf(before, 'b'), 'b', '');
    expect(r.ok && r.newRange).toEqual({ startLine: 1, startColumn: 2, endLine: 1, endColumn: 2 });
  });

  it('on line 1 of a BOM file', () => {
    const before = '\uFEFFabc';
    const r = replace(before, rangeOf(before, 'bc'), 'bc', '😀');
    expect(r.ok && r.newRange).toEqual({ startLine: 1, startColumn: 2, endLine: 1, endColumn: 4 });
  });
});

describe('computeReplaceRange: minimal edits', () => {
  it('touches only the changed characters', () => {
    const before = 'alpha beta gamma\n';
    const r = expectApplied(before, replace(before, rangeOf(before, 'alpha beta gamma'), 'alpha beta gamma', 'alpha bets gamma'), 'alpha bets gamma\n');
    expect(r.edits).toHaveLength(1);
    expect(before.slice(r.edits[0]!.start, r.edits[0]!.end)).toBe('a');
    expect(r.edits[0]!.newText).toBe('s');
  });

  it('never starts or ends an edit inside a CRLF or a surrogate pair', () => {
    const cases: [string, string, string, string][] = [
      ['a\r\nb', 'a\r\nb', 'A\nb', 'A\r\nb'],
      ['a\r\nb', 'a\r\n', 'a\r', 'a\r\nb'],
      ['x😀', '😀', '😁', 'x😁'],
      ['😀x', '😀', '😃', '😃x'],
      ['p\r\n\r\nq', '\r\n\r\n', '\r\n', 'p\r\nq'],
    ];
    for (const [before, find, by, after] of cases) {
      const r = expectApplied(before, replace(before, rangeOf(before, find), find, by), after);
      for (const e of r.edits) {
        for (const o of [e.start, e.end]) {
          expect(before.charCodeAt(o - 1) === 13 && before.charCodeAt(o) === 10).toBe(false);
          expect(/[\uD800-\uDBFF]/.test(before.charAt(o - 1)) && /[\uDC00-\uDFFF]/.test(before.charAt(o))).toBe(false);
        }
      }
    }
  });
});

describe('computeReplaceRange: identical replacement', () => {
  it('differing only in line endings is identical too', () => {
    const before = 'a\r\nb\r\n';
    const r = expectApplied(before, replace(before, rangeOf(before, 'a\r\nb'), 'a\r\nb', 'a\nb'), before);
    expect(r.wouldChange).toBe(false);
  });

  it('is a success that changes nothing', () => {
    const before = 'keep\r\n';
    const r = expectApplied(before, replace(before, rangeOf(before, 'keep\r\n'), 'keep\r\n', 'keep\r\n'), before);
    expect(r.edits).toEqual([]);
    expect(r.wouldChange).toBe(false);
    expect(r.replacements).toBe(0);
  });
});

describe('computeReplaceRange: invalid_range', () => {
  const text = 'ab\r\nx😀y\nlast';
  const r = (startLine: number, startColumn: number, endLine: number, endColumn: number, expected = 'a') =>
    computeReplaceRange(text, { startLine, startColumn, endLine, endColumn, expectedText: expected, replacementText: 'z' }, FILE);

  it('an empty range', () => {
    expect(expectFailure(r(1, 2, 1, 2), 'invalid_range').message).toContain('empty');
  });
  it('column 0', () => {
    expect(expectFailure(r(1, 0, 1, 2), 'invalid_range').message).toContain('1-based');
    expectFailure(r(1, 1, 1, 0), 'invalid_range');
  });
  it('line 0 or negative', () => {
    expectFailure(r(0, 1, 1, 2), 'invalid_range');
    expectFailure(r(-1, 1, 1, 2), 'invalid_range');
  });
  it('a line past the end', () => {
    const f = expectFailure(r(1, 1, 4, 1), 'invalid_range');
    expect(f.message).toContain('has 3 lines');
    expectFailure(r(9, 1, 9, 2), 'invalid_range');
  });
  it('a column past the end of the line', () => {
    expect(expectFailure(r(3, 1, 3, 6), 'invalid_range').message).toContain('past the end of line 3');
    expectFailure(r(2, 1, 2, 7), 'invalid_range'); // line 2 is 'x😀y' (4 units): column 6 is after its \n
  });
  it('the end before the start', () => {
    expect(expectFailure(r(2, 4, 1, 1), 'invalid_range').message).toContain('before the start');
    expectFailure(r(1, 2, 1, 1), 'invalid_range');
  });
  it('a boundary inside a CRLF pair', () => {
    expect(expectFailure(r(1, 1, 1, 4, 'ab\r'), 'invalid_range').message).toContain('CRLF');
    expectFailure(r(1, 4, 2, 1, '\n'), 'invalid_range');
  });
  it('a boundary inside a surrogate pair', () => {
    expect(expectFailure(r(2, 3, 2, 5, '\uDE00y'), 'invalid_range').message).toContain('surrogate pair');
    expectFailure(r(2, 1, 2, 3, 'x\uD83D'), 'invalid_range');
  });
  it('non-integers are invalid_args', () => {
    expectFailure(r(1.5, 1, 1, 2), 'invalid_args');
  });
  it('the end of a line and the start of the next are both valid', () => {
    // 1:3 is after "ab" (before \r\n); 2:1 is the next line's start: the range is exactly the break.
    expectApplied(text, r(1, 3, 2, 1, '\r\n'), 'abzx😀y\nlast');
  });
});

describe('computeReplaceRange: stale', () => {
  it('carries the actual text and names the file', () => {
    const before = 'const a = 1;\n';
    const f = expectFailure(replace(before, rangeOf(before, 'a = 1'), 'a = 2', 'a = 3'), 'stale');
    expect(f.data).toEqual({ actual: 'a = 1' });
    expect(f.message).toContain(FILE);
  });

  it('line endings must match exactly', () => {
    const before = 'a\r\nb\r\n';
    const f = expectFailure(replace(before, rangeOf(before, 'a\r\nb'), 'a\nb', 'x'), 'stale');
    expect(f.data).toEqual({ actual: 'a\r\nb' });
    expect(f.message).toContain('line endings');
  });
});

describe('property: computeReplaceRange equals splicing the range', () => {
  const token = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '中', '𠀀', FAMILY);
  const textArb = fc.tuple(fc.boolean(), fc.array(token, { minLength: 1, maxLength: 25 })).map(([bom, p]) => (bom ? '\uFEFF' : '') + p.join(''));
  it('for random texts and random valid ranges', () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(), fc.array(token, { maxLength: 4 }), (text, a, b, repl) => {
        // Valid boundaries: after a BOM, not inside a CRLF or a surrogate pair.
        const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
        const valid: number[] = [];
        for (let o = bom; o <= text.length; o++) {
          const crlf = text.charCodeAt(o - 1) === 13 && text.charCodeAt(o) === 10;
          const pair = /[\uD800-\uDBFF]/.test(text.charAt(o - 1)) && /[\uDC00-\uDFFF]/.test(text.charAt(o));
          if (!crlf && !pair) valid.push(o);
        }
        const s = valid[a % valid.length]!;
        const e = valid[b % valid.length]!;
        if (s >= e) return;
        const ps = lineCol(text, s);
        const pe = lineCol(text, e);
        const replacement = repl.join('');
        const result = computeReplaceRange(
          text,
          { startLine: ps.line, startColumn: ps.column, endLine: pe.line, endColumn: pe.column, expectedText: text.slice(s, e), replacementText: replacement },
          FILE,
        );
        if (!result.ok) throw new Error(result.message);
        const n = (t: string) => t.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
        expect(applySpanEdits(text, result.edits)).toBe(result.newText);
        // the meaning, on the \n view: the range's text replaced (pieces normalised apart, so no break fuses across an edge)
        expect(n(result.newText)).toBe(n(text.slice(0, s)) + n(replacement) + n(text.slice(e)));
        expect(result.newText.startsWith('\uFEFF')).toBe(bom === 1);
        // everything outside the range is untouched byte for byte
        expect(result.newText.slice(0, s)).toBe(text.slice(0, s));
        expect(result.newText.endsWith(text.slice(e))).toBe(true);
        expect(result.wouldChange).toBe(n(replacement) !== n(text.slice(s, e)));
      }),
      { numRuns: 1000, seed: 31337 },
    );
  });
});
