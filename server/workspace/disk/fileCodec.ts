// Reads text files from disk and converts between bytes and text: UTF-8 (with or without BOM) and
// BOM-marked UTF-16 LE/BE, detected on read and reproduced byte for byte on write. Only regular
// files are ever opened for reading (a FIFO would block a libuv thread until someone writes to it).

import { isUtf8 } from 'node:buffer';
import { type BigIntStats, closeSync, constants as fsConstants, fstatSync, openSync, promises as fsp, readSync, type Stats, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fail, type Failure, type Result } from '../../core/result.js';
import { piecesOf, throughEdits } from '../../core/text/editedText.js';
import type { SpanEdit } from '../../core/text/spanEdit.js';
import { openedAt } from './pinnedFolder.js';
import { SpareBuffer } from '../spareBuffer.js';
import { breathe } from '../timeSlice.js';
import { errnoCode } from '../../core/errno.js';
import type { DiskText, FileEncoding } from '../../commands/ports/files.js';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);
const UTF16BE_BOM = Buffer.from([0xfe, 0xff]);
const UTF32LE_BOM = Buffer.from([0xff, 0xfe, 0x00, 0x00]);
const UTF32BE_BOM = Buffer.from([0x00, 0x00, 0xfe, 0xff]);

// fatal: invalid sequences are errors, not U+FFFD (which would not round-trip).
// ignoreBOM: the BOM is sliced off by hand, so a second U+FEFF is text and is kept.
// Made on the first UTF-16 file, not at start-up (its ICU converter costs ~2 ms to set up).
let utf16leDecoder: InstanceType<typeof TextDecoder> | undefined;

/**
 * What a text file is read into when its bytes are decoded (or matched) at once and let go: memory
 * already touched rather than fresh (~11 µs a page of fault on the bench machine; a 2,000-file
 * replaceInFiles read ~450 pages of them). Its bytes hold until the next read into it, which no
 * reader may await before (the texts decoded, the bytes made from them are copies). Files over 4 MB
 * are read into memory of their own (the scratch is not kept that large).
 */
export const READ_SCRATCH = new SpareBuffer(4 * 1024 * 1024);

/**
 * Reads and decodes a text file. `displayPath` is the name used in messages. The size is checked
 * against `maxFileSize` before any content is read.
 */
export async function readTextFile(
  absPath: string,
  displayPath: string,
  maxFileSize: number,
  options: { confined?: boolean } = {},
): Promise<Result<DiskText>> {
  // Synchronous calls (a file of a command's batch costs ~10x less than through the threadpool), with
  // the event loop let in every few milliseconds.
  await breathe();
  const raw = readRegularFileSync(absPath, displayPath, maxFileSize, { ...options, scratch: READ_SCRATCH });
  if (!raw.ok) return raw;
  const { buf, mode, mtimeMs, stamp } = raw;
  const decoded = decodeText(buf, displayPath);
  if (!decoded.ok) return decoded;
  return { ok: true, text: decoded.text, encoding: decoded.encoding, bom: decoded.bom, mode, size: buf.length, mtimeMs, stamp };
}

/** O_NONBLOCK: opening a FIFO that was swapped in after the stat returns at once instead of waiting for a writer. */
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

/**
 * The bytes of a regular file of at most `maxFileSize` bytes, with its stamp. Anything else (a FIFO,
 * socket, device, directory) is refused by `stat` before it is opened, and again by `fstat` after a
 * non-blocking open, so a special file swapped in between is never read. `confined`: absPath is a
 * checked real path, and the opened file must still be there (no folder on it swapped for a link).
 */
export async function readRegularFile(
  absPath: string,
  displayPath: string,
  maxFileSize: number,
  options: { confined?: boolean } = {},
): Promise<Result<RegularFile>> {
  // stat by path first: it rejects directories and pipes before anything is opened.
  let st: Stats;
  try {
    st = await fsp.stat(absPath);
  } catch (err) {
    return statFailure(err, displayPath);
  }
  const refused = refusedByStat(st, displayPath, maxFileSize);
  if (refused) return refused;
  try {
    const handle = await fsp.open(absPath, OPEN_FLAGS);
    try {
      // `confined`: absPath is a checked real path; a folder on it swapped for a link since then must not
      // make this read another file (outside the workspace).
      if (options.confined && !openedAt(handle.fd, absPath)) return movedWhileWaiting(displayPath);
      // fstat the opened file: it may have been replaced since the stat above.
      const fst = await handle.stat({ bigint: true });
      return refusedOpened(fst, displayPath, maxFileSize) ?? regularFile(await readWhole(handle, Number(fst.size)), fst, displayPath, maxFileSize);
    } finally {
      await handle.close();
    }
  } catch (err) {
    return statFailure(err, displayPath);
  }
}

