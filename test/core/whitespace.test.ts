// trimTrailingWhitespace and normalizeLineEndings (the no-input code actions): before/after tables
// over CRLF, mixed and lone-CR endings, BOM, tabs, Unicode spaces, astral text, no final newline and
// big lines, line ranges, and agreement with NormalizedText on which ending dominates.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  countTrailingWhitespace,
  lineCount,
  lineEndingStats,
  normalizeLineEndings,
  trimTrailingWhitespace,
} from '../../server/core/edits/whitespace.js';
import { NormalizedText } from '../../server/core/text/normalizedText.js';
import { expectApplied, expectFailure } from './support.js';

const FILE = 'a.txt';
const bigLine = 'x'.repeat(1_000_000);

describe('trimTrailingWhitespace: whole file', () => {
  const cases: { name: string; before: string; after: string; lines: number }[] = [
    { name: 'LF', before: 'a  \nb\t\nc\n', after: 'a\nb\nc\n', lines: 2 },
    { name: 'CRLF endings kept', before: 'a \r\nb\r\nc\t \r\n', after: 'a\r\nb\r\nc\r\n', lines: 2 },
    { name: 'mixed endings kept as they are', before: 'a \r\nb \nc \r', after: 'a\r\nb\nc\r', lines: 3 },
    { name: 'lone CR file', before: 'one \rtwo\t\rthree', after: 'one\rtwo\rthree', lines: 2 },
    { name: 'no final newline', before: 'a\nlast   ', after: 'a\nlast', lines: 1 },
    { name: 'whitespace-only lines become empty', before: 'a\n   \n\t\nb\n', after: 'a\n\n\nb\n', lines: 2 },
    { name: 'leading indentation untouched', before: '\t\tif (x) {  \n    y();\n', after: '\t\tif (x) {\n    y();\n', lines: 1 },
    { name: 'BOM kept', before: '\uFEFFhead \nbody\n', after: '\uFEFFhead\nbody\n', lines: 1 },
    { name: 'BOM-only line is not whitespace', before: '\uFEFF\nx \n', after: '\uFEFF\nx\n', lines: 1 },
    { name: 'Unicode spaces (NBSP, ideographic, thin) are content, kept', before: 'a\u00a0\nb\u3000 \nc\u2009\n', after: 'a\u00a0\nb\u3000\nc\u2009\n', lines: 1 },
    { name: 'emoji and CJK before the spaces', before: 'xé😀  \n中文 \n', after: 'xé😀\n中文\n', lines: 2 },
    { name: 'a lone surrogate half is not whitespace', before: 'x\ud83d \n', after: 'x\ud83d\n', lines: 1 },
    { name: 'a blank line between a lone CR and an LF keeps its space (no CRLF fusion)', before: 'a \r \nb\n', after: 'a\r \nb\n', lines: 1 },
    { name: 'form feed (page break) and vertical tab are kept; spaces around them go', before: 'a\f\nb\v\n\f\n;;; page\f \t\n', after: 'a\f\nb\v\n\f\n;;; page\f\n', lines: 1 },
    { name: '1 MB line', before: bigLine + '   \n', after: bigLine + '\n', lines: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, trimTrailingWhitespace(c.before, FILE), c.after);
      expect(r.replacements).toBe(c.lines);
      expect(countTrailingWhitespace(c.before)).toBe(c.lines);
    });
  }

  it('no trailing whitespace is no_change', () => {
    const f = expectFailure(trimTrailingWhitespace('a\nb\r\n', FILE), 'no_change');
    expect(f.message).toContain(FILE);
    expectFailure(trimTrailingWhitespace('', FILE), 'no_change');
  });
});

