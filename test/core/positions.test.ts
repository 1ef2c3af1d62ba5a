// LineIndex and columnIn: LSP lines (\n, \r\n, \r) and characters in utf-8/16/32, round trips and clamping.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineIndex, columnIn, type PositionEncoding } from '../../server/core/text/positions.js';

const ENCODINGS: PositionEncoding[] = ['utf-8', 'utf-16', 'utf-32'];

/** Independent reference: units of `s` in the encoding. */
function units(s: string, encoding: PositionEncoding): number {
  if (encoding === 'utf-16') return s.length;
  if (encoding === 'utf-32') return [...s].length;
  return Buffer.byteLength(s, 'utf8');
}

/** Offsets on code point boundaries (not inside a surrogate pair). */
function boundaries(text: string): number[] {
  const out = [0];
  let i = 0;
  for (const cp of text) {
    i += cp.length;
    out.push(i);
  }
  return out;
}

describe('LineIndex: lines', () => {
  it.each([
    ['', 1],
    ['a', 1],
    ['a\n', 2],
    ['a\r\nb', 2],
    ['a\rb', 2],
    ['a\r\nb\rc\nd', 4],
    ['\r\n\r\n', 3],
    ['\r\r', 3],
    ['\n\r', 3],
  ])('lineCount of %j is %i', (text, count) => {
    expect(new LineIndex(text).lineCount).toBe(count);
  });

  it('line starts and ends with CRLF, lone CR and LF', () => {
    const text = 'ab\r\ncd\ref\ngh';
    const idx = new LineIndex(text);
    const lines = ['ab', 'cd', 'ef', 'gh'];
    lines.forEach((line, i) => {
      expect(text.slice(idx.lineStart(i), idx.lineEnd(i))).toBe(line);
      expect(idx.lineStart(i)).toBe(text.indexOf(line));
      expect(idx.lineOf(text.indexOf(line) + 1)).toBe(i);
    });
    // The \r and \n of a CRLF belong to the line they end.
    expect(idx.lineOf(text.indexOf('\r'))).toBe(0);
    expect(idx.lineOf(text.indexOf('\n'))).toBe(0);
    expect(idx.lineOf(text.length)).toBe(3);
  });

  it('clamps lines', () => {
    const text = 'a\nbc';
    const idx = new LineIndex(text);
    expect(idx.lineStart(-1)).toBe(0);
    expect(idx.lineStart(10)).toBe(text.length);
    expect(idx.lineEnd(10)).toBe(text.length);
    expect(idx.lineOf(-5)).toBe(0);
    expect(idx.lineOf(100)).toBe(1);
  });
});