/** readRegularFile in synchronous calls (same checks, same order); for reads done one after another on the main thread. */
export function readRegularFileSync(
  absPath: string,
  displayPath: string,
  maxFileSize: number,
  /** `scratch`: the bytes are read into its buffer, and hold only until its next use (see readWholeSync). */
  options: { confined?: boolean; scratch?: SpareBuffer } = {},
): Result<RegularFile> {
  let st: Stats;
  try {
    st = statSync(absPath);
  } catch (err) {
    return statFailure(err, displayPath);
  }
  const refused = refusedByStat(st, displayPath, maxFileSize);
  if (refused) return refused;
  try {
    const fd = openSync(absPath, OPEN_FLAGS);
    try {
      if (options.confined && !openedAt(fd, absPath)) return movedWhileWaiting(displayPath);
      const fst = fstatSync(fd, { bigint: true });
      return refusedOpened(fst, displayPath, maxFileSize) ?? regularFile(readWholeSync(fd, Number(fst.size), options.scratch), fst, displayPath, maxFileSize);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return statFailure(err, displayPath);
  }
}

/** A regular file's bytes as read, with what a later write checks against. */
interface RegularFile {
  buf: Buffer;
  mode: number;
  mtimeMs: number;
  /** fileStamp of the opened file: a file that grew while it was read cannot match it (its size differs), so its write is refused. */
  stamp: string;
}

/** The stat by path: a directory, a special file or one over maxFileSize is refused before anything is opened. */
function refusedByStat(st: Stats, displayPath: string, maxFileSize: number): Failure | undefined {
  if (st.isDirectory()) return fail('io_error', `${displayPath} is a directory; pass the path of a file`, { path: displayPath });
  if (!st.isFile()) return notRegular(displayPath, st);
  if (st.size > maxFileSize) return tooLarge(displayPath, st.size, maxFileSize);
  return undefined;
}

/** The fstat of the opened file, which may have been replaced since the stat by path. */
function refusedOpened(fst: BigIntStats, displayPath: string, maxFileSize: number): Failure | undefined {
  if (!fst.isFile()) return notRegular(displayPath, fst);
  if (fst.size > BigInt(maxFileSize)) return tooLarge(displayPath, Number(fst.size), maxFileSize);
  return undefined;
}

function regularFile(buf: Buffer, fst: BigIntStats, displayPath: string, maxFileSize: number): Result<RegularFile> {
  // The file may have grown between fstat and the read.
  if (buf.length > maxFileSize) return tooLarge(displayPath, buf.length, maxFileSize);
  return { ok: true, buf, mode: Number(fst.mode) & 0o7777, mtimeMs: Number(fst.mtimeNs / 1000n) / 1000, stamp: fileStamp(fst) };
}

function movedWhileWaiting(displayPath: string): Failure {
  return fail('stale', `${displayPath} was moved or a folder on its path was replaced (e.g. by a symbolic link) while the command waited; nothing read, run the command again`, {
    path: displayPath,
  });
}

/**
 * readWhole in synchronous calls, on a descriptor: the file's bytes from its start to its end, expected
 * to be `size` bytes (more are read if it grew). With `scratch`, read into its buffer (memory already
 * touched, not fresh pages) and given back to it at once: the bytes returned hold only until the
 * scratch is taken again (a file that grew past `size` is read into fresh memory as without it).
 */
export function readWholeSync(fd: number, size: number, scratch?: SpareBuffer): Buffer {
  if (scratch !== undefined) {
    const buf = scratch.take(size + 1);
    const n = readFullySync(fd, buf, 0);
    scratch.keep(buf.buffer as ArrayBuffer);
    if (n <= size) return buf.subarray(0, n);
    // (concat copies what the scratch holds before anything takes it again)
    return Buffer.concat([buf, readChunks(fd, 64 * 1024, n)]);
  }
  return readChunks(fd, size, 0);
}

/** The bytes from `pos` to the end of the file, expected to be `size` of them. */
function readChunks(fd: number, size: number, pos: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunk = Buffer.allocUnsafe(Math.max(size, 1));
  for (;;) {
    const n = readFullySync(fd, chunk, pos + total);
    if (n > 0) chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (n < chunk.length) break;
    chunk = Buffer.allocUnsafe(chunks.length === 1 ? 1 : 64 * 1024);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** Fills `buf` with the file's bytes from `pos` (positional reads); fewer only at the end of the file: the count read. */
export function readFullySync(fd: number, buf: Buffer, pos: number): number {
  let n = 0;
  while (n < buf.length) {
    const bytesRead = readSync(fd, buf, n, buf.length - n, pos + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return n;
}

/** Identity and last change of a file (device, inode, size, mtime and ctime in ns): equal stamps, same file untouched (to the clock's tick). */
export function fileStamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function notRegular(displayPath: string, st: Stats | BigIntStats) {
  const what = st.isFIFO()
    ? 'a named pipe (FIFO)'
    : st.isSocket()
      ? 'a socket'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'a device'
        : st.isDirectory()
          ? 'a directory'
          : 'not a regular file';
  return fail('io_error', `${displayPath} is ${what}, not a regular file; editls only reads and edits regular files`, {
    path: displayPath,
    special: true,
  });
}

/**
 * The whole file, with positional reads: one read of the size fstat gave (FileHandle.readFile reads
 * in 512 KiB chunks, a round trip to the thread pool each), then on to the end in case it grew.
 */
export async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunk = Buffer.allocUnsafe(Math.max(size, 1));
  for (;;) {
    let n = 0;
    while (n < chunk.length) {
      const { bytesRead } = await handle.read(chunk, n, chunk.length - n, total + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > 0) chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (n < chunk.length) break;
    // Full: the file may have grown since fstat (the next read is a one-byte probe in the common case).
    chunk = Buffer.allocUnsafe(chunks.length === 1 ? 1 : 64 * 1024);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total); // [] -> an empty buffer
}

/**
 * encodeText of a text given in pieces (an EditedText's: none splits a surrogate pair), written one
 * by one into one buffer, so that the text is never joined: a large file's new text is not built.
 */
/** The bytes of `text` with `edits` applied (its new text `newText`), encoded piece by piece: the new text of a large file is never built (core/text/editedText.ts). */
export function encodeEdited(text: string, edits: readonly SpanEdit[], newText: string, encoding: FileEncoding, bom: boolean): Buffer {
  return encodePieces(piecesOf(throughEdits(text, edits, newText)), encoding, bom);
}

export function encodePieces(pieces: readonly string[], encoding: FileEncoding, bom: boolean): Buffer {
  if (pieces.length === 1) return encodeText(pieces[0]!, encoding, bom);
  const prefix = !bom ? 0 : encoding === 'utf-8' ? UTF8_BOM.length : 2;
  const lengths = pieces.map((p) => (encoding === 'utf-8' ? Buffer.byteLength(p, 'utf8') : 2 * p.length));
  const out = Buffer.allocUnsafe(prefix + lengths.reduce((a, b) => a + b, 0));
  if (bom) (encoding === 'utf-8' ? UTF8_BOM : encoding === 'utf-16le' ? UTF16LE_BOM : UTF16BE_BOM).copy(out, 0);
  let at = prefix;
  pieces.forEach((p, i) => {
    out.write(p, at, encoding === 'utf-8' ? 'utf8' : 'utf16le');
    if (encoding === 'utf-16be') out.subarray(at, at + lengths[i]!).swap16();
    at += lengths[i]!;
  });
  return out;
}

/** Encodes text (BOM-less) back to bytes; encodeText(decodeText(b)) reproduces b exactly. */
export function encodeText(text: string, encoding: FileEncoding, bom: boolean): Buffer {
  switch (encoding) {
    case 'utf-8':
      return bom ? Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]) : Buffer.from(text, 'utf8');
    case 'utf-16le': {
      const body = Buffer.from(text, 'utf16le');
      return bom ? Buffer.concat([UTF16LE_BOM, body]) : body;
    }
    case 'utf-16be': {
      const body = Buffer.from(text, 'utf16le').swap16(); // Node has no UTF-16BE codec: swap each pair
      return bom ? Buffer.concat([UTF16BE_BOM, body]) : body;
    }
  }
}

/**
 * Detects the encoding from the BOM (none means UTF-8) and decodes strictly. NUL bytes in UTF-8
 * (or U+0000 in UTF-16) mean binary_file; undecodable bytes mean unsupported_encoding.
 */
export function decodeText(buf: Buffer, displayPath: string): Result<{ text: string; encoding: FileEncoding; bom: boolean }> {
  if (startsWith(buf, UTF32LE_BOM) || startsWith(buf, UTF32BE_BOM)) {
    return fail('unsupported_encoding', `${displayPath} is UTF-32; editls reads UTF-8 or BOM-marked UTF-16, convert the file first`, {
      path: displayPath,
    });
  }
  if (startsWith(buf, UTF16LE_BOM) || startsWith(buf, UTF16BE_BOM)) {
    const encoding: FileEncoding = buf[0] === 0xff ? 'utf-16le' : 'utf-16be';
    const body = buf.subarray(2);
    if (body.length % 2 !== 0) {
      return fail('unsupported_encoding', `${displayPath} has a ${encoding.toUpperCase()} BOM but an odd number of bytes; the file is damaged or not UTF-16`, {
        path: displayPath,
        encoding,
      });
    }
    let text: string;
    try {
      utf16leDecoder ??= new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
      text = utf16leDecoder.decode(encoding === 'utf-16le' ? body : Buffer.from(body).swap16());
    } catch {
      return fail('unsupported_encoding', `${displayPath} has a ${encoding.toUpperCase()} BOM but is not valid ${encoding.toUpperCase()} (unpaired surrogate); fix or convert the file first`, {
        path: displayPath,
        encoding,
      });
    }
    if (text.includes('\0')) return binary(displayPath);
    return { ok: true, text, encoding, bom: true };
  }

  const bom = startsWith(buf, UTF8_BOM);
  const body = bom ? buf.subarray(UTF8_BOM.length) : buf;
  if (body.includes(0)) return binary(displayPath);
  // isUtf8 is as strict as a fatal TextDecoder (overlongs, surrogates, cut sequences), and with it
  // toString decodes ~5x faster.
  if (isUtf8(body)) return { ok: true, text: body.toString('utf8'), encoding: 'utf-8', bom };
  {
    const offset = firstInvalidUtf8Byte(body);
    const line = countNewlines(body, offset) + 1;
    return fail(
      'unsupported_encoding',
      `${displayPath} is not valid UTF-8 (line ${line}, byte ${offset + (bom ? UTF8_BOM.length : 0)}; perhaps Latin-1 or Windows-1252); editls reads UTF-8 or BOM-marked UTF-16, convert the file first`,
      { path: displayPath, line, byteOffset: offset + (bom ? UTF8_BOM.length : 0) },
    );
  }
}

/**
 * Offset in `body` (known to be invalid UTF-8) of the sequence that breaks it. Binary search over
 * prefixes decoded in streaming mode, where a prefix ending mid-character is still valid.
 */
function firstInvalidUtf8Byte(body: Buffer): number {
  const validPrefix = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  if (validPrefix(body.length)) {
    // Only the end is wrong: a character cut short. Point at its lead byte.
    let i = body.length - 1;
    while (i > 0 && ((body[i] ?? 0) & 0xc0) === 0x80) i--;
    return i;
  }
  let lo = 0; // prefix of lo bytes is valid
  let hi = body.length; // prefix of hi bytes is not
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (validPrefix(mid)) lo = mid;
    else hi = mid;
  }
  // Byte hi-1 is where decoding failed. A byte that could start a character there means the
  // sequence before it was cut short: point at that sequence's lead byte (at most 3 bytes back).
  const last = hi - 1;
  const b = body[last] ?? 0;
  const from = b < 0x80 || (b >= 0xc2 && b <= 0xf4) ? last - 1 : last;
  for (let j = from; j >= 0 && j >= last - 3; j--) {
    const c = body[j] ?? 0;
    if (c >= 0xc0) return j;
    if (c < 0x80) break;
  }
  return last;
}

function countNewlines(buf: Buffer, end: number): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1 && i < end; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

function startsWith(buf: Buffer, prefix: Buffer): boolean {
  return buf.length >= prefix.length && buf.subarray(0, prefix.length).equals(prefix);
}

function binary(displayPath: string) {
  return fail('binary_file', `${displayPath} looks binary (it contains NUL bytes); editls only edits text files`, { path: displayPath });
}

function tooLarge(displayPath: string, size: number, maxFileSize: number) {
  return fail(
    'too_large',
    `${displayPath} is ${formatBytes(size)} (${size} bytes), over the maxFileSize limit of ${formatBytes(maxFileSize)} (${maxFileSize} bytes); raise maxFileSize in the editls settings or edit the file another way`,
    { path: displayPath, size, maxFileSize },
  );
}

function statFailure(err: unknown, displayPath: string) {
  const code = errnoCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return fail('file_not_found', `${displayPath} does not exist; to create it, call editls.edit with an empty old_string`, {
      path: displayPath,
    });
  }
  if (code === 'EISDIR') return fail('io_error', `${displayPath} is a directory; pass the path of a file`, { path: displayPath, code });
  return fail('io_error', `cannot read ${displayPath}: ${describeError(err)}`, { path: displayPath, code });
}

/** "EACCES: permission denied" from a Node fs error, without the absolute path Node appends. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const comma = err.message.indexOf(', ');
  return comma > 0 ? err.message.slice(0, comma) : err.message;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
