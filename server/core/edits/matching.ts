// Owns the small search helpers shared by edit and strReplace: non-overlapping occurrences of a
// string, 1-based line numbers of sorted offsets, and the wording of match-related hints.

import type { ClosestCandidate } from './closest.js';

/** Most line numbers listed in `data.lines` (the count stays exact). */
export const MAX_LISTED_LINES = 50;
/** Most line numbers spelled out in a message. */
const MAX_MESSAGE_LINES = 10;

/** Start offsets of the non-overlapping occurrences of `needle` (non-empty), left to right. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** 1-based line numbers (\n breaks) of ascending offsets, counted in one pass. */
export function lineNumbers(text: string, offsets: readonly number[], limit = MAX_LISTED_LINES): number[] {
  const lines: number[] = [];
  let line = 1;
  let nextBreak = text.indexOf('\n');
  for (const offset of offsets.slice(0, limit)) {
    while (nextBreak !== -1 && nextBreak < offset) {
      line++;
      nextBreak = text.indexOf('\n', nextBreak + 1);
    }
    lines.push(line);
  }
  return lines;
}

/** "lines 4, 9, 17" (at most ten spelled out, then "and N more"). */
export function describeLines(lines: readonly number[], count: number): string {
  const shown = lines.slice(0, MAX_MESSAGE_LINES).join(', ');
  const more = count - Math.min(lines.length, MAX_MESSAGE_LINES);
  return `lines ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The tail of a not_found message: where the closest candidates are (best first) and what to do. */
export function closestHint(candidates: readonly ClosestCandidate[]): string {
  const [best, ...others] = candidates;
  if (best === undefined) return 're-read the file and copy the text exactly, including whitespace';
  const where = (c: ClosestCandidate) => (c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`);
  const also = others.length === 0 ? '' : `, also ${others.map((c) => `${where(c)} (${c.similarity})`).join(', ')}`;
  const tie = others.some((c) => c.similarity === best.similarity)
    ? '; several places are equally close, so include lines that tell them apart'
    : '';
  return `the closest text is at ${where(best)} (similarity ${best.similarity})${also}${tie}; re-read the file and copy the text exactly`;
}

/** `data` of a not_found failure: the best candidate and all of them (absent when nothing is close). */
export function closestData(candidates: readonly ClosestCandidate[]): Record<string, unknown> | undefined {
  return candidates.length === 0 ? undefined : { closest: candidates[0], candidates };
}
