// Which of a change's edits a text holds: after a person's review (VS Code's Refactor Preview lets
// each edit be unticked), the buffer is the original with some of the edits applied. Finds that
// subset, so editls records and reports exactly what landed, or says it cannot tell.
import type { SpanEdit } from '../text/spanEdit.js';

/**
 * The indices of `edits` (sorted, non-overlapping, on `before`) that turn `before` into `now`, or
 * undefined when no subset does (the text changed otherwise too). Where several subsets give `now`
 * (an edit whose new text equals its old), the one with the most edits applied is taken.
 * Runs in O(edits × distinct offsets): each (edit, position in `now`) pair is tried once.
 */
export function appliedSubset(before: string, edits: readonly SpanEdit[], now: string): number[] | undefined {
  const failed = new Set<number>();
  const key = (i: number, pos: number) => i * (now.length + 1) + pos;
  const chosen: number[] = [];
  // A depth-first search without recursion (20,000 edits would overflow the stack). A frame is edit
  // i's region starting at `pos` in `now`, after unedited text that starts at `prev` in `before`;
  // `tried`: 0 = neither branch yet, 1 = "applied" tried, 2 = both tried.
  const stack: { i: number; pos: number; prev: number; at: number; tried: 0 | 1 | 2 }[] = [];
  const enter = (i: number, pos: number, prev: number): 'done' | 'dead' | 'pushed' => {
    if (failed.has(key(i, pos))) return 'dead';
    const gapEnd = i < edits.length ? edits[i]!.start : before.length;
    if (!now.startsWith(before.slice(prev, gapEnd), pos)) {
      failed.add(key(i, pos));
      return 'dead';
    }
    const at = pos + (gapEnd - prev);
    if (i === edits.length) {
      if (at === now.length) return 'done';
      failed.add(key(i, pos));
      return 'dead';
    }
    stack.push({ i, pos, prev, at, tried: 0 });
    return 'pushed';
  };
  let state = enter(0, 0, 0);
  while (state !== 'done') {
    const top = stack[stack.length - 1];
    if (!top) return undefined;
    const e = edits[top.i]!;
    if (state === 'dead' && top.tried === 1) chosen.pop();
    if (top.tried === 0) {
      top.tried = 1;
      if (now.startsWith(e.newText, top.at)) {
        chosen.push(top.i);
        state = enter(top.i + 1, top.at + e.newText.length, e.end);
      } else {
        state = 'dead';
        top.tried = 1;
        chosen.push(-1); // popped right away: keeps "tried 1 then dead" uniform
      }
      continue;
    }
    if (top.tried === 1) {
      top.tried = 2;
      state = now.startsWith(before.slice(e.start, e.end), top.at) ? enter(top.i + 1, top.at + (e.end - e.start), e.end) : 'dead';
      continue;
    }
    failed.add(key(top.i, top.pos));
    stack.pop();
    state = 'dead';
  }
  return chosen;
}
