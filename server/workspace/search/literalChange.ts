// replaceInFiles' closed files under a case-sensitive literal search (SearchPort.matchLiteral): one
// file read as FilesPort.snapshot reads a closed file (confined, regular files only) and matched as
// the command matches (core's settleReplace), in one synchronous call. A changed file's change never
// has its texts (PlannedChange.released, with the bytes of its temp file), and a UTF-8 file without a
// carriage return is worked out on its bytes, never decoded (`bytesChange`: the same answer, exactly,
// as through the text, which the other files take).
import { isAscii, isUtf8 } from 'node:buffer';
import type { Failure } from '../../core/result.js';
import { preserveCase } from '../../core/edits/preserveCase.js';
import { settleReplace } from '../../core/edits/replaceInFiles.js';
import { MAX_RESULT_CHARS_CAP } from '../../core/edits/resultSize.js';
import { DEFAULT_MAX_MATCHES, prepareSearchAndReplace, scanLiteral } from '../../core/edits/searchAndReplace.js';
import type { PositionEncoding } from '../../core/text/positions.js';
import type { SpanEdit } from '../../core/text/spanEdit.js';
import type { TextEdit } from 'vscode-languageserver';
import type { ReleasedText } from '../../commands/ports/apply.js';
import type { DiskText, ResolvedPath, Snapshot } from '../../commands/ports/files.js';
import type { FileOutcome } from '../../commands/ports/search.js';
import { releasedChange, releasedOf } from '../editor/releasedText.js';
import { decodeText, encodeEdited, READ_SCRATCH, readRegularFileSync } from '../disk/fileCodec.js';
import { bytesDigest } from '../editor/undoJournal.js';

export interface LiteralJob {
  absPath: string;
  relPath: string;
  search: string;
  replace: string;
  preserveCase: boolean;
  maxFileSize: number;
  /** For the change's TextEdits (built when it has at most maxResultEdits). */
  encoding: PositionEncoding;
  maxResultEdits: number;
}

/** What DiskText holds besides the text. */
export type DiskMeta = Omit<DiskText, 'text'>;

export type LiteralReply =
  /** No such file (any more): a missing file, left as it is. */
  | { kind: 'missing' }
  /** Not readable as text (too large, special, not UTF-8 or UTF-16, moved): skipped, named with the reason. */
  | { kind: 'unreadable'; failure: Failure }
  | { kind: 'unchanged'; disk: DiskMeta }
  | { kind: 'too_large'; disk: DiskMeta; reason: string }
  | { kind: 'failed'; disk: DiskMeta; failure: Failure }
  | {
      kind: 'changed';
      disk: DiskMeta;
      replacements: number;
      edits: SpanEdit[];
      /** What the change keeps of its texts, and `bytes`, the new file's bytes (BOM included). */
      released: Omit<ReleasedText, 'toWrite'> & { bytes: Buffer };
    };

/**
 * Reads `job.absPath` and works out its change (never throws for a file's own problems). `asText`:
 * always through the decoded text (the byte path, asciiChange, is an exact shortcut of it).
 */
