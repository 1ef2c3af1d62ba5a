// Owns the git-style unified diff of one file, built from the span edits themselves (the changed
// line blocks) in time linear in the file size. Lines are shown exactly as they are in the text (a
// CRLF line keeps its \r, a BOM stays on line 1) and only \n ends a line, as for git apply and patch,
// so every diff applies to the text it was computed on.

import type { EditedText } from '../text/editedText.js';
import type { SpanEdit } from '../text/spanEdit.js';

/** What the diff reads of a text: a string, or an EditedText (the new text of a large edit, never built). */
interface TextReader {
  readonly length: number;
  charCodeAt(i: number): number;
  indexOf(s: string, from?: number): number;
  slice(start?: number, end?: number): string;
}

const LF = 10;
const NO_NEWLINE = '\\ No newline at end of file';

/** A changed block: [start, end) in `before` and [afterStart, afterEnd) in `after`, both on line boundaries. */
interface Block {
  start: number;
  end: number;
  afterStart: number;
  afterEnd: number;
  /** 0-based first line of the block in before / after; line counts of the block in before / after. */
  line: number;
  afterLine: number;
  lines: number;
  afterLines: number;
}

/** Is `p` the start of a line in `s` (0, or just after a \n)? */
function isLineStart(s: TextReader, p: number): boolean {
  return p <= 0 || s.charCodeAt(p - 1) === LF;
}

function isLineBoundary(s: TextReader, p: number): boolean {
  return p >= s.length || isLineStart(s, p);
}

/** The largest line start of `s` that is <= p. */
function lineStartAtOrBefore(s: string, p: number): number {
  return p <= 0 ? 0 : s.lastIndexOf('\n', p - 1) + 1;
}

/** The smallest line boundary of `s` that is >= p. */
function lineBoundaryAtOrAfter(s: string, p: number): number {
  if (isLineStart(s, p)) return Math.min(p, s.length);
  const nl = s.indexOf('\n', p);
  return nl === -1 ? s.length : nl + 1;
}

/** Number of lines in a region of whole lines: its \n breaks, plus a final line without one. */
function countLines(s: TextReader, from: number, to: number): number {
  if (to <= from) return 0;
  let n = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++;
  if (s.charCodeAt(to - 1) !== LF) n++;
  return n;
}

/**
 * Appends the lines of a region of whole lines, each with `prefix` and its own line ending (a \r
 * before the \n stays); a last line without \n gets one plus git's "No newline" marker. Returns how
 * many characters it appended.
 */
function emitLines(out: string[], prefix: string, s: TextReader, from: number, to: number): number {
  let size = 0;
  let i = from;
  while (i < to) {
    const nl = s.indexOf('\n', i);
    if (nl === -1 || nl >= to) {
      out.push(prefix, s.slice(i, to), '\n', NO_NEWLINE, '\n');
      return size + prefix.length + (to - i) + 2 + NO_NEWLINE.length;
    }
    out.push(prefix, s.slice(i, nl + 1));
    size += prefix.length + (nl + 1 - i);
    i = nl + 1;
  }
  return size;
}

/** Start of the region of up to `n` whole lines that ends at line start `p`. */
function linesBack(s: string, p: number, n: number): number {
  let q = p;
  for (let k = 0; k < n && q > 0; k++) q = lineStartAtOrBefore(s, q - 1);
  return q;
}

/** End of the region of up to `n` whole lines that starts at line boundary `p`. */
function linesForward(s: string, p: number, n: number): number {
  let q = p;
  for (let k = 0; k < n && q < s.length; k++) q = lineBoundaryAtOrAfter(s, q + 1);
  return q;
}

function range(start: number, count: number): string {
  // git: a zero-length range names the line before it; a length of 1 is implied.
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

/**
 * Git-style unified diff of `path` from `before` (null: a created file) to `after`, where `edits`
 * (non-overlapping, offsets into `before`) turn before into after. Empty string when nothing changed.
 * With `limit`, building stops once more than `limit` characters are out: the result is then a
 * prefix of the full diff, longer than `limit` (for a caller that shows only a head).
 */
export function unifiedDiff(path: string, before: string | null, after: string | EditedText, edits: readonly SpanEdit[], context = 3, limit = Infinity): string {
  const created = before === null;
  const base = before ?? '';
  const changes: readonly SpanEdit[] = created
    ? after.length > 0
      ? [{ start: 0, end: 0, newText: after.slice() }]
      : []
    : [...edits]
        .filter((e) => base.slice(e.start, e.end) !== e.newText)
        .sort((a, b) => a.start - b.start || a.end - b.end);
  const header = `--- ${created ? '/dev/null' : `a/${path}`}\n+++ b/${path}\n`;
  if (changes.length === 0 || (!created && same(base, after))) return created ? header : '';
  return header + hunks(base, after, changes, context, limit - header.length);
}

/**
 * How many lines `unifiedDiff` marks removed (`-`) and added (`+`), counted from the whole change
 * without building the diff (a diff cut for display undercounts): what a review prompt shows.
 */
export function diffStat(before: string | null, after: string | EditedText, edits: readonly SpanEdit[]): { added: number; removed: number } {
  if (before === null) return { added: countLines(after, 0, after.length), removed: 0 };
  const changes = [...edits].filter((e) => before.slice(e.start, e.end) !== e.newText).sort((a, b) => a.start - b.start || a.end - b.end);
  if (changes.length === 0 || same(before, after)) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const b of changedBlocks(before, after, changes)) {
    added += b.afterLines;
    removed += b.lines;
  }
  return { added, removed };
}

