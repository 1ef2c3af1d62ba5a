// cutDiff and boundedDiff: a diff within its budget is the whole diff; a longer one is cut on a line
// boundary and says so, and what boundedDiff shows is exactly the head of the full unified diff.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { boundedDiff, cutDiff } from '../../server/core/edits/diffCut.js';
import { unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import { computeSearchAndReplace } from './support.js';

const NOTICE = /\[diff truncated: [^\n]*raise maxDiffChars \(0 = unlimited\) to see all\]\n$/;

/** The shown head of a cut diff (without the notice line). */
function head(text: string): string {
  return text.replace(NOTICE, '');
}

/**
 * `cut` shows the head of `full` within `maxChars`: the same lines in the same order, except that
 * the header of the last (cut) hunk may count fewer lines, and a line cut in the middle gets a \n.
 */
function expectHeadOf(full: string, cut: string, maxChars: number): void {
  expect(cut).toMatch(NOTICE);
  const shown = head(cut);
  expect(shown.length).toBeLessThanOrEqual(maxChars + 1); // + the \n closing a line cut in the middle
  const shownLines = shown.split('\n');
  shownLines.pop();
  const fullLines = full.split('\n');
  const lastHeader = shownLines.map((l) => l.startsWith('@@ ')).lastIndexOf(true);
  shownLines.forEach((line, i) => {
    if (i === lastHeader) expect(line.slice(0, 4)).toBe(fullLines[i]!.slice(0, 4));
    else if (i === shownLines.length - 1) expect(fullLines[i]!.startsWith(line)).toBe(true);
    else expect(line).toBe(fullLines[i]);
  });
}

describe('cutDiff', () => {
  const diff = '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n+new\n';
  it('keeps a diff within the budget, and everything with 0', () => {
    expect(cutDiff(diff, diff.length)).toEqual({ text: diff, truncated: false });
    expect(cutDiff(diff, 0)).toEqual({ text: diff, truncated: false });
  });
  it('cuts on a line boundary and says how much it showed', () => {
    const r = cutDiff(diff, 20);
    expect(r.truncated).toBe(true);
    expect(r.text).toBe(`--- a/f\n+++ b/f\n[diff truncated: showing 16 of ${diff.length} characters; raise maxDiffChars (0 = unlimited) to see all]\n`);
  });
  it('cuts inside a line that alone is too long, never inside a surrogate pair', () => {
    const long = '+' + '😀'.repeat(10) + '\n';
    expect(head(cutDiff(long, 4).text)).toBe('+😀\n');
    expect(head(cutDiff(long, 5).text)).toBe('+😀😀\n');
  });
});

describe('boundedDiff', () => {
  /** A text of `lines` lines with mixed endings, and the edits that replace every `every`-th "hit". */
  const textArb = fc
    .tuple(fc.integer({ min: 50, max: 3000 }), fc.constantFrom('\n', '\r\n'), fc.integer({ min: 1, max: 400 }), fc.boolean())
    .map(([lines, eol, every, finalNewline]) => {
      const out: string[] = [];
      for (let i = 0; i < lines; i++) out.push(i % every === 0 ? `line ${i} hit é😀` : `line ${i} plain`);
      return out.join(eol) + (finalNewline ? eol : '');
    });

  it('shows exactly the head of the full diff (property)', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 30_000 }), fc.constantFrom('HIT', 'hit\nmore', ''), (text, maxChars, replacement) => {
        const r = computeSearchAndReplace(text, { search: 'hit', replace: replacement, useRegex: false, ignoreCase: false }, 'f');
        if (!r.ok) throw new Error(r.message);
        const full = unifiedDiff('f', text, r.newText, r.edits);
        const bounded = boundedDiff('f', text, r.newText, r.edits, maxChars);
        if (full.length <= maxChars) {
          expect(bounded).toEqual({ text: full, truncated: false });
          return;
        }
        expect(bounded.truncated).toBe(true);
        expect(bounded.text).toMatch(NOTICE);
        expectHeadOf(full, bounded.text, maxChars);
      }),
      { numRuns: 150, seed: 5150 },
    );
  });

  it("unifiedDiff's limit: a prefix of the full diff, longer than the limit, or all of it (property)", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 0, max: 20_000 }), fc.constantFrom('HIT', 'hit\nmore', ''), (text, limit, replacement) => {
        const r = computeSearchAndReplace(text, { search: 'hit', replace: replacement, useRegex: false, ignoreCase: false }, 'f');
        if (!r.ok) throw new Error(r.message);
        const full = unifiedDiff('f', text, r.newText, r.edits);
        const limited = unifiedDiff('f', text, r.newText, r.edits, 3, limit);
        expect(full.startsWith(limited)).toBe(true);
        if (limited !== full) expect(limited.length).toBeGreaterThan(limit);
        expect(limited === full).toBe(full.length <= limit || limited.length === full.length);
      }),
      { numRuns: 150, seed: 5151 },
    );
  });

  it('a single edit in a big file gives the same diff as unifiedDiff', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `row ${i}`).join('\n') + '\n';
    const at = text.indexOf('row 123456\n');
    const edits: SpanEdit[] = [{ start: at, end: at + 3, newText: 'ROW' }];
    const after = applySpanEdits(text, edits);
    expect(boundedDiff('f', text, after, edits, 50_000)).toEqual({ text: unifiedDiff('f', text, after, edits), truncated: false });
    expect(boundedDiff('f', text, after, edits, 1).truncated).toBe(true);
  });

  it('100,000 changes in a 10 MB text: a 50,000-character head', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? `    const v${i} = compute(${i}); // hit` : `    other(${i}); // padding padding`)).join('\n');
    const r = computeSearchAndReplace(text, { search: 'hit', replace: 'HIT', useRegex: false, ignoreCase: false }, 'f');
    if (!r.ok) throw new Error(r.message);
    expect(r.replacements).toBe(100_000);
    const bounded = boundedDiff('f', text, r.newText, r.edits, 50_000);
    expect(bounded.truncated).toBe(true);
    expect(bounded.text).toContain('of the diff of 100000 changes');
    expectHeadOf(unifiedDiff('f', text, r.newText, r.edits), bounded.text, 50_000);
  });
});
