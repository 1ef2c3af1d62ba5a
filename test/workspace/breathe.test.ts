// breathe (workspace/timeSlice.ts): many loops of synchronous work, each calling breathe, let the
// event loop turn after about SLICE_MS of their work together, not after SLICE_MS of each one's.
import { describe, expect, it } from 'vitest';
import { breathe, SLICE_MS } from '../../server/workspace/timeSlice.js';

/** Busy for `ms` of wall-clock time (synchronous work). */
function work(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('breathe', () => {
  it('16 loops working 1 ms between calls: the event loop turns after about one slice of their work, not 16', async () => {
    const loops = 16;
    let units = 0;
    let running = true;
    const perTurn: number[] = [];
    let lastUnits = 0;
    // A turn of the event loop: one setImmediate after another, each noting the work done since the last.
    const turn = () => {
      perTurn.push(units - lastUnits);
      lastUnits = units;
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    const loop = async () => {
      while (running) {
        await breathe();
        work(1);
        units++;
      }
    };
    const all = Array.from({ length: loops }, loop);
    while (perTurn.length < 40) await new Promise((r) => setImmediate(r));
    running = false;
    await Promise.all(all);
    // Each loop resumed by a turn does one unit before it looks again, and the first of them work on
    // until the slice ends: at most loops + SLICE_MS units (each waiter restarting the clock: ~loops x SLICE_MS).
    const most = Math.max(...perTurn.slice(2));
    expect(most).toBeLessThanOrEqual(loops + SLICE_MS + 2);
    expect(units).toBeGreaterThan(0);
  });
});
