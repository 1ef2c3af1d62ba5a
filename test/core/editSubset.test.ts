// appliedSubset: which of a change's edits a reviewed buffer holds (VS Code's Refactor Preview lets a
// person untick single edits), on tables of before / edits / now.
import { describe, expect, it } from 'vitest';
import { appliedSubset } from '../../server/core/edits/editSubset.js';
import type { SpanEdit } from '../../server/core/text/spanEdit.js';

/** Edits replacing every `from` in `text` by `to`. */
function replaceAll(text: string, from: string, to: string): SpanEdit[] {
  const edits: SpanEdit[] = [];
  for (let i = text.indexOf(from); i !== -1; i = text.indexOf(from, i + from.length)) edits.push({ start: i, end: i + from.length, newText: to });
  return edits;
}

function applySome(text: string, edits: readonly SpanEdit[], keep: readonly number[]): string {
  let out = '';
  let at = 0;
  edits.forEach((e, i) => {
    out += text.slice(at, e.start) + (keep.includes(i) ? e.newText : text.slice(e.start, e.end));
    at = e.end;
  });
  return out + text.slice(at);
}

describe('appliedSubset', () => {
  const cases: { name: string; before: string; from: string; to: string }[] = [
    { name: 'three words', before: 'alpha beta alpha gamma alpha\n', from: 'alpha', to: 'omega' },
    { name: 'CRLF and no final newline', before: 'a\r\nalpha\r\nb alpha', from: 'alpha', to: 'x\r\ny' },
    { name: 'emoji and CJK', before: '😀alpha漢字alpha😀', from: 'alpha', to: '字😀' },
    { name: 'new text a prefix of the old', before: 'alphabet alpha', from: 'alpha', to: 'al' },
    { name: 'old text a prefix of the new', before: 'al alx al', from: 'al', to: 'alx' },
    { name: 'deletions', before: 'a-b-c-d', from: '-', to: '' },
  ];
  for (const c of cases) {
    it(`${c.name}: every subset is found back`, () => {
      const edits = replaceAll(c.before, c.from, c.to);
      expect(edits.length).toBeGreaterThan(1);
      for (let mask = 0; mask < 1 << edits.length; mask++) {
        const keep = edits.map((_, i) => i).filter((i) => mask & (1 << i));
        const now = applySome(c.before, edits, keep);
        const found = appliedSubset(c.before, edits, now);
        expect(found).toBeDefined();
        // Ambiguous tables (same text either way) may give another subset, but it must give `now`.
        expect(applySome(c.before, edits, found!)).toBe(now);
      }
    });
  }

  it('all applied and none applied', () => {
    const before = 'x alpha y alpha z';
    const edits = replaceAll(before, 'alpha', 'beta');
    expect(appliedSubset(before, edits, 'x beta y beta z')).toEqual([0, 1]);
    expect(appliedSubset(before, edits, before)).toEqual([]);
  });

  it('a text changed otherwise too has no subset', () => {
    const before = 'x alpha y alpha z';
    const edits = replaceAll(before, 'alpha', 'beta');
    expect(appliedSubset(before, edits, 'x beta y alpha z!')).toBeUndefined();
    expect(appliedSubset(before, edits, 'X alpha y beta z')).toBeUndefined();
    expect(appliedSubset(before, edits, '')).toBeUndefined();
  });

  it('20,000 edits on one line, half applied (no recursion)', () => {
    const before = 'ab'.repeat(20_000);
    const edits = replaceAll(before, 'a', 'aa');
    const keep = edits.map((_, i) => i).filter((i) => i % 2 === 0);
    const now = applySome(before, edits, keep);
    const found = appliedSubset(before, edits, now);
    expect(applySome(before, edits, found!)).toBe(now);
  });
});
