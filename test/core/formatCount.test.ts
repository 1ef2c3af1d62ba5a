// formatCount (core/edits/resultSize.ts) writes whole numbers as toLocaleString('en-US') does, in
// the messages that name sizes and counts, without ICU's set-up on its first call.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCount } from '../../server/core/edits/resultSize.js';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [200000, '200,000'],
    [1048576, '1,048,576'],
    [-1234567, '-1,234,567'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
  ])('%d -> %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it("equals toLocaleString('en-US') for any safe whole number (property)", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => formatCount(n) === n.toLocaleString('en-US')),
      { numRuns: 2000 },
    );
  });
});
