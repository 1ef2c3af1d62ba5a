// unifiedDiff: exact git-style output for typical cases, and a property that jsdiff applies every patch.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatch } from 'diff';
import { unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { NormalizedText } from '../../server/core/text/normalizedText.js';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import { computeEdit } from '../../server/core/edits/edit.js';

const norm = (s: string): string => NormalizedText.from(s).text;

/** Builds the diff for `edits` on `before` and checks that jsdiff can apply it to the normalised text. */
function diffOf(before: string | null, edits: SpanEdit[], context?: number): string {
  const after = applySpanEdits(before ?? '', edits);
  const patch = unifiedDiff('src/x.ts', before, after, edits, context);
  if (patch !== '') expect(applyPatch(norm(before ?? ''), patch)).toBe(norm(after));
  // Anything but a pure BOM change shows, even a change of line endings only.
  const noBom = (t: string): string => t.replace(/^\uFEFF/, '');
  expect(patch === '').toBe(before !== null && noBom(before) === noBom(after));
  return patch;
}

/** A single edit replacing the first occurrence of `find`. */
function at(text: string, find: string, newText: string): SpanEdit {
  const start = text.indexOf(find);
  expect(start).toBeGreaterThanOrEqual(0);
  return { start, end: start + find.length, newText };
}

const tenLines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('unifiedDiff: exact output', () => {
  it('one changed line with three lines of context', () => {
    expect(diffOf(tenLines, [at(tenLines, 'line 5', 'LINE 5')])).toBe(
      [
        '--- a/src/x.ts',
        '+++ b/src/x.ts',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+LINE 5',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('created file', () => {
    expect(unifiedDiff('new.txt', null, 'a\nb\n', [{ start: 0, end: 0, newText: 'a\nb\n' }])).toBe(
      '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
    expect(applyPatch('', unifiedDiff('new.txt', null, 'a\nb', []))).toBe('a\nb');
  });

  it('nothing changed is the empty string', () => {
    expect(unifiedDiff('x', 'abc\n', 'abc\n', [])).toBe('');
    expect(unifiedDiff('x', 'abc\n', 'abc\n', [{ start: 0, end: 1, newText: 'a' }])).toBe('');
  });

  it('CRLF lines are shown without \\r', () => {
    const before = 'a\r\nb\r\nc\r\n';
    const patch = diffOf(before, [at(before, 'b', 'B')], 1);
    expect(patch).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });

  it('a change of only a line ending still shows', () => {
    const before = 'a\nb\nc\n';
    const patch = diffOf(before, [{ start: 3, end: 4, newText: '\r\n' }], 0);
    expect(patch).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -2 +2 @@\n-b\n+b\n');
  });

  it('no newline at end of file', () => {
    const before = 'a\nb';
    expect(diffOf(before, [at(before, 'b', 'c')])).toBe(
      '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
    expect(diffOf(before, [{ start: before.length, end: before.length, newText: '\n' }])).toBe(
      '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
    const ctx = 'a\nb\nc';
    expect(diffOf(ctx, [at(ctx, 'a', 'A')])).toBe(
      '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n',
    );
  });

  it('pure insertion and deletion of whole lines', () => {
    const before = 'a\nb\nc\n';
    expect(diffOf(before, [{ start: 2, end: 2, newText: 'new\n' }], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,0 +2 @@\n+new\n');
    expect(diffOf(before, [at(before, 'b\n', '')], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -2 +1,0 @@\n-b\n');
  });

  it('BOM is not shown', () => {
    const before = '\uFEFFfirst\nsecond\n';
    expect(diffOf(before, [at(before, 'first', ' 1st')], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-first\n+ 1st\n');
  });

  it('separate hunks far apart, one hunk when close', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    const before = lines.join('\n') + '\n';
    const far = diffOf(before, [at(before, 'l2\n', 'L2\n'), at(before, 'l20\n', 'L20\n')]);
    expect(far.match(/^@@/gm)).toHaveLength(2);
    expect(far).toContain('@@ -1,5 +1,5 @@');
    expect(far).toContain('@@ -17,7 +17,7 @@');
    const near = diffOf(before, [at(before, 'l2\n', 'L2\n'), at(before, 'l8\n', 'L8\n')]);
    expect(near.match(/^@@/gm)).toHaveLength(1);
    expect(near).toContain('@@ -1,11 +1,11 @@');
  });

  it('the diff of a computed edit on a mixed-ending file', () => {
    const before = 'a\r\nb\nc\r\nd\r\n';
    const r = computeEdit(before, { oldString: 'b\nc', newString: 'b\nx\nc', replaceAll: false }, 'f');
    if (!r.ok) throw new Error(r.message);
    const patch = unifiedDiff('f', before, r.newText, r.edits, 0);
    expect(patch).toBe('--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+x\n');
    expect(applyPatch(norm(before), patch)).toBe(norm(r.newText));
  });
});

describe('unifiedDiff: property', () => {
  const token = fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\r', '😀', '中');
  const textArb = fc.tuple(fc.boolean(), fc.array(token, { maxLength: 40 })).map(([bom, p]) => (bom ? '\uFEFF' : '') + p.join(''));
  const editsArb = fc.array(fc.record({ gap: fc.nat(8), len: fc.nat(6), text: fc.array(token, { maxLength: 5 }).map((p) => p.join('')) }), {
    maxLength: 5,
  });

  it('jsdiff applies the patch to the normalised before-text and gets the normalised after-text', () => {
    fc.assert(
      fc.property(textArb, editsArb, fc.integer({ min: 0, max: 3 }), (before, spec, context) => {
        const edits: SpanEdit[] = [];
        let cursor = before.startsWith('\uFEFF') ? 1 : 0;
        for (const s of spec) {
          const start = cursor + s.gap;
          if (start > before.length) break;
          const end = Math.min(before.length, start + s.len);
          edits.push({ start, end, newText: s.text });
          cursor = end;
        }
        diffOf(before, edits, context);
      }),
      { numRuns: 3000 },
    );
  });
});
