// whenIdle (workspace/timeSlice.ts): background work (the stray-temp sweep) waits until no request has
// been served for a while — none in flight, the last answered and the wait begun that long ago — or
// until its latest moment. Driven by vitest's fake clock (setTimeout and performance.now), so that
// each step is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serving, whenIdle } from '../../server/workspace/timeSlice.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function watch(p: Promise<void>): { done: () => boolean } {
  let settled = false;
  void p.then(() => (settled = true));
  return { done: () => settled };
}

/** A request being served until `finish` is called. */
function request(): { finish: () => Promise<void> } {
  let end!: () => void;
  const work = serving(() => new Promise<void>((resolve) => (end = resolve)));
  return {
    finish: async () => {
      end();
      await work;
    },
  };
}

describe('whenIdle', () => {
  it('with no request: once quietMs have passed since the wait began', async () => {
    const idle = watch(whenIdle(1000, 30_000));
    await vi.advanceTimersByTimeAsync(999);
    expect(idle.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.done()).toBe(true);
  });

  it('a request in flight, then answered: quietMs after its answer', async () => {
    const r = request();
    const idle = watch(whenIdle(1000, 30_000));
    await vi.advanceTimersByTimeAsync(5000);
    expect(idle.done()).toBe(false);
    await r.finish();
    await vi.advanceTimersByTimeAsync(999);
    expect(idle.done()).toBe(false);
    // Another request meanwhile starts the quiet over.
    const again = request();
    await vi.advanceTimersByTimeAsync(500);
    await again.finish();
    await vi.advanceTimersByTimeAsync(999);
    expect(idle.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.done()).toBe(true);
  });

  it('requests without end: at latestMs', async () => {
    const r = request();
    const idle = watch(whenIdle(1000, 30_000));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(idle.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.done()).toBe(true);
    await r.finish();
  });
});
