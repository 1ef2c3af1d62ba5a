// Owns LSP positions: a line index over a text (line breaks \n, \r\n and \r) and conversion between
// UTF-16 offsets and 0-based line/character positions counted in utf-8, utf-16 or utf-32 units.

export type PositionEncoding = 'utf-8' | 'utf-16' | 'utf-32';

export interface Position {
  line: number;
  character: number;
}

const CR = 13;
const LF = 10;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** UTF-8 length of the BMP code unit `code` (lone surrogates count as U+FFFD, 3 bytes). */
function utf8UnitsOfBmp(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

/**
 * Units of the encoding in text[from, to), counting whole code points only: a surrogate pair cut by
 * `to` is not counted (the column rounds down to the code point start).
 */
function unitsBetween(text: string, from: number, to: number, encoding: PositionEncoding): number {
  if (encoding === 'utf-16') return to - from;
  let units = 0;
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isHigh(c) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      if (i + 1 >= to) break;
      units += encoding === 'utf-8' ? 4 : 1;
      i += 2;
    } else {
      units += encoding === 'utf-8' ? utf8UnitsOfBmp(c) : 1;
      i += 1;
    }
  }
  return units;
}

/** Converts a UTF-16 column within one line to the encoding's units (rounding down inside a surrogate pair). */
export function columnIn(lineText: string, utf16Column: number, encoding: PositionEncoding): number {
  const col = Math.max(0, Math.min(utf16Column, lineText.length));
  if (encoding === 'utf-16') return col;
  return unitsBetween(lineText, 0, col, encoding);
}

export class LineIndex {
  readonly lineCount: number;
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(text: string) {
    this.text = text;
    // Line starts follow every \n and every \r not followed by \n; native indexOf finds both.
    let lf = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
    let loneCr = 0;
    for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
      if (text.charCodeAt(i + 1) !== LF) loneCr++;
    }
    const starts = new Int32Array(lf + loneCr + 1);
    let n = 1;
    if (loneCr === 0) {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
    } else {
      let nl = text.indexOf('\n');
      let cr = text.indexOf('\r');
      while (nl !== -1 || cr !== -1) {
        if (cr !== -1 && (nl === -1 || cr < nl)) {
          if (text.charCodeAt(cr + 1) !== LF) starts[n++] = cr + 1;
          cr = text.indexOf('\r', cr + 1);
        } else {
          starts[n++] = nl + 1;
          nl = text.indexOf('\n', nl + 1);
        }
      }
    }
    this.starts = starts;
    this.lineCount = lf + loneCr + 1;
  }

  /** UTF-16 offset of the start of `line` (clamped: below 0 -> 0, past the end -> text length). */
  lineStart(line: number): number {
    if (line <= 0) return 0;
    if (line >= this.lineCount) return this.text.length;
    return this.starts[line] as number;
  }

  /** UTF-16 offset of the end of `line`, before its line break (clamped like lineStart). */
  lineEnd(line: number): number {
    if (line < 0) return this.lineEnd(0);
    if (line >= this.lineCount - 1) return this.text.length;
    const next = this.starts[line + 1] as number;
    // next - 1 is \n or a lone \r; a \n preceded by \r is a CRLF break.
    if (this.text.charCodeAt(next - 1) === LF && next >= 2 && this.text.charCodeAt(next - 2) === CR) return next - 2;
    return next - 1;
  }

  /** 0-based line containing `offset` (clamped to the text). An offset inside a CRLF belongs to the line it ends. */
  lineOf(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((s[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  positionAt(offset: number, encoding: PositionEncoding): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    const start = this.lineStart(line);
    return { line, character: unitsBetween(this.text, start, o, encoding) };
  }

  /**
   * Position -> UTF-16 offset with LSP clamping: a line past the end gives the text length; a
   * character past the line end gives the line end (before the break); a character inside a code
   * point rounds down to the code point start.
   */
  offsetAt(position: Position, encoding: PositionEncoding): number {
    if (position.line >= this.lineCount) return this.text.length;
    if (position.line < 0) return 0;
    const start = this.lineStart(position.line);
    const end = this.lineEnd(position.line);
    const character = Math.max(0, position.character);
    const text = this.text;
    if (encoding === 'utf-16') {
      let o = Math.min(start + character, end);
      if (o > start && o < end && isLow(text.charCodeAt(o)) && isHigh(text.charCodeAt(o - 1))) o--;
      return o;
    }
    let units = 0;
    let i = start;
    while (i < end) {
      const c = text.charCodeAt(i);
      const pair = isHigh(c) && i + 1 < end && isLow(text.charCodeAt(i + 1));
      const size = encoding === 'utf-32' ? 1 : pair ? 4 : utf8UnitsOfBmp(c);
      if (units + size > character) return i;
      units += size;
      i += pair ? 2 : 1;
    }
    return end;
  }
}
