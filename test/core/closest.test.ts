// findClosest and the bit-parallel Levenshtein behind it: checked against a textbook DP and on small and large files.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findCandidates, levenshtein, levenshteinRatio } from '../../server/core/edits/closest.js';
import { findClosest } from './support.js';
import { closestHint } from '../../server/core/edits/matching.js';

function naiveLevenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

describe('levenshtein (bit-parallel)', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['a'.repeat(70), 'a'.repeat(69) + 'b', 1],
  ])('%j vs %j', (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
    expect(levenshtein(b, a)).toBe(d);
  });

  it('matches the textbook DP on random strings (including > 32 and > 64 characters)', () => {
    const str = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '😀', '中'), maxLength: 140 });
    fc.assert(
      fc.property(str, str, (a, b) => {
        expect(levenshtein(a, b)).toBe(naiveLevenshtein(a, b));
      }),
      { numRuns: 400 },
    );
  });

  it('ratio', () => {
    expect(levenshteinRatio('', '')).toBe(1);
    expect(levenshteinRatio('abcd', 'abce')).toBe(0.75);
  });
});

describe('findClosest', () => {
  const file = [
    'import x from "y";',
    '',
    'export function total(items: number[]): number {',
    '  let sum = 0;',
    '  for (const item of items) {',
    '    sum += item;',
    '  }',
    '  return sum;',
    '}',
    '',
    'export const answer = 42;',
    '',
  ].join('\n');

  it('finds a multi-line region with small differences', () => {
    const needle = 'export function total(items: number[]) {\n  let sum = 0;\n  for (const it of items) {\n    sum += it;';
    const c = findClosest(file, needle)!;
    expect(c.startLine).toBe(3);
    expect(c.endLine).toBe(6);
    expect(c.text).toBe(file.split('\n').slice(2, 6).join('\n'));
    expect(c.similarity).toBeGreaterThan(0.8);
    expect(c.similarity).toBeLessThan(1);
    expect(Math.round(c.similarity * 100) / 100).toBe(c.similarity);
  });

  it('ignores whitespace differences in the similarity', () => {
    const c = findClosest(file, 'return   sum;')!;
    expect(c.startLine).toBe(8);
    expect(c.similarity).toBe(1);
  });

  it('a trailing newline in the needle does not add a line', () => {
    const c = findClosest(file, 'export const answer = 43;\n')!;
    expect(c).toMatchObject({ startLine: 11, endLine: 11, text: 'export const answer = 42;' });
  });

  it('returns undefined when nothing is close', () => {
    expect(findClosest(file, 'class Completely { different(): void {} }')).toBeUndefined();
    expect(findClosest(file, '   ')).toBeUndefined();
    expect(findClosest('', 'abc')).toBeUndefined();
  });

  it('needle longer than the file', () => {
    const c = findClosest('alpha\nbeta', 'alpha\nbeta\ngamma');
    expect(c).toMatchObject({ startLine: 1, endLine: 2, text: 'alpha\nbeta', similarity: 0.63 });
  });

  it('finds the right region in a large file', () => {
    const lines: string[] = [];
    for (let i = 0; i < 50_000; i++) lines.push(`  const value${i} = compute(${i}, "item-${i}");`);
    lines[31_337] = '  const special = computeSomethingElse(31337, "unique-marker");';
    const c = findClosest(lines.join('\n'), 'const special = computeSomethingElse(31337, "unique-marker")')!;
    expect(c.startLine).toBe(31_338);
  });
});

describe('findCandidates', () => {
  const copy = (n: number) => [`function handler${n}() {`, '  const result = compute(input, options);', '  return result;', '}', ''];
  const file = [...copy(1), ...copy(2), ...copy(3), ...copy(4), 'other();', ''].join('\n');
  const needle = 'function handler() {\n  const result = compute(input, opts);\n  return result;\n}';

  it('keeps equally close copies, best first, at most three, never overlapping', () => {
    const cs = findCandidates(file, needle);
    expect(cs.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 4],
      [6, 9],
      [11, 14],
    ]);
    expect(new Set(cs.map((c) => c.similarity)).size).toBe(1);
    expect(findClosest(file, needle)).toEqual(cs[0]);
  });

  it('orders different similarities best first and leaves out what is not close', () => {
    const text = ['alpha beta gamma delta', 'x', 'alpha beta gamma delts', 'x', 'alpha beta zzzzz delts', 'x', 'nothing at all here'].join('\n');
    const cs = findCandidates(text, 'alpha beta gamma delta!');
    expect(cs.map((c) => c.startLine)).toEqual([1, 3, 5]);
    expect(cs[0]!.similarity).toBeGreaterThan(cs[1]!.similarity);
    expect(cs[1]!.similarity).toBeGreaterThan(cs[2]!.similarity);
    expect(findCandidates(text, 'class Completely { different(): void {} }')).toEqual([]);
  });

  it('the hint names every candidate and says when several are equally close', () => {
    const hint = closestHint(findCandidates(file, needle));
    expect(hint).toContain('lines 1-4');
    expect(hint).toContain('lines 6-9');
    expect(hint).toContain('lines 11-14');
    expect(hint).toMatch(/equally close/);
    expect(closestHint([])).toMatch(/re-read the file/);
  });

  it('stays near-linear: 3 candidates among 20,000 identical copies in well under a second', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `  value = compute(${i % 2}, "item");`).join('\n');
    const t = performance.now();
    const cs = findCandidates(big, 'value = compute(0, "iten");');
    expect(performance.now() - t).toBeLessThan(1500);
    expect(cs).toHaveLength(3);
  });
});
