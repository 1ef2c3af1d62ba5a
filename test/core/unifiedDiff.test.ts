// unifiedDiff: exact git-style output for typical cases, a property that a strict applier (lines
// compared byte for byte, only \n ends a line, as git apply does) turns every `before` into `after`,
// and the same checked with the real git apply and patch on a sample (CRLF, mixed, BOM, no final newline).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffStat, unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import { computeEdit } from '../../server/core/edits/edit.js';
import { computeStrReplace } from '../../server/core/edits/strReplace.js';
import { applyWithTools, hasPatchTools, type PatchCase } from '../helpers/patchCheck.js';

/**
 * Applies a unified diff the way git apply does without fuzz: every context and '-' line must equal
 * the file's line exactly (its \r included), at the line the hunk header names.
 */
export function applyStrict(before: string, patch: string): string {
  const lines = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const body = patch.split('\n');
  body.pop(); // the patch ends with \n
  const out: string[] = [];
  let next = 0; // 0-based index of the next unconsumed line of before
  let i = 0;
  while (i < body.length && !body[i]!.startsWith('@@')) i++;
  while (i < body.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(body[i]!);
    if (!m) throw new Error(`bad hunk header ${body[i]}`);
    const oldStart = Number(m[1]);
    const oldLen = m[2] === undefined ? 1 : Number(m[2]);
    const from = oldLen === 0 ? oldStart : oldStart - 1;
    if (from < next) throw new Error('overlapping hunks');
    out.push(...lines.slice(next, from));
    next = from;
    i++;
    while (i < body.length && !body[i]!.startsWith('@@')) {
      const line = body[i]!;
      const noEol = body[i + 1] === '\\ No newline at end of file';
      const text = line.slice(1) + (noEol ? '' : '\n');
      if (line[0] === ' ' || line[0] === '-') {
        if (lines[next] !== text) throw new Error(`line ${next + 1}: expected ${JSON.stringify(text)}, file has ${JSON.stringify(lines[next])}`);
        next++;
      }
      if (line[0] === ' ' || line[0] === '+') out.push(text);
      i += noEol ? 2 : 1;
    }
  }
  out.push(...lines.slice(next));
  return out.join('');
}

