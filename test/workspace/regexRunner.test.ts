// RegexRunner: scans in a worker give exactly what scanRegex gives on this thread; a catastrophic
// pattern is stopped at the deadline (and the next scan still works); cancellation; invalid patterns;
// a long text sent as its body's \n view (crBody).
import { afterAll, describe, expect, it } from 'vitest';
import { RegexRunner } from '../../server/workspace/search/regexRunner.js';
import { scanRegex, type ScanJob } from '../../server/core/edits/regexScan.js';
import { NormalizedText } from '../../server/core/text/normalizedText.js';
import type { SpareBuffer } from '../../server/workspace/spareBuffer.js';

const runner = new RegexRunner();
afterAll(() => runner.dispose());

/** The size of the buffer a runner keeps for its next long text. */
const spareBytes = (r: RegexRunner) => (r as unknown as { spare: SpareBuffer }).spare.kept;

const job = (over: Partial<ScanJob>): ScanJob => ({
  text: '',
  source: 'a',
  flags: 'g',
  replacement: '',
  expand: true,
  maxMatches: 1_000_000,
  maxOutput: 1_000_000,
  ...over,
});

const CATASTROPHIC = job({ text: 'a'.repeat(40) + '!', source: '(a+)+$' });

describe('RegexRunner', () => {
  it('returns what scanRegex returns on this thread', async () => {
    const j = job({ text: 'x1 y22 😀 z333\r\n', source: '(?<d>\\d+)|😀', replacement: '[$<d>|$&|$$]' });
    expect(await runner.run(j, 5000)).toEqual(scanRegex(j));
  });

  it('stops a catastrophic pattern at the deadline, then serves the next scan', async () => {
    const r = await runner.run(CATASTROPHIC, 200);
    expect(r).toEqual({ ok: false, problem: 'timeout', detail: '200 ms' });
    const next = await runner.run(job({ text: 'banana', source: 'an', replacement: 'AN' }), 5000);
    expect(next.ok && next.count).toBe(2);
  });

  it('runs scans side by side while one is stuck', async () => {
    const stuck = runner.run(CATASTROPHIC, 1500);
    const quick = await runner.run(job({ text: 'aaa', source: 'a' }), 5000);
    expect(quick.ok && quick.count).toBe(3);
    expect((await stuck).ok).toBe(false);
  });

  it('stops on cancellation', async () => {
    const controller = new AbortController();
    const pending = runner.run(CATASTROPHIC, 60_000, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, problem: 'cancelled' });
    const before = new AbortController();
    before.abort();
    expect(await runner.run(job({ text: 'a' }), 5000, before.signal)).toMatchObject({ ok: false, problem: 'cancelled' });
  });

  it('reports an invalid pattern as invalid_regex', async () => {
    expect(await runner.run(job({ source: '(' }), 5000)).toMatchObject({ ok: false, problem: 'invalid_regex' });
  });

  it('a long text (sent as UTF-16 bytes) with lone surrogates, astral characters and NULs comes back exact', async () => {
    const unit = 'x1 \uD800 y22 😀 \uDC00z333\n中\u0000𠀀 ';
    const j = job({ text: unit.repeat(5000), source: '(?<d>\\d+)|[\\uD800-\\uDFFF]', replacement: '[$<d>|$&]' });
    expect(j.text.length).toBeGreaterThan(1 << 16);
    expect(await runner.run(j, 30_000)).toEqual(scanRegex(j));
  });

  it('replacement texts and matches: few distinct (sent as tables); many distinct texts as they are, matches left out', async () => {
    const few = job({ text: 'ab1 ab2 ab3 '.repeat(20_000), source: 'ab(\\d)', replacement: '<$1>' });
    expect(await runner.run(few, 30_000)).toEqual(scanRegex(few));
    const many = job({ text: Array.from({ length: 10_000 }, (_, i) => `n${i};`).join(''), source: 'n(\\d+)', replacement: '$1$1' });
    const r = await runner.run(many, 30_000);
    expect(r).toEqual({ ...scanRegex(many), matched: null });
    expect(r.ok && new Set(r.texts).size).toBe(10_000);
  });

  it('writes the next long text into the buffer the last one came back in: a shorter text and a failure after it come back exact', async () => {
    const own = new RegexRunner();
    try {
      const long = job({ text: 'abc1 '.repeat(40_000), source: '\\d', replacement: '#' });
      expect(await own.run(long, 30_000)).toEqual(scanRegex(long));
      expect(spareBytes(own)).toBe(2 * long.text.length);
      // In the first text's buffer (none of its bytes past the second's read), which comes back whole.
      const short = job({ text: 'xyz2 '.repeat(20_000), source: '[a-z]+\\d', replacement: '<$&>' });
      expect(await own.run(short, 30_000)).toEqual(scanRegex(short));
      expect(spareBytes(own)).toBe(2 * long.text.length);
      // A failure comes back as scanRegex gives it, the buffer kept apart.
      const bad = job({ text: 'q'.repeat(100_000), source: '(' });
      expect(await own.run(bad, 30_000)).toEqual(scanRegex(bad));
      // A longer text than the buffer kept: a new one, kept in its place.
      const longer = job({ text: 'de5 '.repeat(80_000), source: '\\d', replacement: '$&$&' });
      expect(await own.run(longer, 30_000)).toEqual(scanRegex(longer));
      expect(spareBytes(own)).toBe(2 * longer.text.length);
    } finally {
      await own.dispose();
    }
    expect(spareBytes(own)).toBeUndefined();
  });

  it("a long text given with its body (crBody) is sent as the body's \\n view: CRLF, lone CR, \\r\\r\\n, CR first and last", async () => {
    const own = new RegexRunner();
    try {
      const bodies = [
        '\rx1 y22\r\n😀 z333\r\r\n\uD800 中\n'.repeat(4000) + 'q9\r',
        'ab1\r\n'.repeat(20_000),
        'lone\rcr 7\r'.repeat(8000),
        'no line break at all, 1 2 3 '.repeat(3000) + '\r\n',
      ];
      for (const body of bodies) {
        const view = NormalizedText.from(body).text;
        expect(view.length).toBeGreaterThanOrEqual(1 << 16);
        const j = job({ text: view, crBody: body, source: '(?<d>\\d+)\\n?|\\n(?=\\n)|^|[\\uD800-\\uDFFF]', flags: 'gm', replacement: '[$<d>|$&]' });
        const expected = scanRegex(job({ text: view, source: j.source, flags: j.flags, replacement: j.replacement }));
        expect(await own.run(j, 30_000)).toEqual(expected);
        // The buffer it went in holds the body, and came back whole.
        expect(spareBytes(own)).toBeGreaterThanOrEqual(2 * body.length);
      }
      // The body is what travels (its view, not the text given beside it, is what the worker scans).
      const body = 'y\r\n'.repeat(40_000);
      const swapped = await own.run(job({ text: 'x\n'.repeat(40_000), crBody: body, source: 'y', replacement: 'z' }), 30_000);
      expect(swapped.ok && swapped.count).toBe(40_000);
      // A body whose view is not as long as the text is not used: the text is sent.
      const odd = job({ text: 'k1\n'.repeat(30_000), crBody: 'k1\r\n'.repeat(29_000), source: 'k(\\d)', replacement: '$1' });
      expect(await own.run(odd, 30_000)).toEqual(scanRegex(odd));
      // A short text is posted as it is: its text is scanned, not the body given beside it.
      const short = job({ text: 'x\n'.repeat(10), crBody: 'y\r\n'.repeat(10), source: 'x', replacement: 'z' });
      const shortReply = await own.run(short, 30_000);
      expect(shortReply).toEqual(scanRegex(short));
      expect(shortReply.ok && shortReply.count).toBe(10);
    } finally {
      await own.dispose();
    }
  });

  it('handles a 10 MB text with 100,000 matches', async () => {
    const text = ('0123456789'.repeat(9) + 'MATCH'.padEnd(10, '.')).repeat(100_000);
    const r = await runner.run(job({ text, source: 'MATCH', replacement: 'm$&' }), 30_000);
    if (!r.ok) throw new Error(r.detail);
    expect(r.count).toBe(100_000);
    expect(r.starts[99_999]).toBe(text.lastIndexOf('MATCH'));
    expect(r.texts?.[0]).toBe('mMATCH');
  });
});
