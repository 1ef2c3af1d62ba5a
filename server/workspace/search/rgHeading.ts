// Splits ripgrep's `--heading --null --line-number` output, read as raw byte chunks, into files and
// numbered lines for the symbol index build: whole lines only (a line cut by a chunk waits for the
// next one), each chunk decoded as UTF-8 in one piece.
import { flatCopy } from '../../core/text/flatCopy.js';

export interface HeadingSink {
  /** A file's first match; answer false to skip its lines. `path` is as ripgrep printed it. */
  file(path: string): boolean;
  /** A matching line of the current file: its 1-based number, and its text (without the line terminator) as `s.slice(from, to)`, left for the sink to make into a string if it needs one. */
  line(line: number, s: string, from: number, to: number): void;
}

/**
 * `PATH\0N:text` starts a file, `N:text` continues it, an empty line ends it. The folders ripgrep
 * searches are absolute paths, so a path never starts with a digit. Lines are handed over as they
 * are (ripgrep's `[Omitted long matching line]` for a line past `--max-columns` too).
 */
export class HeadingReader {
  private rest: Buffer | undefined;
  private inFile = false;

  constructor(private readonly sink: HeadingSink) {}

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.rest !== undefined) {
      buf = Buffer.concat([this.rest, chunk]);
      this.rest = undefined;
    }
    const last = buf.lastIndexOf(10);
    if (last === -1) {
      this.rest = buf;
      return;
    }
    // A copy: the chunk may be a view of a larger pooled buffer.
    if (last + 1 < buf.length) this.rest = Buffer.from(buf.subarray(last + 1));
    this.lines(decode(buf, last + 1));
  }

  /** The output ended: a last line without `\n` counts too. */
  end(): void {
    if (this.rest === undefined) return;
    const buf = Buffer.concat([this.rest, Buffer.from('\n')]);
    this.rest = undefined;
    this.lines(decode(buf, buf.length));
  }

  /** `s` holds whole lines, each ending in `\n`. */
  private lines(s: string): void {
    // Two loops, so that the optimised code for the hot one (numbered lines) stays small.
    let pos = 0;
    while (pos < s.length) {
      if (this.inFile) pos = this.numbered(s, pos);
      if (pos < s.length) pos = this.other(s, pos);
    }
  }

  /** Numbered lines of the current file from `pos`, up to the first other line; returns where that starts. */
  private numbered(s: string, pos: number): number {
    const sink = this.sink;
    const n = s.length;
    while (pos < n) {
      let at = pos;
      let c = s.charCodeAt(at);
      if (c < 48 || c > 57) return pos;
      let line = 0;
      do {
        line = line * 10 + (c - 48);
        c = s.charCodeAt(++at);
      } while (c >= 48 && c <= 57);
      const nl = s.indexOf('\n', at);
      // Arithmetic rather than a branch: the first CRLF line would otherwise meet optimised code
      // that has never seen one.
      const stop = nl - (s.charCodeAt(nl - 1) === 13 ? 1 : 0);
      sink.line(line, s, at + 1, stop);
      pos = nl + 1;
    }
    return pos;
  }

  /**
   * The line at `pos` outside a file, or not numbered: the heading `PATH\0N:text` that starts a
   * file (whose first numbered line then starts after the NUL), the empty line that ends one, or a
   * line of a file the sink refused. Returns where parsing goes on.
   */
  private other(s: string, pos: number): number {
    const nl = s.indexOf('\n', pos);
    const c = s.charCodeAt(pos);
    const nul = nl === pos || (c >= 48 && c <= 57) ? -1 : s.indexOf('\0', pos);
    if (nul === -1 || nul > nl) {
      // An empty line ends the file; a numbered line here belongs to a refused file.
      if (nl === pos) this.inFile = false;
      return nl + 1;
    }
    // A copy rather than a slice of `s`, which would keep the whole chunk alive for as long as
    // the index keeps the path.
    this.inFile = this.sink.file(flatCopy(s.slice(pos, nul)));
    return this.inFile ? nul + 1 : nl + 1;
  }
}

/**
 * UTF-8, in one call per chunk: an ASCII chunk becomes a one-byte string (V8 checks while decoding),
 * about four times faster than decoding as latin1 and then looking for a byte >= 0x80. A chunk ends
 * at a line break, so no character is cut in two.
 */
function decode(buf: Buffer, end: number): string {
  return buf.toString('utf8', 0, end);
}
