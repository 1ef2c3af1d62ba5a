// Large inputs must complete within vitest's default timeout; no timing assertions here.
import { describe, expect, it } from 'vitest';
import { computeEdit } from '../../server/core/edits/edit.js';
import { computeStrReplace } from '../../server/core/edits/strReplace.js';
import { unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { EditSequence } from '../../server/core/text/editSequence.js';
import { LineIndex } from '../../server/core/text/positions.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';
import { findClosest } from './support.js';

/** About 10 MB, 200k lines, CRLF. */
function bigFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < 200_000; i++) lines.push(`    const value_${i} = compute(${i % 97}, "some text here ${i}");`);
  return lines.join('\r\n') + '\r\n';
}

describe('10 MB inputs', () => {
  const text = bigFile();

  it('is about 10 MB', () => {
    expect(text.length).toBeGreaterThan(9_000_000);
  });

  it('not_found with a closest candidate', () => {
    const r = computeEdit(text, { oldString: 'const value_123456 = compute(72, "some txt here 123456");', newString: 'x', replaceAll: false }, 'big.ts');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('not_found');
    expect(r.data?.['closest']).toMatchObject({ startLine: 123_457 });
  });

  it('not_found with nothing close', () => {
    const r = computeEdit(text, { oldString: 'zzz_nothing_like_this\nqqq_at_all', newString: 'x', replaceAll: false }, 'big.ts');
    expect(r.ok ? 'ok' : r.kind).toBe('not_found');
  });

  it('replace_all with 200k matches, then a diff', () => {
    const r = computeEdit(text, { oldString: 'compute(', newString: 'calc(', replaceAll: true }, 'big.ts');
    if (!r.ok) throw new Error(r.message);
    expect(r.replacements).toBe(200_000);
    expect(applySpanEdits(text, r.edits)).toBe(r.newText);
    const diff = unifiedDiff('big.ts', text, r.newText, r.edits);
    expect(diff.startsWith('--- a/big.ts\n+++ b/big.ts\n@@ -1,200000 +1,200000 @@\n')).toBe(true);
  });

  it('strReplace whitespace tier and ambiguity on 10 MB', () => {
    const r = computeStrReplace(
      text,
      [
        { old: 'const value_199999 = compute(  82,"some text here 199999");', new: 'const last = 1;', allowMultiple: false },
        { old: 'compute(1,', new: 'x', allowMultiple: false },
      ],
      false,
      'big.ts',
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.details).toEqual([{ index: 0, matchedBy: 'whitespace', count: 1 }]);
    expect(r.failedReplacements[0]).toMatchObject({ index: 1, kind: 'ambiguous' });
    expect(r.newText.endsWith('    const last = 1;\r\n')).toBe(true);
  });

  it('EditSequence: 100k replacements per round on 10 MB', () => {
    const normalized = text.replace(/\r\n/g, '\n');
    const seq = new EditSequence(normalized);
    const reps = [];
    for (let i = 0; i < 100_000; i++) reps.push({ start: i * 90, end: i * 90 + 4, text: 'ab' });
    seq.replaceAll(reps);
    seq.replaceAll(reps.map((r, i) => ({ start: r.start - 2 * i, end: r.start - 2 * i + 1, text: '' })));
    expect(seq.text.length).toBe(normalized.length - 300_000);
    expect(seq.toReplacements()).toHaveLength(100_000);
  });

  it('LineIndex and findClosest directly', () => {
    const idx = new LineIndex(text);
    expect(idx.lineCount).toBe(200_001);
    expect(idx.positionAt(text.length - 3, 'utf-8').line).toBe(199_999);
    expect(findClosest(text.replace(/\r\n/g, '\n'), 'const value_42 = compute(42, "some text here 42");')?.startLine).toBe(43);
  });
});
