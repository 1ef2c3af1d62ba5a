// searchFiles' check that the lines ripgrep printed are the file's, now, at its place inside the scope,
// and context lines around them read from the file itself: ripgrep runs without `--context` (a slower
// search mode in ripgrep, and a message per context line to parse), and a window around each hit's
// byte offset gives the lines before and after it. The verdict says when the file is no longer where
// ripgrep found it (`moved`: it is dropped), when its bytes are not what ripgrep printed (`changed`),
// or when they cannot be compared here (`unsupported`: a UTF-16 file, which ripgrep transcodes; a line
// longer than the largest window).
import { closeSync, constants as fsConstants, fstatSync, openSync } from 'node:fs';
import { readFullySync } from '../disk/fileCodec.js';
import { openedAt } from '../disk/pinnedFolder.js';

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

/** Why the lines could not be checked or their context read (see the file's header). */
export type NotRead = 'moved' | 'changed' | 'unsupported';

/** A file up to this size is read whole, once; a larger one in windows around its hits, from this size on a side. */
const WHOLE_FILE = 64 * 1024;
const FIRST_WINDOW = 4 * 1024;
/** Past this many bytes on a side ripgrep is asked instead (its lines have no length limit). */
const MAX_WINDOW = 4 * 1024 * 1024;
const NL = 0x0a;

/**
 * The lines `rg --context n` prints around `hits` (in line order, from one file of `size` bytes) that
 * are not hits themselves, once every hit's bytes are checked to be the file's at its offset (with n
 * = 0, only the check). ripgrep's offsets skip a UTF-8 BOM, which it strips; a UTF-16 BOM means
 * ripgrep searched a transcoded copy.
 */
export function contextAround(read: ReadAt, size: number, hits: readonly Hit[], n: number): ContextLine[] | Exclude<NotRead, 'moved'> {
  const out: ContextLine[] = [];
  if (hits.length === 0) return out;
  const windows = new WindowCache(read, size);
  // The first bytes: from the whole file when it is read whole, else read on their own.
  const head = size <= WHOLE_FILE ? windows.get(0, Math.min(3, size)) : read(0, Math.min(3, size));
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'unsupported';
  const base = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  let printed = 0;
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i]!;
    const next = hits[i + 1];
    if (hit.line <= printed || (next !== undefined && next.line <= hit.line)) return 'changed';
    const before = Math.max(0, Math.min(n, hit.line - 1 - printed));
    const after = next === undefined ? Math.max(0, n) : Math.max(0, Math.min(n, next.line - hit.line - 1));
    const lines = linesAround(windows, base, hit, before, after);
    if (typeof lines === 'string') return lines;
    let following = 0;
    for (const l of lines) {
      out.push(l);
      if (l.line > hit.line) following++;
    }
    printed = hit.line + following;
  }
  return out;
}

/** `before` lines before the hit and at most `after` after it (fewer at the end of the file), growing the window as needed. */
function linesAround(windows: WindowCache, base: number, hit: Hit, before: number, after: number): ContextLine[] | 'changed' | 'unsupported' {
  const pos = base + hit.offset;
  const end = pos + hit.bytes.length;
  const size = windows.size;
  if (end > size || (hit.bytes[hit.bytes.length - 1] !== NL && end !== size)) return 'changed';
  for (let w = FIRST_WINDOW; w <= MAX_WINDOW; w *= 4) {
    // One byte before the line at least: the newline that must end the line before it.
    const start = Math.max(base, pos - (before > 0 ? w : 1));
    const stop = after > 0 ? Math.min(size, end + w) : end;
    const buf = windows.get(start, stop);
    if (buf.length !== stop - start) return 'changed'; // the file shrank since ripgrep read it
    const at = pos - start;
    if (!buf.subarray(at, at + hit.bytes.length).equals(hit.bytes)) return 'changed';
    if (at > 0 && buf[at - 1] !== NL) return 'changed';
    const lines: ContextLine[] = [];
    // Before: line hit.line - k ends with the newline just before the start of the line after it.
    let lineStart = at;
    let complete = true;
    for (let k = 1; k <= before; k++) {
      if (lineStart === 0) {
        // The window's start: the file's (after its BOM), or more window is needed.
        if (start === base) return 'changed'; // ripgrep counted more lines than the file has
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
    if (lines.some((l) => l.bytes.includes(0))) return 'changed';
    return lines.map((l) => ({ line: l.line, bytes: Buffer.from(l.bytes) }));
  }
  return 'unsupported';
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
 * The buffer windows up to this size are read into, reused from file to file: contextAround keeps one
 * window at a time and copies the lines it returns. Larger windows get a buffer of their own.
 */
const SCRATCH_BYTES = WHOLE_FILE + 2 * FIRST_WINDOW;
let scratch: Buffer | undefined;

/**
 * contextAround on the file at `absPath` (a real path ripgrep reported, as bytes when it is not
 * UTF-8): opened without following a symlink, non-blocking, checked to be a regular file still at
 * that path; `moved` when it is not.
 */
export function fileContextAround(absPath: string | Buffer, hits: readonly Hit[], n: number): ContextLine[] | NotRead {
  let fd: number;
  try {
    fd = openSync(absPath, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0));
  } catch (error) {
    // A symlink now (ELOOP) or a folder on its path no longer one (ENOTDIR): not where ripgrep found it.
    // Gone (ENOENT) or unreadable: changed since.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' || code === 'ENOTDIR' ? 'moved' : 'changed';
  }
  try {
    const st = fstatSync(fd);
    if (!openedAt(fd, absPath)) return 'moved';
    if (!st.isFile()) return 'changed';
    const read: ReadAt = (pos, len) => {
      const buf = len <= SCRATCH_BYTES ? (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES)) : Buffer.allocUnsafe(len);
      return buf.subarray(0, readFullySync(fd, buf.subarray(0, len), pos));
    };
    return contextAround(read, st.size, hits, n);
  } catch {
    return 'changed';
  } finally {
    closeSync(fd);
  }
}
