// Owns the no-input whitespace edits behind editls's code actions: removing trailing whitespace
// (whole text or a 1-based line range) and normalising mixed line endings to the dominant one.
// Both return minimal span edits against the original text, like every other edit in core.

import { fail, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import type { LineEnding } from '../text/normalizedText.js';
import { MAX_RESULT_CHARS_CAP, resultTooLong } from './resultSize.js';

export interface LineEditComputed {
  newText: string;
  edits: SpanEdit[];
  /** Lines trimmed, or line breaks rewritten. */
  replacements: number;
}

/** 1-based, inclusive; `end` past the last line is clamped. */
export interface LineRange {
  start: number;
  end: number;
}

const CR = 13;
const LF = 10;

/**
 * Trailing whitespace is spaces and tabs only: a form feed at a line's end is a page break (Emacs,
 * the GNU sources), and other Unicode spaces (NBSP, ideographic space) are content.
 */
function isTrailingSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Content ends of the lines of `text` (the offset before each line's break, or the text end).
 * Breaks are \n, \r\n and a lone \r. A final line break does not start another line, so
 * "a\nb\n" has two lines and "" has none.
 */
function lineContentEnds(text: string): number[] {
  const ends: number[] = [];
  let i = 0;
  const n = text.length;
  let lineStart = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) {
      ends.push(i);
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      lineStart = i;
    } else {
      i++;
    }
  }
  if (lineStart < n) ends.push(n);
  return ends;
}

/** Number of lines as editls's line ranges count them (a final line break opens no new line). */
export function lineCount(text: string): number {
  return lineContentEnds(text).length;
}

function checkRange(range: LineRange | undefined, lines: number, file: string): Result<{ first: number; last: number }> {
  if (range === undefined) return { ok: true, first: 0, last: lines - 1 };
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || range.start < 1 || range.start > range.end) {
    return fail('invalid_range', `lines ${range.start}-${range.end} are not a valid range in ${file}; give 1 <= start_line <= end_line`, {
      startLine: range.start,
      endLine: range.end,
      lineCount: lines,
    });
  }
  if (range.start > lines) {
    return fail('invalid_range', `start_line ${range.start} is past the end of ${file} (${lines} line${lines === 1 ? '' : 's'})`, {
      startLine: range.start,
      lineCount: lines,
    });
  }
  return { ok: true, first: range.start - 1, last: Math.min(range.end, lines) - 1 };
}

/** The trailing-whitespace spans of the lines in range, in text order. */
function trailingSpans(text: string, ends: readonly number[], first: number, last: number): SpanEdit[] {
  const edits: SpanEdit[] = [];
  for (let line = first; line <= last; line++) {
    const end = ends[line] as number;
    let start = end;
    while (start > 0 && isTrailingSpace(text.charCodeAt(start - 1))) start--;
    // A whitespace-only line between a lone \r and a \n is kept: emptying it would fuse the two
    // breaks into one CRLF and merge lines.
    const fuses = start > 0 && text.charCodeAt(start - 1) === CR && text.charCodeAt(end) === LF;
    if (start < end && !fuses) edits.push({ start, end, newText: '' });
  }
  return edits;
}

/** How many lines (in `range`, default all) end in whitespace; cheap enough for every code action request. */
export function countTrailingWhitespace(text: string, range?: LineRange): number {
  const ends = lineContentEnds(text);
  const checked = checkRange(range, ends.length, '');
  if (!checked.ok) return 0;
  return trailingSpans(text, ends, checked.first, checked.last).length;
}

/** Removes spaces and tabs at the end of each line in `range` (default: all lines). */
export function trimTrailingWhitespace(text: string, file: string, range?: LineRange): Result<LineEditComputed> {
  const ends = lineContentEnds(text);
  const checked = checkRange(range, ends.length, file);
  if (!checked.ok) return checked;
  const edits = trailingSpans(text, ends, checked.first, checked.last);
  if (edits.length === 0) {
    const where = range === undefined ? file : `lines ${checked.first + 1}-${checked.last + 1} of ${file}`;
    return fail('no_change', `no trailing whitespace in ${where}; nothing to change`);
  }
  return { ok: true, newText: applySorted(text, edits), edits, replacements: edits.length };
}

export interface LineEndingStats {
  lf: number;
  crlf: number;
  cr: number;
  /** The ending new lines get (most frequent; ties prefer \n, then \r\n). */
  dominant: LineEnding;
  mixed: boolean;
}

export function lineEndingStats(text: string): LineEndingStats {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === LF) crlf++;
    else cr++;
  }
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
  lf -= crlf;
  // Same rule as NormalizedText (which new text follows), without building the normalised text.
  let dominant: LineEnding = '\n';
  if (crlf > lf && crlf >= cr) dominant = '\r\n';
  else if (cr > lf && cr > crlf) dominant = '\r';
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  return { lf, crlf, cr, dominant, mixed: kinds > 1 };
}

export function endingName(eol: LineEnding): string {
  return eol === '\n' ? 'LF' : eol === '\r\n' ? 'CRLF' : 'CR';
}

/** Rewrites every line break that differs from the file's dominant ending; only mixed texts change. */
export function normalizeLineEndings(text: string, file: string, maxResultChars: number = MAX_RESULT_CHARS_CAP): Result<LineEditComputed & { eol: LineEnding }> {
  const stats = lineEndingStats(text);
  if (!stats.mixed) {
    const only = stats.lf + stats.crlf + stats.cr === 0 ? 'no line breaks' : `only ${endingName(stats.dominant)} line endings`;
    return fail('no_change', `${file} has ${only}; nothing to normalise`);
  }
  const eol = stats.dominant;
  // Only CRLF grows the text (one character per LF or CR rewritten); the length is known before any edit.
  const tooLong = resultTooLong(file, text.length + (eol === '\r\n' ? stats.lf + stats.cr : -stats.crlf), maxResultChars, 'normalising the line endings');
  if (tooLong) return tooLong;
  const edits: SpanEdit[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== LF && c !== CR) continue;
    const isCrlf = c === CR && text.charCodeAt(i + 1) === LF;
    const current: LineEnding = isCrlf ? '\r\n' : c === CR ? '\r' : '\n';
    if (current !== eol) edits.push(minimalEndingEdit(i, current, eol));
    if (isCrlf) i++;
  }
  return { ok: true, newText: applySorted(text, edits), edits, replacements: edits.length, eol };
}

/** The smallest edit turning the break `from` at offset `at` into `to` (e.g. LF -> CRLF inserts one \r). */
function minimalEndingEdit(at: number, from: LineEnding, to: LineEnding): SpanEdit {
  if (from === '\n' && to === '\r\n') return { start: at, end: at, newText: '\r' };
  if (from === '\r' && to === '\r\n') return { start: at + 1, end: at + 1, newText: '\n' };
  if (from === '\r\n' && to === '\n') return { start: at, end: at + 1, newText: '' };
  if (from === '\r\n' && to === '\r') return { start: at + 1, end: at + 2, newText: '' };
  return { start: at, end: at + from.length, newText: to };
}

function applySorted(text: string, edits: readonly SpanEdit[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const e of edits) {
    parts.push(text.slice(cursor, e.start), e.newText);
    cursor = e.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}
