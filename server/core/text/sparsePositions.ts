// LSP positions for a handful of offsets in a large text, in one forward scan that stops at the
// last offset — cheaper than building a full LineIndex when a 10 MB file gets one or two edits.
// Line breaks are found with native indexOf, and columns on one long line are counted incrementally,
// so 100,000 edits on a 10 MB file (or on one 1 MB line in utf-8) stay linear.
import type { Position, PositionEncoding } from './positions.js';

const LF = 10;

/** Positions of `offsets` (UTF-16, any order) in `text`; line breaks are \n, \r\n and \r as in LSP. */
export function positionsAt(text: string, offsets: readonly number[], encoding: PositionEncoding): Position[] {
  let order: number[] | undefined;
  for (let k = 1; k < offsets.length; k++) {
    if ((offsets[k] as number) < (offsets[k - 1] as number)) {
      order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
      break;
    }
  }
  const out: Position[] = new Array(offsets.length);
  const none = Number.MAX_SAFE_INTEGER;
  const next = (ch: string, from: number): number => {
    const i = text.indexOf(ch, from);
    return i === -1 ? none : i;
  };
  let line = 0;
  let lineStart = 0;
  let nl = next('\n', 0);
  let cr = next('\r', 0);
  // Incremental column on the current line: `units` counted from lineStart up to `counted`.
  let counted = 0;
  let units = 0;
  for (let k = 0; k < offsets.length; k++) {
    const index = order === undefined ? k : (order[k] as number);
    const offset = offsets[index] as number;
    for (;;) {
      const b = Math.min(nl, cr);
      if (b >= offset) break;
      if (b === cr && text.charCodeAt(b + 1) === LF) {
        // The \n of the pair ends the line; an offset between \r and \n stays on this line.
        if (b + 1 >= offset) break;
        lineStart = b + 2;
        cr = next('\r', b + 1);
        nl = next('\n', b + 2);
      } else if (b === cr) {
        lineStart = b + 1;
        cr = next('\r', b + 1);
      } else {
        lineStart = b + 1;
        nl = next('\n', b + 1);
      }
      line++;
    }
    if (encoding === 'utf-16') {
      out[index] = { line, character: offset - lineStart };
      continue;
    }
    if (counted < lineStart || counted > offset) {
      counted = lineStart;
      units = 0;
    }
    // Whole code points only: a surrogate pair cut by `offset` is not counted (the column rounds down).
    let i = counted;
    while (i < offset) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          if (i + 1 >= offset) break;
          units += encoding === 'utf-8' ? 4 : 1;
          i += 2;
          continue;
        }
      }
      units += encoding === 'utf-32' ? 1 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      i++;
    }
    counted = i;
    out[index] = { line, character: units };
  }
  return out;
}
