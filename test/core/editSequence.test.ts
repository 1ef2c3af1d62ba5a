// EditSequence: rounds of replacements on the current text and the net change against the original.
import { describe, expect, it } from 'vitest';
import { EditSequence } from '../../server/core/text/editSequence.js';
import type { NormReplacement } from '../../server/core/text/normalizedText.js';

function naive(text: string, reps: readonly NormReplacement[]): string {
  let out = text;
  for (const r of [...reps].sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out;
}

describe('EditSequence', () => {
  it('starts as the original and reports no change', () => {
    const s = new EditSequence('hello');
    expect(s.text).toBe('hello');
    expect(s.toReplacements()).toEqual([]);
  });

  it('applies rounds on the current text', () => {
    const s = new EditSequence('let a = 1;');
    s.replaceAll([{ start: 4, end: 5, text: 'bb' }]);
    expect(s.text).toBe('let bb = 1;');
    s.replaceAll([{ start: 0, end: 3, text: 'const' }, { start: 10, end: 10, text: ' // x' }]);
    expect(s.text).toBe('const bb = 1 // x;');
    expect(naive('let a = 1;', s.toReplacements())).toBe(s.text);
  });

  it('net replacements cover only changed spans', () => {
    const s = new EditSequence('one two three');
    s.replaceAll([{ start: 0, end: 3, text: 'ONE' }]);
    s.replaceAll([{ start: 8, end: 13, text: 'THREE' }]);
    expect(s.toReplacements()).toEqual([
      { start: 0, end: 3, text: 'ONE' },
      { start: 8, end: 13, text: 'THREE' },
    ]);
  });

  it('a change that is undone still shows as a replacement with the same text (trimmed later)', () => {
    const s = new EditSequence('abc');
    s.replaceAll([{ start: 1, end: 2, text: 'X' }]);
    s.replaceAll([{ start: 1, end: 2, text: 'b' }]);
    expect(s.text).toBe('abc');
    expect(naive('abc', s.toReplacements())).toBe('abc');
  });

  it('edits text inserted by an earlier round and deletes across pieces', () => {
    const s = new EditSequence('0123456789');
    s.replaceAll([{ start: 2, end: 4, text: 'abc' }, { start: 6, end: 6, text: 'XY' }]);
    expect(s.text).toBe('01abc45XY6789');
    s.replaceAll([{ start: 3, end: 8, text: '-' }]);
    expect(s.text).toBe('01a-Y6789');
    expect(naive('0123456789', s.toReplacements())).toBe('01a-Y6789');
    s.replaceAll([{ start: 0, end: s.text.length, text: '' }]);
    expect(s.text).toBe('');
    expect(s.toReplacements()).toEqual([{ start: 0, end: 10, text: '' }]);
  });

  it('two insertions at the same offset keep their order', () => {
    const s = new EditSequence('ab');
    s.replaceAll([{ start: 1, end: 1, text: 'x' }, { start: 1, end: 1, text: 'y' }]);
    expect(s.text).toBe('axyb');
  });

  it('empty original', () => {
    const s = new EditSequence('');
    s.replaceAll([{ start: 0, end: 0, text: 'new' }]);
    expect(s.text).toBe('new');
    expect(s.toReplacements()).toEqual([{ start: 0, end: 0, text: 'new' }]);
  });

  it('throws on overlapping replacements (programming error)', () => {
    const s = new EditSequence('abcdef');
    expect(() => s.replaceAll([{ start: 0, end: 3, text: '' }, { start: 2, end: 4, text: '' }])).toThrow();
  });
});
