// positionsAt must agree with LineIndex.positionAt for every offset on a character boundary, in
// every encoding, whatever the line endings.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineIndex, type PositionEncoding } from '../../server/core/text/positions.js';
import { positionsAt } from '../../server/core/text/sparsePositions.js';

const token = fc.constantFrom('a', ' ', '\n', '\r\n', '\r', 'é', '😀', '中', '𠀀', '\u0301');

function boundaries(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i <= text.length; i++) {
    const c = text.charCodeAt(i);
    const inPair = c >= 0xdc00 && c <= 0xdfff && i > 0;
    const inCrlf = c === 10 && text.charCodeAt(i - 1) === 13;
    if (!inPair && !inCrlf) out.push(i);
  }
  return out;
}

describe('positionsAt', () => {
  it('matches LineIndex on random texts and offsets', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom<PositionEncoding>('utf-8', 'utf-16', 'utf-32'), (parts, picks, encoding) => {
        const text = parts.join('');
        const all = boundaries(text);
        const offsets = picks.map((p) => all[p % all.length]!);
        const index = new LineIndex(text);
        expect(positionsAt(text, offsets, encoding)).toEqual(offsets.map((o) => index.positionAt(o, encoding)));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('handles a concrete mixed-ending text', () => {
    const text = 'a\r\nxé😀 b\rc\nd';
    const at = (s: string) => text.indexOf(s);
    expect(positionsAt(text, [at('b'), at('c'), at('d'), at('x')], 'utf-8')).toEqual([
      { line: 1, character: 8 },
      { line: 2, character: 0 },
      { line: 3, character: 0 },
      { line: 1, character: 0 },
    ]);
  });
});
