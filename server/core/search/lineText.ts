// One line of a search result: stripping ripgrep's line terminator, turning its UTF-8 byte offsets
// into UTF-16 offsets (also for lines that are not valid UTF-8), and cutting long lines on a
// character boundary with the ` [truncated...]` marker.

export const TRUNCATION_MARKER = ' [truncated...]';

/** The line without its terminator (`\n` or `\r\n`; ripgrep keeps it in `lines`). */
export function stripTerminator(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  if (line.endsWith('\n')) return line.slice(0, -1);
  return line;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * UTF-16 offsets in `text` of the given UTF-8 byte offsets (ascending or not), where `text` is the
 * UTF-8 decoding of the bytes. An offset inside a multi-byte character maps to that character's start.
 */
export function utf16OffsetsOfUtf8(text: string, byteOffsets: readonly number[]): number[] {
  // An ASCII line (most source lines): bytes and UTF-16 units are the same.
  if (ASCII.test(text)) return byteOffsets.map((b) => Math.max(0, Math.min(b, text.length)));
  const order = byteOffsets.map((b, i) => [b, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(byteOffsets.length);
  let bytes = 0;
  let i = 0;
  for (const [target, index] of order) {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
      if (bytes + size > target) break;
      bytes += size;
      i += pair ? 2 : 1;
    }
    out[index] = i;
  }
  return out;
}

/**
 * For a line ripgrep could not report as UTF-8 (`{bytes}`): the text as an editor decoding it with
 * replacement characters shows it, and the UTF-16 offsets of the byte offsets in that text.
 */
export function decodeBytesLine(bytes: Uint8Array, byteOffsets: readonly number[]): { text: string; offsets: number[] } {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  return {
    text: decoder.decode(bytes),
    offsets: byteOffsets.map((b) => decoder.decode(bytes.subarray(0, Math.max(0, Math.min(b, bytes.length)))).length),
  };
}

/** Made on first use: building one loads ICU's break data, about 10 ms that every start-up would pay. */
let segmenter: Intl.Segmenter | null | undefined;
function graphemes(): Intl.Segmenter | null {
  if (segmenter === undefined) segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  return segmenter;
}

/**
 * Cuts `text` to at most `maxChars` characters (code points), moved back to a grapheme boundary so an
 * emoji sequence or a letter with its combining marks is never split, and appends the marker.
 */
export function truncateLine(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  // Find the UTF-16 index after maxChars code points.
  let cut = 0;
  let count = 0;
  while (cut < text.length && count < maxChars) {
    const c = text.charCodeAt(cut);
    cut += c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(cut + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    count++;
  }
  if (cut >= text.length) return { text, truncated: false };
  const segmenter = graphemes();
  if (segmenter) {
    const from = Math.max(0, cut - 64);
    let boundary = from;
    for (const s of segmenter.segment(text.slice(from, Math.min(text.length, cut + 64)))) {
      const start = from + s.index;
      if (start > cut) break;
      boundary = start;
    }
    // `from` is only the window's start, not necessarily a boundary: keep the code point cut when no
    // real boundary lies in the window, or when the first cluster alone is longer than maxChars.
    if (boundary > from) cut = boundary;
  }
  return { text: text.slice(0, cut) + TRUNCATION_MARKER, truncated: true };
}
