// fast-check properties of computeSearchAndReplace: on random texts (CRLF, lone CR, BOM, astral,
// ZWJ) the result means exactly String.prototype.replace on the \n-normalised scope, the span edits
// reproduce it, and the BOM survives; literal mode equals split/join.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rewriteCrlfEscapes } from '../../server/core/edits/searchAndReplace.js';
import { computeSearchAndReplace } from './support.js';
import { NormalizedText, normalizeEol } from '../../server/core/text/normalizedText.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';

const token = fc.constantFrom('a', 'b', 'ab', 'x', ' ', '\t', '\n', '\r\n', '\r', 'é', 'e\u0301', '😀', '中', '𠀀', '👨‍👩‍👧', '$1');
const textArb = fc.tuple(fc.boolean(), fc.array(token, { maxLength: 30 })).map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.join(''));
const patternArb = fc.constantFrom(
  'a', 'b+', '(a)(b)?', '(?<n>a|é)', 'x*', '\\n', '^', '$', '.', '[ab]+', '(a|b)(\\s)', '\\r\\n', 'a$', '^\\w', '😀', '\\uD83D', '(?:)', 'e\\u0301', '\\s+$', 'A',
);
const templateArb = fc
  .array(fc.constantFrom('x', '$&', '$1', '$2', '$10', '$01', '$0', '$<n>', '$<', '$$', '$', "$'", '$`', '\n', '\r\n', '😀'), { maxLength: 4 })
  .map((p) => p.join(''));
const literalArb = fc.array(token, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));
const replacementArb = fc.array(token, { maxLength: 3 }).map((p) => p.join(''));

const stripBom = (s: string) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);
const hasLoneSurrogate = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** The scope [start, end) of 1-based lines in \n text, computed independently of the implementation. */
function scopeOf(n: string, startLine: number, endLine: number): { start: number; end: number } | undefined {
  const lines = n.split('\n');
  if (n.endsWith('\n')) lines.pop();
  if (lines.length === 0) lines.push('');
  if (startLine < 1 || startLine > endLine || startLine > lines.length) return undefined;
  const last = Math.min(endLine, lines.length);
  const start = lines.slice(0, startLine - 1).reduce((sum, l) => sum + l.length + 1, 0);
  return { start, end: start + lines.slice(startLine - 1, last).join('\n').length };
}

function check(original: string, ranged: boolean, startLine: number, endLine: number, pattern: string, template: string, ignoreCase: boolean, literal: boolean): void {
  const n = NormalizedText.from(original).text;
  const scope = ranged ? scopeOf(n, startLine, endLine) : { start: 0, end: n.length };
  const r = computeSearchAndReplace(
    original,
    { search: pattern, replace: template, useRegex: !literal, ignoreCase, ...(ranged ? { startLine, endLine } : {}) },
    'f',
  );
  if (scope === undefined) {
    expect(r.ok ? 'ok' : r.kind).toBe('invalid_range');
    return;
  }
  const inner = n.slice(scope.start, scope.end);
  const tpl = normalizeEol(template);
  const expectedInner = literal
    ? ignoreCase
      ? inner
      : inner.split(normalizeEol(pattern)).join(tpl)
    : inner.replace(new RegExp(rewriteCrlfEscapes(normalizeEol(pattern)), ignoreCase ? 'gi' : 'g'), tpl);
  if (literal && ignoreCase) return;
  const expected = n.slice(0, scope.start) + expectedInner + n.slice(scope.end);
  if (!r.ok) {
    expect(r.kind).toBe('invalid_regex');
    expect(hasLoneSurrogate(expected)).toBe(true);
    return;
  }
  expect(applySpanEdits(original, r.edits)).toBe(r.newText);
  expect(normalizeEol(stripBom(r.newText))).toBe(expected);
  expect(r.newText.startsWith('\uFEFF')).toBe(original.startsWith('\uFEFF'));
  if (r.edits.length === 0) expect(r.newText).toBe(original);
  // Text before the first edit is untouched byte for byte (endings included).
  const first = Math.min(...r.edits.map((e) => e.start), original.length);
  expect(r.newText.slice(0, first)).toBe(original.slice(0, first));
}

describe('property: searchAndReplace means String.replace on the normalised scope', () => {
  it('regex mode, whole text', () => {
    fc.assert(
      fc.property(textArb, patternArb, templateArb, fc.boolean(), (text, pattern, template, ic) => check(text, false, 0, 0, pattern, template, ic, false)),
      { numRuns: 1500, seed: 424242 },
    );
  });

  it('regex mode, line ranges (valid and invalid)', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: -1, max: 8 }), fc.integer({ min: 0, max: 10 }), patternArb, templateArb, (text, s, e, pattern, template) =>
        check(text, true, s, e, pattern, template, false, false),
      ),
      { numRuns: 1500, seed: 777 },
    );
  });

  it('a literal over the whole text (scanned on the text as it is) gives the same edits as over all its lines', () => {
    fc.assert(
      fc.property(textArb, literalArb, replacementArb, (text, search, replacement) => {
        if (normalizeEol(search).includes('\n')) return;
        const whole = computeSearchAndReplace(text, { search, replace: replacement, useRegex: false, ignoreCase: false }, 'f');
        const lines = computeSearchAndReplace(text, { search, replace: replacement, useRegex: false, ignoreCase: false, startLine: 1, endLine: 1000 }, 'f');
        if (!whole.ok || !lines.ok) throw new Error('unexpected failure');
        expect([whole.newText, whole.edits, whole.replacements]).toEqual([lines.newText, lines.edits, lines.replacements]);
      }),
      { numRuns: 1500, seed: 4141 },
    );
  });

  it('literal mode equals split/join', () => {
    fc.assert(
      fc.property(textArb, fc.boolean(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), literalArb, replacementArb, (text, ranged, s, e, search, replacement) =>
        check(text, ranged, s, e, search, replacement, false, true),
      ),
      { numRuns: 1500, seed: 99 },
    );
  });
});
