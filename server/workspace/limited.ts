// Bounded concurrency for file I/O: libuv runs file system calls on four threads, so a few dozen
// awaits in flight keep them busy where one at a time would wait on each round trip.

/** Runs `work(0..count-1)`, at most `limit` at a time. */
export async function eachLimited(count: number, limit: number, work: (i: number) => Promise<unknown> | undefined): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** `fn` over `items`, at most `limit` at a time; the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  await eachLimited(items.length, limit, async (i) => {
    out[i] = await fn(items[i]!, i);
  });
  return out;
}
