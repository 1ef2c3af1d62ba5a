// Owns keeping a unified diff within a character budget: whole lines where possible, never half a
// surrogate pair, a closing line that says what was left out — and, for edits spread over a big
// file, building only the head of the diff instead of all of it.

import { EditedText } from '../text/editedText.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { unifiedDiff } from './unifiedDiff.js';

/** Lines kept past the last edit: more than unifiedDiff's 3 lines of context, so the head's last hunk is complete. */
const TAIL_LINES = 8;

export interface CutDiff {
  text: string;
  truncated: boolean;
}

/** `diff` if it fits in `maxChars` (0 = unlimited), else its head (at most maxChars) plus a notice line. */
export function cutDiff(diff: string, maxChars: number): CutDiff {
  if (maxChars <= 0 || diff.length <= maxChars) return { text: diff, truncated: false };
  return truncated(diff, maxChars, (cut) => `showing ${cut} of ${diff.length} characters`);
}

/**
 * unifiedDiff(path, before, after, edits) kept within `maxChars` (0 = unlimited), in time that depends
 * on the budget rather than on the file when the edits are many: the diff is built for a growing head
 * of the file until what it shows lies well inside that head. What is shown equals the head of the
 * full diff, except that the header of the last, cut hunk counts only the lines of the head (a cut
 * diff is for reading, not for applying). `edits` must be sorted and non-overlapping, as core makes them.
 */
export function boundedDiff(path: string, before: string, after: string | EditedText, edits: readonly SpanEdit[], maxChars: number): CutDiff {
  if (maxChars <= 0 || before.length + after.length <= maxChars) return cutDiff(unifiedDiff(path, before, after, edits), maxChars);
  let span = Math.max(4 * maxChars, 4096);
  for (;;) {
    // A head of `before` ending at a line start, with the edits that lie inside it.
    let cut = lineStartAfter(before, span);
    let n = 0;
    while (n < edits.length) {
      const e = edits[n] as SpanEdit;
      if (e.start >= cut) break;
      if (e.end > cut) cut = lineStartAfter(before, e.end);
      n++;
    }
    if (n === edits.length && n > 0) {
      // Every edit is in the head: a few more lines hold the last one's trailing context, and then the head's diff is the diff.
      for (let k = 0; k < TAIL_LINES && cut < before.length; k++) cut = lineStartAfter(before, cut + 1);
      if (cut < before.length) return cutDiff(unifiedDiff(path, before.slice(0, cut), headAfter(before, cut, edits, n), edits), maxChars);
    }
    if (cut >= before.length) return cutDiff(unifiedDiff(path, before, after, edits), maxChars);
    // Only its first maxChars characters can be shown: building stops soon after them.
    const head = unifiedDiff(path, before.slice(0, cut), headAfter(before, cut, edits, n), edits.slice(0, n), 3, maxChars);
    if (head.length > maxChars) {
      // Safe when the shown lines end well before the head's end, where the full diff may differ (context, merged blocks).
      const shown = headLength(head, maxChars);
      if (lastOldLine(head, shown) + TAIL_LINES < lineCount(before, cut)) {
        return truncated(head, maxChars, (c) => `showing the first ${c} characters of the diff of ${edits.length} changes`);
      }
    }
    span *= 4;
  }
}

/**
 * The new text of before[0, cut), which holds the first `n` edits: read through those edits, so
 * that a head of a large file's new text is never built (nor the whole new text made flat).
 */
function headAfter(before: string, cut: number, edits: readonly SpanEdit[], n: number): EditedText {
  return new EditedText(before.slice(0, cut), edits.slice(0, n));
}

/** The highest 1-based line of the old text shown (as a context or '-' line) in diff[0, end). */
function lastOldLine(diff: string, end: number): number {
  let line = 0;
  let last = 0;
  let i = 0;
  while (i < end) {
    let j = diff.indexOf('\n', i);
    if (j === -1 || j > end) j = end;
    const c = diff.charCodeAt(i);
    if (c === 64 /* @ */ && diff.startsWith('@@ -', i)) {
      line = Number.parseInt(diff.slice(i + 4, i + 20), 10);
      if (diff.startsWith(',0 ', i + 4 + String(line).length)) line++;
    } else if (line > 0 && (c === 32 /* space */ || c === 45 /* - */)) {
      last = line++;
    }
    i = j + 1;
  }
  return last;
}

/** Lines in s[0, end) where end is a line start (only \n ends a line, as in unifiedDiff). */
function lineCount(s: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function truncated(diff: string, maxChars: number, what: (cut: number) => string): CutDiff {
  const cut = headLength(diff, maxChars);
  const head = diff.slice(0, cut);
  return {
    text: `${head}${head.endsWith('\n') || head === '' ? '' : '\n'}[diff truncated: ${what(cut)}; raise maxDiffChars (0 = unlimited) to see all]\n`,
    truncated: true,
  };
}

/**
 * Length of the head to keep: whole lines within maxChars; but when the first line left out is
 * longer than the whole budget (a huge single-line file), the head runs into it up to maxChars on a
 * character boundary, so that the change it holds is not dropped entirely.
 */
function headLength(diff: string, maxChars: number): number {
  const cut = diff.lastIndexOf('\n', maxChars - 1) + 1;
  const nextBreak = diff.indexOf('\n', cut);
  const nextLength = (nextBreak === -1 ? diff.length : nextBreak + 1) - cut;
  if (cut > 0 && nextLength <= maxChars) return cut;
  const c = diff.charCodeAt(maxChars - 1);
  return c >= 0xd800 && c <= 0xdbff ? maxChars - 1 : maxChars;
}

/** The first line start (just after a \n) at or after `p` (the text length if none). */
function lineStartAfter(s: string, p: number): number {
  if (p <= 0) return 0;
  if (p >= s.length) return s.length;
  if (s.charCodeAt(p - 1) === 10) return p;
  const nl = s.indexOf('\n', p);
  return nl === -1 ? s.length : nl + 1;
}