/** Builds the diff for `edits` on `before` and checks that it applies exactly to `before`. */
function diffOf(before: string | null, edits: SpanEdit[], context?: number): string {
  const after = applySpanEdits(before ?? '', edits);
  const patch = unifiedDiff('src/x.ts', before, after, edits, context);
  if (patch !== '') expect(applyStrict(before ?? '', patch)).toBe(after);
  // diffStat counts the diff's - and + lines without building it.
  const body = patch.split('\n').filter((l) => !l.startsWith('--- ') && !l.startsWith('+++ '));
  expect(diffStat(before, after, edits)).toEqual({ added: body.filter((l) => l.startsWith('+')).length, removed: body.filter((l) => l.startsWith('-')).length });
  // Any change shows, even of line endings or the BOM only.
  expect(patch === '').toBe(before !== null && before === after);
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
    expect(applyStrict('', unifiedDiff('new.txt', null, 'a\nb', []))).toBe('a\nb');
  });

  it('nothing changed is the empty string', () => {
    expect(unifiedDiff('x', 'abc\n', 'abc\n', [])).toBe('');
    expect(unifiedDiff('x', 'abc\n', 'abc\n', [{ start: 0, end: 1, newText: 'a' }])).toBe('');
  });

  it('CRLF lines keep their \\r, as in the file', () => {
    const before = 'a\r\nb\r\nc\r\n';
    const patch = diffOf(before, [at(before, 'b', 'B')], 1);
    expect(patch).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n');
  });

  it('a change of only a line ending shows the endings', () => {
    const before = 'a\nb\nc\n';
    const patch = diffOf(before, [{ start: 3, end: 4, newText: '\r\n' }], 0);
    expect(patch).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -2 +2 @@\n-b\n+b\r\n');
  });

  it('a lone \\r is part of its line (only \\n ends a line, as for git)', () => {
    const before = 'a\rb\nc\n';
    expect(diffOf(before, [at(before, 'c', 'C')], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -2 +2 @@\n-c\n+C\n');
    expect(diffOf(before, [at(before, 'b', 'B')], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\rb\n+a\rB\n');
  });

  it('a CRLF file without a final newline', () => {
    const before = 'a\r\nb\r';
    expect(diffOf(before, [at(before, 'b', 'c')], 1)).toBe(
      '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n\\ No newline at end of file\n+c\r\n\\ No newline at end of file\n',
    );
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

  it('a BOM stays on line 1, as in the file', () => {
    const before = '\uFEFFfirst\nsecond\n';
    expect(diffOf(before, [at(before, 'first', ' 1st')], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-\uFEFFfirst\n+\uFEFF 1st\n');
    expect(diffOf(before, [{ start: 0, end: 1, newText: '' }], 0)).toBe('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-\uFEFFfirst\n+first\n');
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
    expect(patch).toBe('--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+x\r\n');
    expect(applyStrict(before, patch)).toBe(r.newText);
  });
});

describe('diffStat', () => {
  it('counts a 20,000-line change whole (a review prompt used to count the cut diff: +646 −646)', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const edits: SpanEdit[] = [];
    for (let at = before.indexOf('line'); at !== -1; at = before.indexOf('line', at + 1)) edits.push({ start: at, end: at + 4, newText: 'LINE' });
    expect(diffStat(before, applySpanEdits(before, edits), edits)).toEqual({ added: 20_000, removed: 20_000 });
    expect(diffStat(null, 'a\nb', [])).toEqual({ added: 2, removed: 0 });
    expect(diffStat('same\n', 'same\n', [{ start: 0, end: 4, newText: 'same' }])).toEqual({ added: 0, removed: 0 });
  });
});

describe('unifiedDiff: property', () => {
  const token = fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\r', '😀', '中');
  const textArb = fc.tuple(fc.boolean(), fc.array(token, { maxLength: 40 })).map(([bom, p]) => (bom ? '\uFEFF' : '') + p.join(''));
  const editsArb = fc.array(fc.record({ gap: fc.nat(8), len: fc.nat(6), text: fc.array(token, { maxLength: 5 }).map((p) => p.join('')) }), {
    maxLength: 5,
  });

  it('the patch applies exactly to the before-text and gives the after-text', () => {
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

describe('unifiedDiff: git apply and patch accept every diff', () => {
  const eolArb = fc.constantFrom('lf', 'crlf', 'mixed');
  const lineArb = fc.array(fc.constantFrom('a', 'b', ' ', '\t', '😀', '中', 'x = 1;'), { maxLength: 6 }).map((p) => p.join(''));
  const fileArb = fc.record({
    bom: fc.boolean(),
    eol: eolArb,
    finalNewline: fc.boolean(),
    lines: fc.array(lineArb, { minLength: 1, maxLength: 14 }),
  });
  const text = (f: { bom: boolean; eol: string; finalNewline: boolean; lines: string[] }): string => {
    const eol = (i: number) => (f.eol === 'lf' ? '\n' : f.eol === 'crlf' ? '\r\n' : i % 2 ? '\r\n' : '\n');
    const body = f.lines.map((l, i) => l + (i < f.lines.length - 1 || f.finalNewline ? eol(i) : '')).join('');
    return (f.bom ? '\uFEFF' : '') + body;
  };
  const replArb = fc.array(fc.record({ line: fc.nat(20), neu: fc.array(lineArb, { maxLength: 3 }) }), { minLength: 1, maxLength: 3 });

  it.skipIf(!hasPatchTools())('over LF, CRLF, mixed endings, BOM, no final newline (strReplace diffs, 300 files per tool)', () => {
    const cases: PatchCase[] = [];
    fc.assert(
      fc.property(fileArb, replArb, (f, repls) => {
        const before = text(f);
        // Replace whole distinct lines by new ones through strReplace (so edits are what editls makes).
        const lines = f.lines;
        const entries = repls
          .map((r) => ({ idx: r.line % lines.length, neu: r.neu.join('\n') }))
          .filter((r) => lines[r.idx]!.trim() !== '' && lines.filter((l) => l === lines[r.idx]).length === 1)
          .map((r) => ({ old: lines[r.idx]!, new: r.neu, allowMultiple: false }));
        if (entries.length === 0) return;
        const r = computeStrReplace(before, entries, false, 'f');
        if (!r.ok) return;
        const name = `f${cases.length}.txt`;
        cases.push({ name, before: Buffer.from(before), after: Buffer.from(r.newText), patch: unifiedDiff(name, before, r.newText, r.edits) });
      }),
      { numRuns: 400, seed: 11 },
    );
    expect(cases.length).toBeGreaterThan(100);
    expect(applyWithTools(cases)).toEqual([]);
  });
});
