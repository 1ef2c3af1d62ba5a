// Short file system steps run as synchronous calls on the main thread (a libuv threadpool round trip
// costs ~10x the call itself); loops of them call `breathe` so the event loop still turns every few
// milliseconds (cancellation, document changes, other requests).

/** Longest stretch of synchronous work between two turns of the event loop (ms). */
export const SLICE_MS = 8;

let sliceStart = performance.now();

/** Yields to the event loop when the current stretch of synchronous work is SLICE_MS long. */
export async function breathe(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}

