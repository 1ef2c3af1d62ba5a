// Short file system steps run as synchronous calls on the main thread (a libuv threadpool round trip
// costs ~10x the call itself); loops of them call `breathe` so the event loop still turns every few
// milliseconds (cancellation, document changes, other requests). Background work (the symbol index
// build) also steps aside while a request is being served (`serving`, `inForeground`).

/** Longest stretch of synchronous work between two turns of the event loop (ms). */
export const SLICE_MS = 8;

// 0, not performance.now(): reading `performance` at load would load perf_hooks (9 internal modules)
// before `initialize` is answered; the first `breathe` yields once instead.
let sliceStart = 0;

let served = 0;
let servingSince = 0;
/** When the last request served (`serving`) was answered. */
let lastServedAt = 0;

/**
 * How long background work yields to requests in a row: a command that waits long (on the editor,
 * on a person's review) does not hold the build up for all that time.
 */
const FOREGROUND_MAX_MS = 250;

/**
 * Runs a request's work in the foreground: background work that checks `inForeground` (the index
 * build's reading of ripgrep's output) pauses until it is answered, so a command sent during a
 * build waits for its own steps, not for the build's slices between them.
 */
export async function serving<T>(work: () => Promise<T>): Promise<T> {
  if (served++ === 0) servingSince = performance.now();
  try {
    return await work();
  } finally {
    served--;
    lastServedAt = performance.now();
  }
}

/**
 * Resolves once no request has been served for `quietMs` — none in flight, the last answered (and
 * this wait begun) at least that long ago — or after `latestMs` whatever happens: for background work
 * that would slow down a request sent meanwhile (the stray-temp sweep's walk of the whole tree).
 */
export function whenIdle(quietMs: number, latestMs: number): Promise<void> {
  const begun = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const quietFor = served > 0 ? 0 : now - Math.max(lastServedAt, begun);
      if (quietFor >= quietMs || now - begun >= latestMs) {
        resolve();
        return;
      }
      // Unref'd: a server shutting down does not wait for it.
      setTimeout(check, Math.min(quietMs - quietFor, latestMs - (now - begun))).unref();
    };
    check();
  });
}

/** Whether a request is being served, since less than FOREGROUND_MAX_MS (background work then waits). */
export function inForeground(): boolean {
  return served > 0 && performance.now() - servingSince < FOREGROUND_MAX_MS;
}

/** The turn every caller whose slice ran out waits for: one for all (see breathe). */
let yielding: Promise<void> | undefined;

/**
 * Yields to the event loop when the current stretch of synchronous work is SLICE_MS long. The callers
 * that find it so wait for the same turn, and the new stretch starts once, when that turn comes: each
 * restarting the clock as it resumed gave a turn only after all of them had run a full slice (16 files
 * read at once: ~130 ms between turns, the threadpool's completions waiting all that time).
 */
export async function breathe(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  yielding ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      yielding = undefined;
      sliceStart = performance.now();
      resolve();
    }),
  );
  await yielding;
}

