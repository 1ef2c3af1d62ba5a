// Owns the normalised view of a file's text (no BOM, every line break as \n) and the way back:
// mapping normalised offsets to original ones and turning normalised replacements into minimal
// SpanEdits that keep the BOM and every untouched line ending byte-for-byte.

import type { SpanEdit } from './spanEdit.js';

export type LineEnding = '\n' | '\r\n' | '\r';

/** A replacement of [start, end) in the NORMALIZED text; `text` uses \n line breaks. */
export interface NormReplacement {
  start: number;
  end: number;
  text: string;
}

const CR = 13;
const LF = 10;
const BOM = 0xfeff;

/** Turns \r\n and lone \r into \n. */
export function normalizeEol(s: string): string {
  return s.indexOf('\r') === -1 ? s : s.replace(/\r\n?/g, '\n');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Converts \n line breaks to `eol` (the text must already be \n-normalised). */
function withEol(s: string, eol: LineEnding): string {
  return eol === '\n' || s.indexOf('\n') === -1 ? s : s.split('\n').join(eol);
}

export class NormalizedText {
  readonly original: string;
  readonly text: string;
  readonly hasBom: boolean;
  readonly eol: LineEnding;
  readonly mixedEndings: boolean;
  /** Normalised offsets of the \n characters that were \r\n in the original, ascending. */
  private readonly crlfAt: Int32Array;
  private readonly bomLength: number;

  private constructor(original: string) {
    this.original = original;
    this.hasBom = original.length > 0 && original.charCodeAt(0) === BOM;
    this.bomLength = this.hasBom ? 1 : 0;
    const body = this.hasBom ? original.slice(1) : original;

    // Count line endings: every \r is either a CRLF or a lone CR; every \n not after \r is an LF.
    let crTotal = 0;
    for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) crTotal++;
    let lfTotal = 0;
    for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) lfTotal++;

    let crlf = 0;
    const crlfAt = new Int32Array(Math.min(crTotal, lfTotal));
    if (crTotal > 0) {
      // Normalised offset of a CRLF's \n = original body offset of its \r minus the CRLFs before it.
      for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) {
        if (body.charCodeAt(i + 1) === LF) {
          crlfAt[crlf] = i - crlf;
          crlf++;
        }
      }
    }
    this.crlfAt = crlf === crlfAt.length ? crlfAt : crlfAt.slice(0, crlf);
    const loneCr = crTotal - crlf;
    const lf = lfTotal - crlf;

    let eol: LineEnding = '\n';
    if (crlf > lf && crlf >= loneCr) eol = '\r\n';
    else if (loneCr > lf && loneCr > crlf) eol = '\r';
    this.eol = eol;
    this.mixedEndings = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (loneCr > 0 ? 1 : 0) > 1;
    this.text = crTotal === 0 ? body : body.replace(/\r\n?/g, '\n');
  }

  static from(original: string): NormalizedText {
    return new NormalizedText(original);
  }

  /** Number of CRLF line breaks whose \n sits strictly before normalised `offset`. */
  private crlfBefore(offset: number): number {
    const a = this.crlfAt;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Normalised offset -> original offset. An offset AT a \n that was \r\n maps to the \r; the offset
   * right after it maps after the \n. O(log n).
   */
  toOriginal(offset: number): number {
    return offset + this.bomLength + this.crlfBefore(offset);
  }

  /**
   * Non-overlapping replacements against `text` -> minimal SpanEdits against `original` plus the
   * resulting original text. Each replacement is trimmed of the common prefix/suffix of the replaced
   * text and its new text (never splitting a surrogate pair); empty results are dropped; line
   * breaks in new text become `eol`; untouched characters keep their original bytes.
   *
   * One exception keeps the line structure intact: when an edit would place a lone \r right before
   * a \n (the two would read as one CRLF break and two lines would merge), the edit adds a \n
   * after that \r, so the boundary break is written as \r\n instead of the dominant ending.
   */
  spanEdits(replacements: readonly NormReplacement[]): { edits: SpanEdit[]; newOriginal: string } {
    const text = this.text;
    const sorted = isSorted(replacements) ? replacements : [...replacements].sort((a, b) => a.start - b.start || a.end - b.end);

    // 1. Merge replacements that touch (so no edit undoes its neighbour), then trim and map each.
    //    Groups are at least one character apart and trimming only shrinks them, so edits never touch.
    const merged: SpanEdit[] = [];
    let prevEnd = 0;
    let groupStart = -1;
    let groupEnd = -1;
    let groupText = '';
    const flush = (): void => {
      if (groupStart < 0) return;
      const newText = normalizeEol(groupText);
      const oldLen = groupEnd - groupStart;
      const newLen = newText.length;
      const max = Math.min(oldLen, newLen);
      let p = 0;
      while (p < max && text.charCodeAt(groupStart + p) === newText.charCodeAt(p)) p++;
      if (p > 0 && isHighSurrogate(newText.charCodeAt(p - 1))) p--;
      let q = 0;
      while (q < max - p && text.charCodeAt(groupEnd - 1 - q) === newText.charCodeAt(newLen - 1 - q)) q++;
      if (q > 0 && isLowSurrogate(newText.charCodeAt(newLen - q))) q--;
      if (oldLen - p - q === 0 && newLen - p - q === 0) return;
      merged.push({
        start: this.toOriginal(groupStart + p),
        end: this.toOriginal(groupEnd - q),
        newText: withEol(p === 0 && q === 0 ? newText : newText.slice(p, newLen - q), this.eol),
      });
    };
    for (const r of sorted) {
      if (r.start < prevEnd || r.end < r.start || r.end > text.length || r.start < 0) {
        throw new Error(`NormalizedText.spanEdits: bad or overlapping replacement [${r.start}, ${r.end})`);
      }
      prevEnd = r.end;
      if (groupStart >= 0 && groupEnd === r.start) {
        groupEnd = r.end;
        groupText += r.text;
      } else {
        flush();
        groupStart = r.start;
        groupEnd = r.end;
        groupText = r.text;
      }
    }
    flush();

    // 2. Keep a lone \r and a following \n from fusing into one CRLF break (which would merge two
    //    lines): complete the lone \r into a CRLF, or a new trailing \r before an untouched \n.
    const original = this.original;
    for (const e of merged) {
      const before = e.start > 0 ? original.charCodeAt(e.start - 1) : -1;
      const after = e.end < original.length ? original.charCodeAt(e.end) : -1;
      const first = e.newText.length > 0 ? e.newText.charCodeAt(0) : after;
      if (before === CR && first === LF) e.newText = '\n' + e.newText;
      if (after === LF && e.newText.charCodeAt(e.newText.length - 1) === CR) e.newText += '\n';
    }

    // 3. Build the new original text.
    const parts: string[] = [];
    let cursor = 0;
    for (const e of merged) {
      parts.push(original.slice(cursor, e.start), e.newText);
      cursor = e.end;
    }
    parts.push(original.slice(cursor));
    return { edits: merged, newOriginal: merged.length === 0 ? original : parts.join('') };
  }
}

function isSorted(rs: readonly NormReplacement[]): boolean {
  for (let i = 1; i < rs.length; i++) {
    const a = rs[i - 1] as NormReplacement;
    const b = rs[i] as NormReplacement;
    if (b.start < a.start || (b.start === a.start && b.end < a.end)) return false;
  }
  return true;
}
