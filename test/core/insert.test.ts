// computeInsert (editls.insert): before/after tables for every position (start, middle, end, past the
// end), line endings (LF, CRLF, lone CR, mixed), BOM, no final newline, empty files, emoji and CJK,
// and the reported inserted lines.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeInsert, lineCountOf } from '../../server/core/edits/insert.js';
import { expectApplied, expectFailure } from './support.js';

const FILE = 'src/i.ts';

describe('computeInsert: before/after table', () => {
  const cases: { name: string; before: string; line: number; str: string; after: string; lines: [number, number] }[] = [
    { name: 'at the start', before: 'a\nb\n', line: 0, str: 'x', after: 'x\na\nb\n', lines: [1, 1] },
    { name: 'after the first line', before: 'a\nb\n', line: 1, str: 'x', after: 'a\nx\nb\n', lines: [2, 2] },
    { name: 'at the end', before: 'a\nb\n', line: 2, str: 'x', after: 'a\nb\nx\n', lines: [3, 3] },
    { name: 'a final line break already in new_str is not doubled', before: 'a\nb\n', line: 1, str: 'x\n', after: 'a\nx\nb\n', lines: [2, 2] },
    { name: 'several lines', before: 'a\nb\n', line: 1, str: 'x\ny\nz', after: 'a\nx\ny\nz\nb\n', lines: [2, 4] },
    { name: 'an empty line', before: 'a\nb\n', line: 1, str: '\n', after: 'a\n\nb\n', lines: [2, 2] },
    { name: 'CRLF file: new breaks are CRLF', before: 'a\r\nb\r\n', line: 1, str: 'x\ny', after: 'a\r\nx\r\ny\r\nb\r\n', lines: [2, 3] },
    { name: 'CRLF file, CRLF new_str', before: 'a\r\nb\r\n', line: 2, str: 'x\r\ny\r\n', after: 'a\r\nb\r\nx\r\ny\r\n', lines: [3, 4] },
    { name: 'lone CR file', before: 'a\rb\r', line: 1, str: 'x', after: 'a\rx\rb\r', lines: [2, 2] },
    { name: 'mixed endings: untouched breaks stay, new ones take the dominant', before: 'a\r\nb\nc\r\n', line: 2, str: 'x', after: 'a\r\nb\nx\r\nc\r\n', lines: [3, 3] },
    { name: 'BOM kept when inserting at the start', before: '\uFEFFa\n', line: 0, str: 'x', after: '\uFEFFx\na\n', lines: [1, 1] },
    { name: 'BOM kept when inserting at the end', before: '\uFEFFa\n', line: 1, str: 'x', after: '\uFEFFa\nx\n', lines: [2, 2] },
    { name: 'no final newline: at the end the file still ends without one', before: 'a\nb', line: 2, str: 'x', after: 'a\nb\nx', lines: [3, 3] },
    { name: 'no final newline: several lines at the end', before: 'a\nb', line: 2, str: 'x\ny\n', after: 'a\nb\nx\ny', lines: [3, 4] },
    { name: 'no final newline: in the middle', before: 'a\nb', line: 1, str: 'x', after: 'a\nx\nb', lines: [2, 2] },
    { name: 'no final newline, CRLF file', before: 'a\r\nb', line: 2, str: 'x', after: 'a\r\nb\r\nx', lines: [3, 3] },
    { name: 'no final newline: an empty line at the end needs the final break', before: 'a', line: 1, str: '\n', after: 'a\n\n', lines: [2, 2] },
    { name: 'empty file', before: '', line: 0, str: 'x', after: 'x\n', lines: [1, 1] },
    { name: 'empty file with a BOM', before: '\uFEFF', line: 0, str: 'x', after: '\uFEFFx\n', lines: [1, 1] },
    { name: 'a file of one line break', before: '\n', line: 1, str: 'x', after: '\nx\n', lines: [2, 2] },
    { name: 'emoji, ZWJ and CJK kept verbatim', before: 'a\n', line: 1, str: '👨‍👩‍👧 名前 𠀀', after: 'a\n👨‍👩‍👧 名前 𠀀\n', lines: [2, 2] },
    { name: 'tabs kept', before: 'func f() {\n}\n', line: 1, str: '\treturn 1', after: 'func f() {\n\treturn 1\n}\n', lines: [2, 2] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, computeInsert(c.before, c.line, c.str, FILE), c.after);
      expect(r.insertedLines).toEqual({ startLine: c.lines[0], endLine: c.lines[1] });
      expect(r.replacements).toBe(1);
    });
  }
});

describe('computeInsert: refusals', () => {
  it('a line past the end is invalid_range and says the line count', () => {
    const f = expectFailure(computeInsert('a\nb\n', 3, 'x', FILE), 'invalid_range');
    expect(f.message).toContain('2 lines');
    expect(f.message).toContain(FILE);
    expect(f.data).toEqual({ lineCount: 2 });
  });
  it('a negative line is invalid_range', () => {
    expectFailure(computeInsert('a\n', -1, 'x', FILE), 'invalid_range');
  });
  it('past the end of an empty file', () => {
    expectFailure(computeInsert('', 1, 'x', FILE), 'invalid_range');
  });
  it('an empty new_str is invalid_args', () => {
    expectFailure(computeInsert('a\n', 0, '', FILE), 'invalid_args');
  });
  it('a fractional line is invalid_args', () => {
    expectFailure(computeInsert('a\n', 0.5, 'x', FILE), 'invalid_args');
  });
});

describe('computeInsert: properties', () => {
  const lineText = fc.stringMatching(/^[a-z é😀\t]{0,6}$/);
  const eol = fc.constantFrom('\n', '\r\n', '\r');
  it('the old lines are untouched, the new ones sit at insertedLines, and the line count grows by them', () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 6 }), eol, fc.boolean(), fc.boolean(), fc.array(lineText, { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), (lines, e, finalBreak, bom, newLines, pick, strBreak) => {
        const body = lines.join(e) + (finalBreak && lines.length > 0 ? e : '');
        const before = (bom ? '\uFEFF' : '') + body;
        const count = lineCountOf(body.replace(/\r\n?/g, '\n'));
        const at = pick % (count + 1);
        const joined = newLines.join('\n');
        const str = joined === '' || strBreak ? `${joined}\n` : joined;
        const r = computeInsert(before, at, str, FILE);
        // new_str as whole lines: a final break ends its last line.
        const expectedNew = (str.endsWith('\n') ? str.slice(0, -1) : str).split('\n');
        if (!r.ok) throw new Error(r.message);
        const after = r.newText;
        expect(after.startsWith('\uFEFF')).toBe(bom);
        const split = (s: string) => s.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
        const oldLines = count === 0 ? [] : split(body).slice(0, count);
        const newAll = split(after);
        expect(newAll.slice(at, at + expectedNew.length)).toEqual(expectedNew);
        expect([...newAll.slice(0, at), ...newAll.slice(at + expectedNew.length, at + expectedNew.length + count - at)]).toEqual(oldLines);
        expect(r.insertedLines).toEqual({ startLine: at + 1, endLine: at + expectedNew.length });
        // A file that ended without a break still does (unless it was empty).
        if (count > 0 && expectedNew[expectedNew.length - 1] !== '') expect(/[\r\n]$/.test(after)).toBe(/[\r\n]$/.test(body));
      }),
      { numRuns: 500 },
    );
  });
});