describe('LineIndex: positions', () => {
  const text = 'a😀b\r\n👩‍👩‍👧 x\r中文𠀀y\ne\u0301\n';

  it('specific columns per encoding', () => {
    const idx = new LineIndex(text);
    const b = text.indexOf('b');
    expect(idx.positionAt(b, 'utf-16')).toEqual({ line: 0, character: 3 });
    expect(idx.positionAt(b, 'utf-8')).toEqual({ line: 0, character: 5 });
    expect(idx.positionAt(b, 'utf-32')).toEqual({ line: 0, character: 2 });
    const y = text.indexOf('y');
    expect(idx.positionAt(y, 'utf-16')).toEqual({ line: 2, character: 4 });
    expect(idx.positionAt(y, 'utf-8')).toEqual({ line: 2, character: 10 });
    expect(idx.positionAt(y, 'utf-32')).toEqual({ line: 2, character: 3 });
    const x = text.indexOf('x');
    const family = '👩‍👩‍👧 ';
    expect(idx.positionAt(x, 'utf-16')).toEqual({ line: 1, character: family.length });
    expect(idx.positionAt(x, 'utf-32')).toEqual({ line: 1, character: [...family].length });
    expect(idx.positionAt(x, 'utf-8')).toEqual({ line: 1, character: Buffer.byteLength(family) });
  });

  it('round trips every code point boundary in every encoding', () => {
    const idx = new LineIndex(text);
    for (const offset of boundaries(text)) {
      for (const enc of ENCODINGS) {
        const pos = idx.positionAt(offset, enc);
        const line = idx.lineOf(offset);
        expect(pos.line).toBe(line);
        const lineStart = idx.lineStart(line);
        expect(pos.character).toBe(units(text.slice(lineStart, offset), enc));
        // Offsets inside a line break do not round trip (LSP clamps to the line end).
        if (offset <= idx.lineEnd(line)) expect(idx.offsetAt(pos, enc)).toBe(offset);
      }
    }
  });

  it('a character inside a code point rounds down to its start', () => {
    const idx = new LineIndex('a😀b');
    expect(idx.offsetAt({ line: 0, character: 2 }, 'utf-16')).toBe(1);
    for (const c of [2, 3, 4]) expect(idx.offsetAt({ line: 0, character: c }, 'utf-8')).toBe(1);
    expect(idx.offsetAt({ line: 0, character: 5 }, 'utf-8')).toBe(3);
    const cjk = new LineIndex('中x');
    expect(cjk.offsetAt({ line: 0, character: 1 }, 'utf-8')).toBe(0);
    expect(cjk.offsetAt({ line: 0, character: 2 }, 'utf-8')).toBe(0);
    expect(cjk.offsetAt({ line: 0, character: 3 }, 'utf-8')).toBe(1);
    // An offset inside a surrogate pair counts only the whole code points before it.
    expect(idx.positionAt(2, 'utf-8')).toEqual({ line: 0, character: 1 });
    expect(idx.positionAt(2, 'utf-32')).toEqual({ line: 0, character: 1 });
    expect(idx.positionAt(2, 'utf-16')).toEqual({ line: 0, character: 2 });
  });

  it('clamps like LSP', () => {
    const t = 'ab\r\ncd\ref';
    const idx = new LineIndex(t);
    for (const enc of ENCODINGS) {
      expect(idx.offsetAt({ line: 0, character: 99 }, enc)).toBe(t.indexOf('\r'));
      expect(idx.offsetAt({ line: 1, character: 99 }, enc)).toBe(t.indexOf('d') + 1);
      expect(idx.offsetAt({ line: 2, character: 99 }, enc)).toBe(t.length);
      expect(idx.offsetAt({ line: 7, character: 0 }, enc)).toBe(t.length);
      expect(idx.offsetAt({ line: 1, character: -3 }, enc)).toBe(t.indexOf('c'));
    }
    expect(idx.positionAt(999, 'utf-16')).toEqual({ line: 2, character: 2 });
    expect(idx.positionAt(-1, 'utf-16')).toEqual({ line: 0, character: 0 });
  });

  it('empty text', () => {
    const idx = new LineIndex('');
    for (const enc of ENCODINGS) {
      expect(idx.positionAt(0, enc)).toEqual({ line: 0, character: 0 });
      expect(idx.offsetAt({ line: 0, character: 5 }, enc)).toBe(0);
    }
  });

  it('columnIn converts a UTF-16 column within a line', () => {
    const line = 'x😀中𠀀';
    expect(columnIn(line, line.length, 'utf-16')).toBe(line.length);
    expect(columnIn(line, line.length, 'utf-32')).toBe(4);
    expect(columnIn(line, line.length, 'utf-8')).toBe(1 + 4 + 3 + 4);
    expect(columnIn(line, 2, 'utf-8')).toBe(1); // inside 😀: rounds down
    expect(columnIn(line, 99, 'utf-32')).toBe(4);
  });

  it('property: positions agree with a naive reference on random texts', () => {
    const alphabet = fc.constantFrom('a', ' ', '\t', '\n', '\r\n', '\r', 'é', 'e\u0301', '😀', '中', '𠀀', '👩‍👧');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const t = parts.join('');
        const idx = new LineIndex(t);
        const naiveLines = t.split(/\r\n|\r|\n/);
        expect(idx.lineCount).toBe(naiveLines.length);
        naiveLines.forEach((l, i) => expect(t.slice(idx.lineStart(i), idx.lineEnd(i))).toBe(l));
        for (const offset of boundaries(t)) {
          for (const enc of ENCODINGS) {
            const pos = idx.positionAt(offset, enc);
            expect(pos.character).toBe(units(t.slice(idx.lineStart(pos.line), offset), enc));
            if (offset <= idx.lineEnd(pos.line)) expect(idx.offsetAt(pos, enc)).toBe(offset);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
