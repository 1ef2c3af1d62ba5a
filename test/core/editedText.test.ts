// EditedText reads a text through its edits exactly as the text itself (issue 30, item 3: a large
// file's new text is never built): length, characters, slices, \n searches, equality, pieces that
// never split a surrogate pair, and the diffs built on it, on texts with CRLF, lone \r, emoji, CJK,
// a BOM and edits that cut surrogate pairs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedDiff } from '../../server/core/edits/diffCut.js';
import { diffStat, unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { EditedText, piecesOf, ROPE_MIN_CHARS, throughEdits } from '../../server/core/text/editedText.js';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';

const token = fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\r', '😀', '中', '\uFEFF', '\uD83D', '\uDE00');
const textArb = fc.array(token, { maxLength: 40 }).map((p) => p.join(''));
const editsArb = fc.array(fc.record({ gap: fc.nat(8), len: fc.nat(6), text: fc.array(token, { maxLength: 5 }).map((p) => p.join('')) }), { maxLength: 6 });

/** Sorted, non-overlapping edits from a spec, never two at one offset (offsets may fall inside a surrogate pair, on purpose). */
function editsFor(before: string, spec: readonly { gap: number; len: number; text: string }[]): SpanEdit[] {
  const edits: SpanEdit[] = [];
  let cursor = 0;
  for (const s of spec) {
    const start = cursor + s.gap + (edits.length > 0 ? 1 : 0);
    if (start > before.length) break;
    const end = Math.min(before.length, start + s.len);
    edits.push({ start, end, newText: s.text });
    cursor = end;
  }
  return edits;
}

describe('EditedText', () => {
  it('reads as the edited text: length, characters, slices, \\n searches, equality (property)', () => {
    fc.assert(
      fc.property(textArb, editsArb, fc.nat(60), fc.nat(60), (before, spec, a, b) => {
        const edits = editsFor(before, spec);
        const after = applySpanEdits(before, edits);
        // Any order of the edits.
        const t = new EditedText(before, [...edits].reverse());
        expect(t.length).toBe(after.length);
        expect(t.slice()).toBe(after);
        expect(t.slice(a, b)).toBe(after.slice(a, b));
        for (let i = -1; i <= after.length; i++) {
          expect(t.charCodeAt(i)).toEqual(after.charCodeAt(i));
          expect(t.indexOf('\n', i)).toBe(after.indexOf('\n', Math.max(0, i)));
        }
        expect(t.equals(after)).toBe(true);
        expect(t.equals(`${after}x`)).toBe(false);
        if (after.length > 0) expect(t.equals(after.slice(0, -1) + (after.endsWith('a') ? 'b' : 'a'))).toBe(false);
        // The pieces join to the text and never split a surrogate pair.
        const pieces = t.pieces();
        expect(pieces.join('')).toBe(after);
        for (let k = 1; k < pieces.length; k++) {
          const end = pieces[k - 1]!.charCodeAt(pieces[k - 1]!.length - 1);
          const start = pieces[k]!.charCodeAt(0);
          expect(end >= 0xd800 && end <= 0xdbff && start >= 0xdc00 && start <= 0xdfff).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('the diffs built on it are those built on the edited string (property)', () => {
    fc.assert(
      fc.property(textArb, editsArb, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 300 }), (before, spec, context, maxChars) => {
        const edits = editsFor(before, spec);
        const after = applySpanEdits(before, edits);
        const t = new EditedText(before, edits);
        expect(unifiedDiff('f', before, t, edits, context)).toBe(unifiedDiff('f', before, after, edits, context));
        expect(boundedDiff('f', before, t, edits, maxChars)).toEqual(boundedDiff('f', before, after, edits, maxChars));
        expect(diffStat(before, t, edits)).toEqual(diffStat(before, after, edits));
      }),
      { numRuns: 2000 },
    );
  });

  it('edits that undo each other: no diff', () => {
    const before = 'ab\ncd\n';
    const edits = [
      { start: 0, end: 1, newText: '' },
      { start: 1, end: 1, newText: 'a' },
    ];
    expect(unifiedDiff('f', before, new EditedText(before, edits), edits)).toBe('');
  });

  it('a surrogate pair cut by an edit is whole again in one piece', () => {
    // 😀 is \uD83D\uDE00: the edit replaces the low half, keeping it.
    const before = 'x😀y';
    const t = new EditedText(before, [{ start: 2, end: 3, newText: '\uDE00' }]);
    expect(t.pieces()).toEqual(['x', '😀', 'y']);
  });

  it('throughEdits: a large text read through its edits; the string itself when short, or when the edits do not account for it or are not valid', () => {
    const big = 'b'.repeat(ROPE_MIN_CHARS);
    const after = applySpanEdits(`a${big}c`, [{ start: 1, end: 2, newText: 'X' }]);
    const read = throughEdits(`a${big}c`, [{ start: 1, end: 2, newText: 'X' }], after);
    expect(read).toBeInstanceOf(EditedText);
    expect((read as EditedText).equals(after)).toBe(true);
    expect(throughEdits('abc', [{ start: 1, end: 2, newText: 'X' }], 'aXc')).toBe('aXc');
    expect(throughEdits(`a${big}c`, [{ start: 1, end: 2, newText: 'X' }], `${after}d`)).toBe(`${after}d`);
    expect(throughEdits(`a${big}c`, [{ start: 1, end: big.length + 5, newText: 'X' }], after)).toBe(after);
    expect(throughEdits(`a${big}c`, [{ start: 1, end: 2, newText: 'X' }, { start: 1, end: 2, newText: 'Y' }], after)).toBe(after);
    expect(piecesOf('whole')).toEqual(['whole']);
  });

  it('throughEdits reads one change through its edits once: the same edits and text give the same EditedText, another text or length a new one', () => {
    const big = 'b'.repeat(ROPE_MIN_CHARS);
    const before = `a${big}c`;
    const edits = [{ start: 1, end: 2, newText: 'X' }];
    const after = applySpanEdits(before, edits);
    const first = throughEdits(before, edits, after);
    expect(first).toBeInstanceOf(EditedText);
    expect(throughEdits(before, edits, after)).toBe(first);
    // The same edits as another array: made again.
    expect(throughEdits(before, [...edits], after)).not.toBe(first);
    // The same array over another text of the same length: made again, and read as that text.
    const other = `z${big}c`;
    const otherRead = throughEdits(other, edits, applySpanEdits(other, edits));
    expect(otherRead).not.toBe(first);
    expect((otherRead as EditedText).equals(applySpanEdits(other, edits))).toBe(true);
    // A new text the edits do not account for is itself.
    expect(throughEdits(before, edits, `${after}d`)).toBe(`${after}d`);
  });

  it('works out 100,000 sorted edits without sorting them again, and unsorted ones sorted', () => {
    const before = 'ab'.repeat(100_000);
    const edits = Array.from({ length: 100_000 }, (_, i) => ({ start: 2 * i + 1, end: 2 * i + 2, newText: 'B' }));
    const t = new EditedText(before, edits);
    expect(t.length).toBe(before.length);
    expect(t.equals('aB'.repeat(100_000))).toBe(true);
    const shuffled = [...edits].reverse();
    expect(new EditedText(before, shuffled).equals('aB'.repeat(100_000))).toBe(true);
    // A tie on start is ordered by end: an insertion before a replacement at the same offset.
    expect(new EditedText('abc', [{ start: 1, end: 2, newText: 'X' }, { start: 1, end: 1, newText: 'I' }]).slice()).toBe('aIXc');
  });
});
