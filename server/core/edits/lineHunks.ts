// Whole-line differences between two texts: the hunks a line diff finds (common head and tail lines
// skipped first, so a small change in a large file costs little), and the span edits that turn one
// text into the other (a proposed whole file shown as a preview, without rewriting unchanged lines).
import { diffLines } from 'diff';
import type { SpanEdit } from '../text/spanEdit.js';

/** A changed stretch of `a`: [start, end) replaced by `text`, at `to` in `b`. */
export interface Hunk {
  start: number;
  end: number;
  text: string;
  to: number;
}

/** Line hunks turning `a` into `b` (common head and tail lines skipped first); undefined past the time limit. */
export function lineHunks(a: string, b: string, timeoutMs: number): Hunk[] | undefined {
  const { head, tail } = commonLines(a, b);
  const changes = diffLines(a.slice(head, a.length - tail), b.slice(head, b.length - tail), { timeout: timeoutMs });
  if (!changes) return undefined;
  const hunks: Hunk[] = [];
  let at = head;
  let to = head;
  let open: Hunk | undefined;
  for (const c of changes) {
    if (!c.added && !c.removed) {
      open = undefined;
      at += c.value.length;
      to += c.value.length;
      continue;
    }
    if (!open) {
      open = { start: at, end: at, text: '', to };
      hunks.push(open);
    }
    if (c.removed) {
      at += c.value.length;
      open.end = at;
    } else {
      open.text += c.value;
      to += c.value.length;
    }
  }
  return hunks;
}

/**
 * Span edits on `before` that give `after`: one per changed stretch of lines; past the time limit,
 * one edit of everything between the common head and tail lines (never wrong, only coarser).
 */
export function textChange(before: string, after: string, timeoutMs = 500): SpanEdit[] {
  if (before === after) return [];
  const hunks = lineHunks(before, after, timeoutMs);
  if (hunks) return hunks.map((h) => ({ start: h.start, end: h.end, newText: h.text }));
  // Whole lines here too: an edit boundary never falls inside a surrogate pair or a CRLF.
  const { head, tail } = commonLines(before, after);
  return [{ start: head, end: before.length - tail, newText: after.slice(head, after.length - tail) }];
}

/** How many characters of whole lines `a` and `b` share at their start and at their end. */
function commonLines(a: string, b: string): { head: number; tail: number } {
  let head = 0;
  const max = Math.min(a.length, b.length);
  while (head < max && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  head = a.lastIndexOf('\n', head - 1) + 1;
  let tail = 0;
  while (tail < max - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  // keep whole lines in the tail: it starts right after a line break of both texts
  while (tail > 0 && !(a.charCodeAt(a.length - tail - 1) === 10 && b.charCodeAt(b.length - tail - 1) === 10)) tail--;
  return { head, tail };
}
