// Whole-line differences (core/edits/lineHunks.ts) and the proposed file shown with the file's own
// line endings (ide/diffReview.ts): tables of before/after texts; applying the edits always gives
// the after text, and an edit never starts or ends inside a line.
import { describe, expect, it } from 'vitest';
import { textChange } from '../../server/core/edits/lineHunks.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';
import { withEndingsOf } from '../../server/ide/diffReview.js';

const CASES: [name: string, before: string, after: string, edits: number][] = [
  ['one changed line', 'a\nb\nc\n', 'a\nB\nc\n', 1],
  ['CRLF', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n', 1],
  ['two stretches', 'a\nb\nc\nd\ne\n', 'A\nb\nc\nd\nE\n', 2],
  ['no final newline', 'a\nb', 'a\nb2', 1],
  ['final newline added', 'a\nb', 'a\nb\n', 1],
  ['empty before (a new file)', '', 'x\ny\n', 1],
  ['everything removed', 'x\ny\n', '', 1],
  ['emoji and CJK', 'a😀\n漢字\nz\n', 'a😀\n漢字x\nz\n', 1],
  ['BOM kept', '\uFEFFa\nb\n', '\uFEFFa\nB\n', 1],
  ['tabs', '\tx\n\ty\n', '\tx\n  y\n', 1],
  ['unchanged', 'same\n', 'same\n', 0],
];

describe('textChange', () => {
  it.each(CASES)('%s', (_name, before, after, n) => {
    const edits = textChange(before, after);
    expect(edits).toHaveLength(n);
    expect(applySpanEdits(before, edits)).toBe(after);
    for (const e of edits) {
      expect(e.start === 0 || before[e.start - 1] === '\n').toBe(true);
      expect(e.end === before.length || before[e.end - 1] === '\n').toBe(true);
    }
  });

  it('falls back to one edit of whole lines when the line diff runs out of time', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => (i % 2 ? `LINE ${i}` : `line ${i}`)).join('\n');
    const edits = textChange(before, after, 0);
    expect(applySpanEdits(before, edits)).toBe(after);
  });
});

describe('withEndingsOf', () => {
  it.each([
    ['LF file, LF proposal', 'a\nb\n', 'a\nB\n', 'a\nB\n'],
    ['CRLF file, LF proposal', 'a\r\nb\r\n', 'a\nB\n', 'a\r\nB\r\n'],
    ['CRLF file, CRLF proposal', 'a\r\nb\r\n', 'a\r\nB\r\n', 'a\r\nB\r\n'],
    ['mixed file, LF proposal', 'a\r\nb\n', 'a\nB\n', 'a\r\nB\r\n'],
    ['BOM file, proposal without', '\uFEFFa\n', 'A\n', '\uFEFFA\n'],
    ['no BOM, proposal with one', 'a\n', '\uFEFFA\n', 'A\n'],
  ])('%s', (_name, current, proposed, shown) => {
    expect(withEndingsOf(current, proposed)).toBe(shown);
  });
});
