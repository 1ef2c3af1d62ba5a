// Converts incoming LSP positions from the negotiated encoding to UTF-16 offsets, the unit that
// vscode-languageserver-textdocument and core count in (didChange ranges arrive in the client's unit).
import type { PositionEncoding } from '../core/text/positions.js';

/** The UTF-16 column of `character` (counted in `encoding`) on `lineText` (without its line break); clamps past the end. */
export function utf16Column(lineText: string, character: number, encoding: PositionEncoding): number {
  if (encoding === 'utf-16') return Math.min(character, lineText.length);
  let units = 0;
  let utf16 = 0;
  while (utf16 < lineText.length) {
    const cp = lineText.codePointAt(utf16)!;
    const width = encoding === 'utf-8' ? (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4) : 1;
    if (units + width > character) break;
    units += width;
    utf16 += cp > 0xffff ? 2 : 1;
  }
  return utf16;
}


