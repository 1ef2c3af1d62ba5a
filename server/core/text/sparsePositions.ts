// LSP positions for a handful of offsets in a large text, in one forward scan that stops at the
// last offset — cheaper than building a full LineIndex when a 10 MB file gets one or two edits.
import { columnIn, type Position, type PositionEncoding } from './positions.js';

/** Positions of `offsets` (UTF-16, any order) in `text`; line breaks are \n, \r\n and \r as in LSP. */
export function positionsAt(text: string, offsets: readonly number[], encoding: PositionEncoding): Position[] {
  const order = offsets.map((o, i) => [o, i] as const).sort((a, b) => a[0] - b[0]);
  const out: Position[] = new Array(offsets.length);
  let line = 0;
  let lineStart = 0;
  let i = 0;
  for (const [offset, index] of order) {
    for (; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        line++;
        lineStart = i + 1;
      } else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) {
          // the \n of the pair ends the line; an offset between \r and \n stays on this line
          if (i + 1 < offset) {
            i++;
            line++;
            lineStart = i + 1;
          }
        } else {
          line++;
          lineStart = i + 1;
        }
      }
    }
    out[index] = { line, character: columnIn(text.slice(lineStart, offset), offset - lineStart, encoding) };
  }
  return out;
}
