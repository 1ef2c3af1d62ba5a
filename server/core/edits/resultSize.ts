// Owns the size check every command makes before it builds a result: the resulting length,
// worked out arithmetically (count x (new - old), not by building the text), against the limit
// that maxFileSize (and V8's longest string) sets. Over it is `too_large` and nothing is built.
import { fail, type Failure } from '../result.js';

/** V8 makes no string longer than 2^29 - 24 UTF-16 units; results stay at half of that at most. */
export const MAX_RESULT_CHARS_CAP = 2 ** 28;

/**
 * The longest result (UTF-16 units) a command may build when files may hold `maxFileSize` bytes:
 * every unit takes at least one byte in any encoding editls writes, so a longer text is too large
 * for certain. (The exact byte count is checked again on the built text, see `resultBytesTooLarge`.)
 */
export function resultCharLimit(maxFileSize: number): number {
  return Math.max(0, Math.min(maxFileSize, MAX_RESULT_CHARS_CAP));
}

/** too_large when a result of `length` UTF-16 units would pass `limit`; undefined when it fits. */
export function resultTooLong(file: string, length: number, limit: number, what: string): Failure | undefined {
  if (length <= limit) return undefined;
  return fail(
    'too_large',
    `${what} would make ${file} ${formatCount(length)} characters long, over the limit of ${formatCount(limit)} (maxFileSize); nothing changed; replace less at once, or raise maxFileSize in the editls settings`,
    { path: file, resultChars: length, maxChars: limit },
  );
}

/** too_large when the built text encodes to more than maxFileSize bytes. */
export function resultBytesTooLarge(file: string, bytes: number, maxFileSize: number, what: string): Failure | undefined {
  if (bytes <= maxFileSize) return undefined;
  return fail(
    'too_large',
    `${what} would make ${file} ${formatCount(bytes)} bytes, over the maxFileSize limit of ${formatCount(maxFileSize)} bytes; nothing changed; replace less at once, or raise maxFileSize in the editls settings`,
    { path: file, resultBytes: bytes, maxFileSize },
  );
}

/**
 * A whole number with `,` between thousands, as `toLocaleString('en-US')` writes it, without its
 * first call's ICU set-up (about 10 ms, once per process: a session's first large result paid it).
 */
export function formatCount(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return `${n < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+$)/g, ',')}`;
}
