// Serialises work on the same keys (absolute file paths): a command holds all of its files' keys for
// its whole read-modify-write, so two commands never interleave on one file.

export class KeyedMutex {
  /** Per key, a promise that settles when the last queued holder of the key releases it. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs fn once every key is free; FIFO per key; releases on throw too. Keys are deduplicated and
   * sorted, and a call joins the queue of every key at once (synchronously), so two calls can never
   * hold one key each while waiting for the other's: [a,b] and [b,a] cannot deadlock.
   */
  async run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    const waits: Promise<void>[] = [];
    for (const key of [...new Set(keys)].sort()) {
      const { ready, release } = this.enqueue(key);
      waits.push(ready);
      releases.push(release);
    }
    try {
      await Promise.all(waits);
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }

  /** Number of keys currently held or waited for (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }

  private enqueue(key: string): { ready: Promise<void>; release: () => void } {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tails.set(key, done);
    return {
      ready: previous,
      release: () => {
        release();
        // Last in line: forget the key so the map does not grow with every file ever touched.
        if (this.tails.get(key) === done) this.tails.delete(key);
      },
    };
  }
}