/** Whether the text after the edits is `before` again (edits that undo each other). */
function same(before: string, after: string | EditedText): boolean {
  return typeof after === 'string' ? before === after : after.equals(before);
}

/** The hunks (everything after the ---/+++ header). */
function hunks(base: string, after: TextReader, changes: readonly SpanEdit[], context: number, limit: number): string {
  const blocks = changedBlocks(base, after, changes);

  // Line numbers: before counted incrementally; after = before + the line delta of the blocks so far.
  let line = 0;
  let pos = 0;
  let lineDelta = 0;
  for (const b of blocks) {
    line += countLines(base, pos, b.start);
    pos = b.start;
    b.line = line;
    b.afterLine = line + lineDelta;
    lineDelta += b.afterLines - b.lines;
  }

  const out: string[] = [];
  let size = 0;
  let i = 0;
  while (i < blocks.length && size <= limit) {
    // Group blocks whose gap is at most 2 * context lines into one hunk.
    let j = i;
    while (j + 1 < blocks.length) {
      const cur = blocks[j] as Block;
      const next = blocks[j + 1] as Block;
      if (next.line - (cur.line + cur.lines) > 2 * context) break;
      j++;
    }
    const firstBlock = blocks[i] as Block;
    const lastBlock = blocks[j] as Block;
    const leadFrom = linesBack(base, firstBlock.start, context);
    const trailTo = linesForward(base, lastBlock.end, context);
    const lead = countLines(base, leadFrom, firstBlock.start);
    const trail = countLines(base, lastBlock.end, trailTo);
    const oldStart = firstBlock.line - lead;
    const oldLen = lastBlock.line + lastBlock.lines + trail - oldStart;
    const newStart = firstBlock.afterLine - lead;
    const newLen = lastBlock.afterLine + lastBlock.afterLines + trail - newStart;
    const header = `@@ -${range(oldStart, oldLen)} +${range(newStart, newLen)} @@\n`;
    out.push(header);
    size += header.length;
    let from = leadFrom;
    for (let k = i; k <= j && size <= limit; k++) {
      const b = blocks[k] as Block;
      size += emitLines(out, ' ', base, from, b.start);
      size += emitLines(out, '-', base, b.start, b.end);
      size += emitLines(out, '+', after, b.afterStart, b.afterEnd);
      from = b.end;
    }
    if (size <= limit) size += emitLines(out, ' ', base, from, trailTo);
    i = j + 1;
  }
  return out.join('');
}

/**
 * Groups the edits into blocks of whole lines: each block's before region and after region start
 * and end on line boundaries of their own text (so a block never cuts a line or a CRLF in either),
 * and edits whose lines touch share a block.
 */
function changedBlocks(before: string, after: TextReader, edits: readonly SpanEdit[]): Block[] {
  const blocks: Block[] = [];
  let delta = 0; // after offset - before offset for positions before the current edit
  let k = 0;
  let lastEditEnd = 0;
  while (k < edits.length) {
    const firstEdit = edits[k] as SpanEdit;
    if (firstEdit.start < lastEditEnd || firstEdit.end < firstEdit.start || firstEdit.end > before.length) {
      throw new Error(`unifiedDiff: bad edit [${firstEdit.start}, ${firstEdit.end})`);
    }
    let baseDelta = delta; // delta at the block start
    let start = firstEdit.start;
    let end = firstEdit.end;
    let blockDelta = firstEdit.newText.length - (firstEdit.end - firstEdit.start); // delta added by the block's edits
    lastEditEnd = firstEdit.end;
    k++;
    for (;;) {
      let changed = false;
      // Extend the start back to a line start valid in both texts; merge with the previous block if reached.
      let s = lineStartAtOrBefore(before, start);
      if (!isLineStart(after, s + baseDelta)) s = lineStartAtOrBefore(before, s - 1);
      const prev = blocks[blocks.length - 1];
      if (prev !== undefined && s < prev.end) {
        blocks.pop();
        s = prev.start;
        blockDelta += baseDelta - (prev.afterStart - prev.start);
        baseDelta = prev.afterStart - prev.start;
      }
      if (s !== start) {
        start = s;
        changed = true;
      }
      // Extend the end forward to a line boundary valid in both texts, swallowing edits it reaches
      // (and an edit starting right at the end when the end is not yet a boundary in after).
      let e = lineBoundaryAtOrAfter(before, end);
      for (;;) {
        const next = edits[k];
        const boundary = isLineBoundary(after, e + baseDelta + blockDelta);
        if (next !== undefined && (next.start < e || (next.start === e && !boundary))) {
          if (next.start < lastEditEnd || next.end < next.start || next.end > before.length) {
            throw new Error(`unifiedDiff: bad or overlapping edit at ${next.start}`);
          }
          blockDelta += next.newText.length - (next.end - next.start);
          lastEditEnd = next.end;
          k++;
          changed = true;
          e = lineBoundaryAtOrAfter(before, Math.max(e, next.end));
          continue;
        }
        if (boundary || e >= before.length) break;
        e = lineBoundaryAtOrAfter(before, e + 1);
      }
      if (e !== end) {
        end = e;
        changed = true;
      }
      if (!changed) break;
    }
    const afterStart = start + baseDelta;
    const afterEnd = end + baseDelta + blockDelta;
    blocks.push({
      start,
      end,
      afterStart,
      afterEnd,
      line: 0,
      afterLine: 0,
      lines: countLines(before, start, end),
      afterLines: countLines(after, afterStart, afterEnd),
    });
    delta = baseDelta + blockDelta;
  }
  return blocks;
}
