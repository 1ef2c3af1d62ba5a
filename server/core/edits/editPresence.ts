// Whether an edit the editor said it applied is in the buffer editls sees now: `landed` (all of it,
// with other changes elsewhere), `partial` (some of it so far, nothing else: the editor is still
// reporting), `absent` (none of it) or `unclear`. Judged on whole lines with two line diffs
// (before -> now and expected -> now), so that a diff's alignment alone never decides "absent".
import { lineHunks, type Hunk } from './lineHunks.js';
import type { SpanEdit } from '../text/spanEdit.js';

export type PresenceKind = 'landed' | 'partial' | 'absent' | 'unclear';

export interface Presence {
  kind: PresenceKind;
  /** 1-based lines of `now` changed by someone else (for the note), when known. */
  otherLines?: { first: number; last: number };
}

/**
 * `before` is the text the edits were computed on, `edits` (sorted, non-overlapping, on `before`)
 * turn it into `expected`; `now` is the buffer as the editor last reported it (≠ expected).
 */
export function editPresence(before: string, edits: readonly SpanEdit[], expected: string, now: string, timeoutMs = 500): Presence {
  const fromBefore = lineHunks(before, now, timeoutMs);
  const fromExpected = lineHunks(expected, now, timeoutMs);
  if (!fromBefore || !fromExpected) return { kind: 'unclear' };
  const oldSpans = edits.map((e) => lineSpan(before, e.start, e.end));
  let shift = 0;
  const newSpans = edits.map((e) => {
    const start = e.start + shift;
    shift += e.newText.length - (e.end - e.start);
    return lineSpan(expected, start, start + e.newText.length);
  });
  const untouched = (spans: [number, number][], hunks: Hunk[]) => hunks.every((h) => spans.every((s) => !overlaps(s, h)));
  const absentFits = untouched(oldSpans, fromBefore);
  const landedFits = untouched(newSpans, fromExpected);
  if (landedFits && !absentFits) return { kind: 'landed', ...other(now, fromExpected) };
  if (absentFits && !landedFits) return { kind: 'absent' };
  if (absentFits && landedFits) return { kind: 'unclear' };
  return perCluster(before, edits, oldSpans, fromBefore, now);
}

/** Neither reading fits as a whole: judge each group of edits and the changes touching it. */
function perCluster(before: string, edits: readonly SpanEdit[], spans: [number, number][], hunks: Hunk[], now: string): Presence {
  type Item = { start: number; end: number; edit?: number; hunk?: Hunk };
  const items: Item[] = [...spans.map(([start, end], edit) => ({ start, end, edit })), ...hunks.map((h) => ({ start: h.start, end: h.end, hunk: h }))];
  items.sort((a, b) => a.start - b.start || (a.edit !== undefined ? -1 : 1));
  let landed = 0;
  let absent = 0;
  let foreign = 0;
  let delta = 0; // now offset - before offset, up to the current cluster
  let i = 0;
  while (i < items.length) {
    const first = items[i]!;
    let end = first.end;
    const group: Item[] = [first];
    for (i++; i < items.length; i++) {
      const it = items[i]!;
      const joins = it.start === it.end ? it.start > first.start && it.start < end : it.start < end;
      if (!joins) break;
      group.push(it);
      end = Math.max(end, it.end);
    }
    const groupEdits = group.filter((g) => g.edit !== undefined).map((g) => edits[g.edit!]!);
    const groupHunks = group.filter((g) => g.hunk).map((g) => g.hunk!);
    const growth = groupHunks.reduce((n, h) => n + h.text.length - (h.end - h.start), 0);
    if (groupEdits.length === 0) foreign++;
    else if (groupHunks.length === 0) absent += groupEdits.length;
    else {
      const start = first.start;
      const wanted = applyIn(before, start, end, groupEdits);
      if (now.slice(start + delta, end + delta + growth) === wanted) landed += groupEdits.length;
      else return { kind: 'unclear' };
    }
    delta += growth;
  }
  if (landed > 0 && absent === 0) return foreign > 0 ? { kind: 'landed' } : { kind: 'unclear' };
  if (landed === 0) return { kind: 'absent' };
  return foreign === 0 ? { kind: 'partial' } : { kind: 'unclear' };
}

function applyIn(text: string, start: number, end: number, edits: readonly SpanEdit[]): string {
  let out = '';
  let cursor = start;
  for (const e of edits) {
    out += text.slice(cursor, e.start) + e.newText;
    cursor = e.end;
  }
  return out + text.slice(cursor, end);
}

/** The whole lines (with their breaks) holding [start, end). */
function lineSpan(text: string, start: number, end: number): [number, number] {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  if (end > start && text.charCodeAt(end - 1) === 10) return [from, end];
  const nl = text.indexOf('\n', end);
  return [from, nl === -1 ? text.length : nl + 1];
}

function overlaps([a, b]: [number, number], h: Hunk): boolean {
  if (h.start === h.end) return a < h.start && h.start < b;
  return h.start < b && a < h.end;
}

function other(now: string, hunks: Hunk[]): { otherLines?: { first: number; last: number } } {
  if (hunks.length === 0) return {};
  const line = (offset: number) => {
    let n = 1;
    for (let i = now.indexOf('\n'); i !== -1 && i < offset; i = now.indexOf('\n', i + 1)) n++;
    return n;
  };
  const last = hunks[hunks.length - 1]!;
  return { otherLines: { first: line(hunks[0]!.to), last: line(last.to + Math.max(0, last.text.length - 1)) } };
}
