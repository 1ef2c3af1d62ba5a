// KeyedMutex: per-key serialisation and FIFO order, concurrency across keys, no deadlock, release on throw.

import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../server/workspace/keyedMutex.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** A promise resolved from outside, to hold a task open until the test says so. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('KeyedMutex', () => {
  it('runs same-key tasks one at a time, in call order', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    let active = 0;
    let maxActive = 0;
    const tasks = Array.from({ length: 10 }, (_, i) =>
      m.run(['/ws/a.ts'], async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        log.push(`start ${i}`);
        await tick();
        log.push(`end ${i}`);
        active--;
        return i;
      }),
    );
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(maxActive).toBe(1);
    expect(log).toEqual(Array.from({ length: 10 }, (_, i) => [`start ${i}`, `end ${i}`]).flat());
    expect(m.size).toBe(0);
  });

  it('runs tasks on different keys concurrently', async () => {
    const m = new KeyedMutex();
    const a = gate();
    const started: string[] = [];
    const first = m.run(['a'], async () => {
      started.push('a');
      await a.promise;
    });
    const second = m.run(['b'], async () => {
      started.push('b');
    });
    await second; // finishes while 'a' is still held
    expect(started).toEqual(['a', 'b']);
    a.open();
    await first;
  });

  it('does not deadlock on overlapping multi-key tasks taken in opposite orders', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        m.run(i % 2 === 0 ? ['a', 'b'] : ['b', 'a'], async () => {
          log.push(`in ${i}`);
          await tick();
          log.push(`out ${i}`);
          return i;
        }),
      ),
    );
    expect(results).toHaveLength(20);
    // Fully serial: every "in" is followed by its own "out".
    for (let k = 0; k < log.length; k += 2) expect(log[k + 1]).toBe(log[k]?.replace('in', 'out'));
    expect(m.size).toBe(0);
  });

  it('makes a multi-key task wait for each of its keys, and single-key tasks wait for it', async () => {
    const m = new KeyedMutex();
    const holdA = gate();
    const order: string[] = [];
    const t1 = m.run(['a'], async () => {
      await holdA.promise;
      order.push('a-only');
    });
    const t2 = m.run(['b', 'a'], async () => {
      order.push('a+b');
    });
    const t3 = m.run(['b'], async () => {
      order.push('b-only');
    });
    await tick();
    expect(order).toEqual([]); // t2 waits for a, t3 queues behind t2 on b
    holdA.open();
    await Promise.all([t1, t2, t3]);
    expect(order).toEqual(['a-only', 'a+b', 'b-only']);
  });

  it('treats a repeated key as one key', async () => {
    const m = new KeyedMutex();
    expect(await m.run(['a', 'a'], async () => 'done')).toBe('done');
  });

  it('runs at once with no keys', async () => {
    const m = new KeyedMutex();
    expect(await m.run([], async () => 42)).toBe(42);
  });

  it('releases the keys when the task throws or rejects', async () => {
    const m = new KeyedMutex();
    await expect(
      m.run(['a', 'b'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(
      m.run(['a'], (() => {
        throw new Error('sync boom');
      }) as () => Promise<never>),
    ).rejects.toThrow('sync boom');
    expect(await m.run(['a', 'b'], async () => 'after')).toBe('after');
    expect(m.size).toBe(0);
  });

  it('lets a queued task run after a failing one ahead of it', async () => {
    const m = new KeyedMutex();
    const failing = m.run(['k'], async () => {
      await tick();
      throw new Error('first fails');
    });
    const next = m.run(['k'], async () => 'second ran');
    await expect(failing).rejects.toThrow('first fails');
    expect(await next).toBe('second ran');
  });
});
