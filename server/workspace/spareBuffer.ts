// A buffer kept between uses of the same size class, so that the next one writes into memory already
// touched: a page of fresh memory costs ~11 µs of page fault on the bench machine (a 20 MB buffer
// ~55 ms, written once). Used for the text a regex scan sends its worker (search/regexRunner.ts) and
// for the bytes of a text file read and decoded at once (disk/fileCodec.ts READ_SCRATCH).

/** How long a buffer is kept after its last use. */
export const SPARE_KEPT_MS = 10_000;

/**
 * One buffer, kept SPARE_KEPT_MS after it was last given back. `take` hands it out (or a new one when
 * it is too small); `keep` takes one back, the larger of it and the one kept. A buffer taken and kept
 * again at once serves as scratch memory: what was read into it holds until the next `take`.
 */
export class SpareBuffer {
  private buffer: ArrayBuffer | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `maxKept`: a larger buffer is not kept (bytes). */
  constructor(private readonly maxKept = Infinity) {}

  /** A buffer of its own (never a slice of Node's shared pool, so that it can be transferred or kept) of exactly `bytes` bytes: over the kept one (no longer kept) when it is large enough. */
  take(bytes: number): Buffer {
    const spare = this.buffer;
    // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool. (A kept buffer too
    // small for this one stays kept.)
    if (spare === undefined || spare.byteLength < bytes) return Buffer.allocUnsafeSlow(bytes);
    this.drop();
    return Buffer.from(spare, 0, bytes);
  }

  /** Keeps `buffer` (the larger of it and the one kept, unless over maxKept) for SPARE_KEPT_MS. */
  keep(buffer: ArrayBuffer): void {
    if (buffer.byteLength > this.maxKept || (this.buffer !== undefined && this.buffer.byteLength >= buffer.byteLength)) return;
    this.drop();
    this.buffer = buffer;
    this.timer = setTimeout(() => this.drop(), SPARE_KEPT_MS);
    this.timer.unref();
  }

  /** Lets the kept buffer go. */
  drop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.buffer = undefined;
  }

  /** The size of the buffer kept (undefined: none). */
  get kept(): number | undefined {
    return this.buffer?.byteLength;
  }
}