export function literalChange(job: LiteralJob, asText = false): LiteralReply {
  // (Read into the scratch: no reply keeps the bytes read; the new bytes, the text and the edits are copies.)
  const raw = readRegularFileSync(job.absPath, job.relPath, job.maxFileSize, { confined: true, scratch: READ_SCRATCH });
  if (!raw.ok) return raw.kind === 'file_not_found' ? { kind: 'missing' } : { kind: 'unreadable', failure: raw };
  const shortcut = asText ? undefined : bytesChange(job, raw);
  if (shortcut) return shortcut;
  const decoded = decodeText(raw.buf, job.relPath);
  if (!decoded.ok) return { kind: 'unreadable', failure: decoded };
  const { text, encoding, bom } = decoded;
  const disk: DiskMeta = { encoding, bom, mode: raw.mode, size: raw.buf.length, mtimeMs: raw.mtimeMs, stamp: raw.stamp };
  const prepared = prepareSearchAndReplace(text, { search: job.search, replace: job.replace, useRegex: false, ignoreCase: false, maxOutput: job.maxFileSize }, job.relPath);
  if (!prepared.ok) return { kind: 'failed', disk, failure: prepared };
  const done = settleReplace(prepared.prepared, scanLiteral(prepared.prepared.job), job.preserveCase, job.maxFileSize);
  if (done.kind === 'unchanged') return { kind: 'unchanged', disk };
  if (done.kind === 'too_large') return { kind: 'too_large', disk, reason: done.reason };
  if (done.kind === 'failed') return { kind: 'failed', disk, failure: done.failure };
  // What diskWrite would write (applyEdits.ts); what releaseTexts would keep.
  const bytes = encodeEdited(text, done.edits, done.newText, encoding, bom);
  return {
    kind: 'changed',
    disk,
    replacements: done.replacements,
    edits: done.edits,
    released: { ...releasedOf(text, done.edits, done.newText.length, bytesDigest(bytes), job.encoding, job.maxResultEdits), bytes },
  };
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What the byte path leaves to the text path in a search or replacement: a line break (the file's endings), a surrogate (pairs cut by a trim). */
const AWKWARD = /[\r\n\uD800-\uDFFF]/;
const CR = 0x0d;
const LF = 0x0a;

/**
 * The change of a UTF-8 file without a carriage return (with or without BOM) worked out on its bytes:
 * the same reply as through the decoded text (NormalizedText.spanEditsOf: matches that touch make one
 * edit, each edit trimmed of what the match and its replacement share at either end), without making
 * the text: offsets in UTF-16 units, lines and columns are counted in one pass over the bytes
 * (`locate`). Undefined where it would not be the same by construction or a limit is near (the text
 * path decides): another encoding, bytes that are not UTF-8, a NUL or CR byte, a line break or
 * surrogate in the search or replacement, a result over the limits.
 */
export function bytesChange(job: LiteralJob, raw: { buf: Buffer; mode: number; mtimeMs: number; stamp: string }): LiteralReply | undefined {
  const { search } = job;
  if (search === '' || AWKWARD.test(search) || AWKWARD.test(job.replace)) return undefined;
  const buf = raw.buf;
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const body = bom ? buf.subarray(UTF8_BOM.length) : buf;
  if (body.includes(0) || body.includes(CR)) return undefined;
  const ascii = isAscii(body);
  if (!ascii && !isUtf8(body)) return undefined;
  const disk: DiskMeta = { encoding: 'utf-8', bom, mode: raw.mode, size: buf.length, mtimeMs: raw.mtimeMs, stamp: raw.stamp };
  const needle = Buffer.from(search, 'utf8');
  // Non-overlapping, left to right: scanLiteral's indexOf on the text, here on the bytes (UTF-8 is
  // self-synchronising: a match of whole characters starts and ends on character boundaries).
  let found = new Int32Array(256);
  let count = 0;
  for (let i = body.indexOf(needle); i !== -1; i = body.indexOf(needle, i + needle.length)) {
    if (count === DEFAULT_MAX_MATCHES) return undefined;
    if (count === found.length) {
      const grown = new Int32Array(2 * found.length);
      grown.set(found);
      found = grown;
    }
    found[count++] = i;
  }
  if (count === 0) return { kind: 'unchanged', disk };
  // Every match is the search itself: its case shape, and so its replacement, is the same everywhere.
  const replacement = job.preserveCase ? preserveCase(search, job.replace) : job.replace;
  if (replacement === search) return { kind: 'unchanged', disk };

  // The groups of touching matches: [byte start, byte end) and how many matches each holds.
  const groupAt: number[] = [];
  const groupEnd: number[] = [];
  const runs: number[] = [];
  for (let k = 0; k < count; ) {
    let run = 1;
    while (k + run < count && found[k + run] === found[k]! + run * needle.length) run++;
    groupAt.push(found[k]!);
    groupEnd.push(found[k]! + run * needle.length);
    runs.push(run);
    k += run;
  }
  const n = runs.length;
  const withLines = n <= job.maxResultEdits;
  // (The end of the body too, for its length in UTF-16 units; an ASCII body's is its byte length.)
  const bounds: number[] = new Array(ascii ? 2 * n : 2 * n + 1);
  for (let g = 0; g < n; g++) {
    bounds[2 * g] = groupAt[g]!;
    bounds[2 * g + 1] = groupEnd[g]!;
  }
  if (!ascii) bounds[2 * n] = body.length;
  const where = locate(body, bounds, ascii, withLines, job.encoding);
  const oldLength = ascii ? body.length : where.units[2 * n]!;
  const grow = replacement.length - search.length;
  const newLength = oldLength + count * grow;
  if (newLength > Math.min(job.maxFileSize, MAX_RESULT_CHARS_CAP)) return undefined;

  // The new bytes: the body with every match replaced.
  const replaced = Buffer.from(replacement, 'utf8');
  const bytes = Buffer.allocUnsafe(buf.length + count * (replaced.length - needle.length));
  let out = bom ? buf.copy(bytes, 0, 0, UTF8_BOM.length) : 0;
  let from = 0;
  for (let k = 0; k < count; k++) {
    out += body.copy(bytes, out, from, found[k]!);
    out += replaced.copy(bytes, out);
    from = found[k]! + needle.length;
  }
  body.copy(bytes, out, from);

  // The edits (the search k times becomes the replacement k times, trimmed), their inverse, their TextEdits.
  const edits: SpanEdit[] = new Array(n);
  const inverse: SpanEdit[] = new Array(n);
  const textEdits: TextEdit[] | undefined = withLines ? new Array(n) : undefined;
  let shift = 0;
  for (let g = 0; g < n; g++) {
    const run = runs[g]!;
    const old = run === 1 ? search : search.repeat(run);
    const now = run === 1 ? replacement : replacement.repeat(run);
    const [p, q] = sharedEnds(old, now);
    const start = where.units[2 * g]! + p;
    const end = where.units[2 * g + 1]! - q;
    const newText = p === 0 && q === 0 ? now : now.slice(p, now.length - q);
    edits[g] = { start, end, newText };
    inverse[g] = { start: start + shift, end: start + shift + newText.length, newText: old.slice(p, old.length - q) };
    shift += newText.length - (end - start);
    if (textEdits) {
      // The search holds no line break: a trimmed edit stays on its match's line.
      textEdits[g] = {
        range: {
          start: { line: where.lines![2 * g]!, character: where.columns![2 * g]! + columnsOf(old.slice(0, p), job.encoding) },
          end: { line: where.lines![2 * g + 1]!, character: where.columns![2 * g + 1]! - columnsOf(old.slice(old.length - q), job.encoding) },
        },
        newText,
      };
    }
  }
  return {
    kind: 'changed',
    disk,
    replacements: count,
    edits,
    released: { oldLength, newLength, inverse, ...(textEdits ? { textEdits } : {}), writtenDigest: bytesDigest(bytes), bytes },
  };
}

/**
 * For ascending byte offsets `at` into valid UTF-8 without a CR: each one's UTF-16 offset, and with
 * `lines` its line and column in `encoding` (as positionsAt counts them), in one pass over the bytes
 * up to the last offset. An ASCII body's UTF-16 offsets are its byte offsets.
 */
function locate(body: Uint8Array, at: readonly number[], ascii: boolean, lines: boolean, encoding: PositionEncoding): { units: Int32Array; lines?: Int32Array; columns?: Int32Array } {
  const units = Int32Array.from(at);
  if (ascii && !lines) return { units };
  const lineOf = new Int32Array(at.length);
  const columns = new Int32Array(at.length);
  let i = 0;
  let u = 0; // UTF-16 units before byte i
  let cp = 0; // code points before byte i
  let line = 0;
  let lineByte = 0;
  let lineUnits = 0;
  let lineCps = 0;
  for (let k = 0; k < at.length; k++) {
    const target = at[k]!;
    if (ascii) {
      // Line breaks found natively (memchr: ~3x a loop over the bytes here).
      for (let nl = body.indexOf(LF, i); nl !== -1 && nl < target; nl = body.indexOf(LF, nl + 1)) {
        line++;
        lineByte = nl + 1;
      }
      i = target;
      lineOf[k] = line;
      columns[k] = target - lineByte;
      continue;
    }
    for (; i < target; i++) {
      const b = body[i]!;
      if ((b & 0xc0) !== 0x80) {
        u += b >= 0xf0 ? 2 : 1;
        cp++;
      }
      if (b === LF) {
        line++;
        lineByte = i + 1;
        lineUnits = u;
        lineCps = cp;
      }
    }
    units[k] = u;
    lineOf[k] = line;
    columns[k] = encoding === 'utf-8' ? target - lineByte : encoding === 'utf-32' ? cp - lineCps : u - lineUnits;
  }
  return lines ? { units, lines: lineOf, columns } : { units };
}

/** The columns `s` (no line break) takes in `encoding`. */
function columnsOf(s: string, encoding: PositionEncoding): number {
  if (s === '' || encoding === 'utf-16') return s.length;
  return encoding === 'utf-8' ? Buffer.byteLength(s, 'utf8') : [...s].length;
}

/** How many characters `old` and `now` share at the start, and then at the end (spanEditsOf's trim; neither holds a surrogate, so no pair is split). */
function sharedEnds(old: string, now: string): [number, number] {
  const max = Math.min(old.length, now.length);
  let p = 0;
  while (p < max && old.charCodeAt(p) === now.charCodeAt(p)) p++;
  let q = 0;
  while (q < max - p && old.charCodeAt(old.length - 1 - q) === now.charCodeAt(now.length - 1 - q)) q++;
  return [p, q];
}

/** The command's outcome for `target` from a reply (see SearchPort.matchLiteral). */
export function literalOutcome(target: ResolvedPath, reply: LiteralReply): FileOutcome {
  if (reply.kind === 'missing') return { kind: 'unchanged', snapshot: { resolved: target, source: 'missing', text: '', version: null, uri: target.uri } };
  if (reply.kind === 'unreadable') return { kind: 'skipped', reason: `${reply.failure.kind}: ${reply.failure.message}` };
  // (A file left as it is keeps no text: ReadAhead's withoutUnusedText.)
  const snapshot: Snapshot = { resolved: target, source: 'disk', text: '', version: null, uri: target.uri, disk: { ...reply.disk, text: '' } };
  if (reply.kind === 'unchanged') return { kind: 'unchanged', snapshot };
  if (reply.kind === 'too_large') return { kind: 'skipped', snapshot, reason: reply.reason };
  if (reply.kind === 'failed') return { kind: 'failed', snapshot, failure: reply.failure };
  const { bytes, ...released } = reply.released;
  const change = releasedChange(snapshot, reply.edits, reply.replacements, { ...released, toWrite: bytes });
  return { kind: 'changed', snapshot: change.snapshot, change };
}
