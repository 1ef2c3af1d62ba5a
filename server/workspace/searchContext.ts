// Context lines around searchFiles' hits, read from the file itself: ripgrep runs without `--context`
// (a slower search mode in ripgrep, and a message per context line to parse), and a window around each
// hit's byte offset gives the lines before and after it. Whatever this cannot reproduce exactly as
// `rg --context` would (a UTF-16 file ripgrep transcoded, a file changed since ripgrep read it, a line
// longer than the largest window, a NUL byte) answers undefined, and the caller asks ripgrep instead.
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { openedAt } from './pinnedFolder.js';

/** A matching line as ripgrep reported it: its number, the byte offset of its start, its bytes with terminator. */
export interface Hit {
  line: number;
  offset: number;
  bytes: Uint8Array;
}

/** A context line: its number and its bytes with their terminator (none on a last line without one). */
export interface ContextLine {
  line: number;
  bytes: Buffer;
}

/** Reads `len` bytes at `pos` (fewer only at the end of the file). */
export type ReadAt = (pos: number, len: number) => Buffer;

/** A file up to this size is read whole, once; a larger one in windows around its hits, from this size on a side. */
const WHOLE_FILE = 64 * 1024;
const FIRST_WINDOW = 4 * 1024;
/** Past this many bytes on a side ripgrep is asked instead (its lines have no length limit). */
const MAX_WINDOW = 4 * 1024 * 1024;
const NL = 0x0a;

/**
 * The lines `rg --context n` prints around `hits` (in line order, from one file of `size` bytes) that
 * are not hits themselves, or undefined when they cannot be had exactly. ripgrep's offsets skip a
 * UTF-8 BOM, which it strips; a UTF-16 BOM means ripgrep searched a transcoded copy.
 */
export function contextAround(read: ReadAt, size: number, hits: readonly Hit[], n: number): ContextLine[] | undefined {
  const out: ContextLine[] = [];
  if (n <= 0 || hits.length === 0) return out;
  const head = read(0, Math.min(3, size));
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return undefined;
  const base = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const windows = new WindowCache(read, size);
  let printed = 0;
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i]!;
    const next = hits[i + 1];
    if (hit.line <= printed || (next !== undefined && next.line <= hit.line)) return undefined;
    const before = Math.min(n, hit.line - 1 - printed);
    const after = next === undefined ? n : Math.min(n, next.line - hit.line - 1);
    const lines = linesAround(windows, base, hit, before, after);
    if (lines === undefined) return undefined;
    out.push(...lines);
    printed = hit.line + lines.filter((l) => l.line > hit.line).length;
  }
  return out;
}

/** `before` lines before the hit and at most `after` after it (fewer at the end of the file), growing the window as needed. */
function linesAround(windows: WindowCache, base: number, hit: Hit, before: number, after: number): ContextLine[] | undefined {
  const pos = base + hit.offset;
  const end = pos + hit.bytes.length;
  const size = windows.size;
  if (end > size || (hit.bytes[hit.bytes.length - 1] !== NL && end !== size)) return undefined;
  for (let w = FIRST_WINDOW; w <= MAX_WINDOW; w *= 4) {
    const start = before > 0 ? Math.max(base, pos - w) : pos;
    const stop = after > 0 ? Math.min(size, end + w) : end;
    const buf = windows.get(start, stop);
    if (buf.length !== stop - start) return undefined; // the file shrank since ripgrep read it
    const at = pos - start;
    if (!buf.subarray(at, at + hit.bytes.length).equals(hit.bytes)) return undefined;
    if (at > 0 && buf[at - 1] !== NL) return undefined;
    const lines: ContextLine[] = [];
    // Before: line hit.line - k ends with the newline just before the start of the line after it.
    let lineStart = at;
    let complete = true;
    for (let k = 1; k <= before; k++) {
      if (lineStart === 0) {
        // The window's start: the file's (after its BOM), or more window is needed.
        if (start === base) return undefined; // ripgrep counted more lines than the file has
        complete = false;
        break;
      }
      const prev = lineStart >= 2 ? buf.lastIndexOf(NL, lineStart - 2) : -1;
      if (prev === -1 && start !== base) {
        complete = false;
        break;
      }
      const from = prev + 1;
      lines.unshift({ line: hit.line - k, bytes: buf.subarray(from, lineStart) });
      lineStart = from;
    }
    if (!complete) continue;
    // After: whole lines from the hit's end; the last line of the file may have no terminator.
    let from = at + hit.bytes.length;
    for (let k = 1; k <= after; k++) {
      if (from >= buf.length) {
        complete = stop === size;
        break;
      }
      const nl = buf.indexOf(NL, from);
      if (nl === -1 && stop !== size) {
        complete = false;
        break;
      }
      const to = nl === -1 ? buf.length : nl + 1;
      lines.push({ line: hit.line + k, bytes: buf.subarray(from, to) });
      from = to;
    }
    if (!complete) continue;
    // ripgrep drops a file with a NUL byte as binary: one here was not there when it searched.
    if (lines.some((l) => l.bytes.includes(0))) return undefined;
    return lines.map((l) => ({ line: l.line, bytes: Buffer.from(l.bytes) }));
  }
  return undefined;
}

/** The last window read, reused while the next hits' windows fall inside it; a small file is one window. */
class WindowCache {
  private start = 0;
  private buf: Buffer = Buffer.alloc(0);

  constructor(
    private readonly read: ReadAt,
    readonly size: number,
  ) {}

  get(start: number, stop: number): Buffer {
    if (start < this.start || stop > this.start + this.buf.length) {
      const whole = this.size <= WHOLE_FILE;
      this.start = whole ? 0 : start;
      this.buf = whole ? this.read(0, this.size) : this.read(start, stop - start);
    }
    return this.buf.subarray(start - this.start, stop - this.start);
  }
}

/**
 * contextAround on the file at `absPath` (a real path ripgrep reported): opened without following a
 * symlink, non-blocking, checked to be a regular file still at that path. Undefined when it cannot be read.
 */
export function fileContextAround(absPath: string, hits: readonly Hit[], n: number): ContextLine[] | undefined {
  let fd: number;
  try {
    fd = openSync(absPath, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !openedAt(fd, absPath)) return undefined;
    const read: ReadAt = (pos, len) => {
      const buf = Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const r = readSync(fd, buf, got, len - got, pos + got);
        if (r === 0) break;
        got += r;
      }
      return buf.subarray(0, got);
    };
    return contextAround(read, st.size, hits, n);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