describe('trimTrailingWhitespace: line ranges (1-based, inclusive)', () => {
  const before = 'one \ntwo \nthree \nfour \n';
  const cases: { name: string; start: number; end: number; after: string }[] = [
    { name: 'one line', start: 2, end: 2, after: 'one \ntwo\nthree \nfour \n' },
    { name: 'two lines', start: 2, end: 3, after: 'one \ntwo\nthree\nfour \n' },
    { name: 'end past the end is clamped', start: 3, end: 99, after: 'one \ntwo \nthree\nfour\n' },
    { name: 'first line', start: 1, end: 1, after: 'one\ntwo \nthree \nfour \n' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expectApplied(before, trimTrailingWhitespace(before, FILE, { start: c.start, end: c.end }), c.after);
    });
  }

  it('bad ranges are invalid_range; a clean range is no_change', () => {
    expectFailure(trimTrailingWhitespace(before, FILE, { start: 0, end: 2 }), 'invalid_range');
    expectFailure(trimTrailingWhitespace(before, FILE, { start: 3, end: 2 }), 'invalid_range');
    expectFailure(trimTrailingWhitespace(before, FILE, { start: 5, end: 9 }), 'invalid_range');
    expectFailure(trimTrailingWhitespace('a \nb\nc \n', FILE, { start: 2, end: 2 }), 'no_change');
    expect(countTrailingWhitespace(before, { start: 2, end: 3 })).toBe(2);
    expect(countTrailingWhitespace(before, { start: 9, end: 9 })).toBe(0);
  });

  it('counts lines the way line ranges do', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\r\nb\r\n'), lineCount('\n\n')]).toEqual([0, 1, 1, 2, 2, 2]);
  });
});

describe('normalizeLineEndings', () => {
  const cases: { name: string; before: string; after: string; changed: number }[] = [
    { name: 'one LF among CRLF becomes CRLF', before: 'a\r\nb\nc\r\nd\r\n', after: 'a\r\nb\r\nc\r\nd\r\n', changed: 1 },
    { name: 'one CRLF among LF becomes LF', before: 'a\nb\r\nc\nd\n', after: 'a\nb\nc\nd\n', changed: 1 },
    { name: 'tie between LF and CRLF goes to LF', before: 'a\nb\r\n', after: 'a\nb\n', changed: 1 },
    { name: 'lone CR among LF', before: 'a\rb\nc\n', after: 'a\nb\nc\n', changed: 1 },
    { name: 'lone CR dominant', before: 'a\rb\rc\nd\r\n', after: 'a\rb\rc\rd\r', changed: 2 },
    { name: 'CR + LF separated by text stay two breaks', before: 'a\rb\nc\r\nd\r\ne\r\n', after: 'a\r\nb\r\nc\r\nd\r\ne\r\n', changed: 2 },
    { name: 'BOM, emoji and no final newline', before: '\uFEFFxé😀\r\n中文\ntail\r\nend', after: '\uFEFFxé😀\r\n中文\r\ntail\r\nend', changed: 1 },
    { name: 'tabs and trailing spaces untouched', before: '\ta \n\tb \r\n\tc \n', after: '\ta \n\tb \n\tc \n', changed: 1 },
    { name: '1 MB line between endings', before: bigLine + '\r\n' + bigLine + '\n' + bigLine + '\n', after: bigLine + '\n' + bigLine + '\n' + bigLine + '\n', changed: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, normalizeLineEndings(c.before, FILE), c.after);
      expect(r.replacements).toBe(c.changed);
      expect(lineEndingStats(c.after).mixed).toBe(false);
    });
  }

  it('consistent endings are no_change and say which ending', () => {
    expect(expectFailure(normalizeLineEndings('a\r\nb\r\n', FILE), 'no_change').message).toContain('CRLF');
    expect(expectFailure(normalizeLineEndings('a\nb', FILE), 'no_change').message).toContain('LF');
    expect(expectFailure(normalizeLineEndings('no breaks', FILE), 'no_change').message).toContain('no line breaks');
  });

  it('agrees with NormalizedText on the dominant ending and on mixing (property, seeded)', () => {
    const piece = fc.constantFrom('a', 'é', '😀', ' ', '\n', '\r\n', '\r', '\uFEFF');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const stats = lineEndingStats(text);
        const doc = NormalizedText.from(text);
        expect(stats.dominant).toBe(doc.eol);
        expect(stats.mixed).toBe(doc.mixedEndings);
        const r = normalizeLineEndings(text, FILE);
        if (r.ok) {
          // Normalising keeps the line structure: the same lines, each ending in the dominant break.
          expect(NormalizedText.from(r.newText).text).toBe(doc.text);
          expect(lineEndingStats(r.newText).mixed).toBe(false);
        }
        const t = trimTrailingWhitespace(text, FILE);
        if (t.ok) {
          // Same number of lines; each is its old self minus trailing whitespace (or kept, see the CR case).
          const after = NormalizedText.from(t.newText).text.split('\n');
          const lines = doc.text.split('\n');
          expect(after).toHaveLength(lines.length);
          after.forEach((l, i) => expect([lines[i], lines[i]!.replace(/[ \t]+$/, '')]).toContain(l));
        }
      }),
      { seed: 5, numRuns: 300 },
    );
  });
});
