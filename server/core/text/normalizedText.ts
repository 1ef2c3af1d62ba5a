// Owns the normalised view of a file's text (no BOM, every line break as \n) and the way back:
// mapping normalised offsets to original ones and turning normalised replacements into minimal
// SpanEdits that keep the BOM and every untouched line ending byte-for-byte.

import type { SpanEdit } from './spanEdit.js';
import { ROPE_MIN_CHARS } from './editedText.js';

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
export function withEol(s: string, eol: LineEnding): string {
  return eol === '\n' || s.indexOf('\n') === -1 ? s : s.split('\n').join(eol);
}

/**
 * A new text of ROPE_MIN_CHARS or more (editedText.ts) is left a rope of its pieces (spanEditsOf) when
 * it has at most ROPE_MAX_PARTS of them, or when they are at least ROPE_PIECE_CHARS long on average;
 * otherwise it is joined flat. A piece costs ~30 bytes of rope cells (a cons string each, a sliced
 * string each second one), a character of a flat copy 1 or 2 bytes: past ROPE_PIECE_CHARS a piece the
 * rope is the smaller, and it spares the copy's fresh memory (10 MB with 100,000 replacements: a 20 MB
 * string, ~60 ms of page faults on the bench machine). A replaceInFiles of 40 files of 1 MB with 32,000
 * replacements each (pieces of ~17 characters) ran out of a 64 MB heap with ropes; flat, it is refused
 * as too_large in time. ROPE_MAX_PARTS was 64 once: a replaceInFiles of 20,000 files then kept its
 * files with more than 32 replacements twice (49 MB of its live heap, measured).
 */
const ROPE_MAX_PARTS = 4096;
const ROPE_PIECE_CHARS = 32;

export class NormalizedText {
  readonly original: string;
  /** The original without its BOM (line breaks as they are). */
  readonly body: string;
  /** Length of `text`, known without building it. */
  readonly length: number;
  readonly hasBom: boolean;
  readonly eol: LineEnding;
  readonly mixedEndings: boolean;
  /** Normalised offsets of the \n characters that were \r\n in the original, ascending. */
  private readonly crlfAt: Int32Array;
  private readonly bomLength: number;
  /** Whether the original holds any \r (only then can an edit fuse a lone \r with a \n). */
  private readonly hasCr: boolean;
  /** `text` once built: a file with \r breaks is copied only when something reads its \n view. */
  private normalized: string | null;

  private constructor(original: string) {
    this.original = original;
    this.hasBom = original.length > 0 && original.charCodeAt(0) === BOM;
    this.bomLength = this.hasBom ? 1 : 0;
    const body = this.hasBom ? original.slice(1) : original;
    this.body = body;

    // One pass over the \r characters: each is a CRLF or a lone CR. Most files have none, and then
    // there is nothing more to count or copy: the text is the body, every break is \n.
    let crTotal = 0;
    for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) crTotal++;
    this.hasCr = crTotal > 0;
    if (crTotal === 0) {
      this.crlfAt = new Int32Array(0);
      this.eol = '\n';
      this.mixedEndings = false;
      this.normalized = body;
      this.length = body.length;
      return;
    }

    // Normalised offset of a CRLF's \n = original body offset of its \r minus the CRLFs before it.
    const crlfAt = new Int32Array(crTotal);
    let crlf = 0;
    for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) {
      if (body.charCodeAt(i + 1) === LF) {
        crlfAt[crlf] = i - crlf;
        crlf++;
      }
    }
    this.crlfAt = crlf === crlfAt.length ? crlfAt : crlfAt.slice(0, crlf);
    this.length = body.length - crlf;
    this.normalized = null;
    const loneCr = crTotal - crlf;

    // Plain \n breaks: counted only until they outnumber both other kinds, which settles the answer.
    const settled = Math.max(crlf, loneCr);
    let lfTotal = 0;
    for (let i = body.indexOf('\n'); i !== -1 && lfTotal - crlf <= settled; i = body.indexOf('\n', i + 1)) lfTotal++;
    const lf = lfTotal - crlf;

    let eol: LineEnding = '\n';
    if (crlf > lf && crlf >= loneCr) eol = '\r\n';
    else if (loneCr > lf && loneCr > crlf) eol = '\r';
    this.eol = eol;
    this.mixedEndings = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (loneCr > 0 ? 1 : 0) > 1;
  }

  /** The BOM-less text with every line break as \n (built on first use when the original has \r). */
  get text(): string {
    if (this.normalized === null) {
      // Built from the pieces between the \r characters (a rope V8 flattens once).
      const body = this.body;
      let text = '';
      let from = 0;
      for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) {
        text += body.charCodeAt(i + 1) === LF ? body.slice(from, i) : body.slice(from, i) + '\n';
        from = i + 1;
      }
      this.normalized = text + body.slice(from);
    }
    return this.normalized;
  }

  /**
   * Offsets into `body` -> offsets into `text`, in place. The offsets must ascend and none may fall
   * between the \r and \n of a CRLF (true of the ends of a match of text without line breaks).
   */
  bodyOffsetsToText(offsets: Int32Array): void {
    const crlfAt = this.crlfAt;
    if (crlfAt.length === 0) return;
    let k = 0;
    for (let i = 0; i < offsets.length; i++) {
      const o = offsets[i] as number;
      // CRLF number k has its \r at body offset crlfAt[k] + k.
      while (k < crlfAt.length && (crlfAt[k] as number) + k < o) k++;
      offsets[i] = o - k;
    }
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
    const sorted = isSorted(replacements) ? replacements : [...replacements].sort((a, b) => a.start - b.start || a.end - b.end);
    const n = sorted.length;
    const starts = new Float64Array(n);
    const ends = new Float64Array(n);
    const texts: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const r = sorted[i] as NormReplacement;
      starts[i] = r.start;
      ends[i] = r.end;
      texts[i] = r.text;
    }
    return this.spanEditsOf(starts, ends, texts);
  }

  /**
   * spanEdits for replacements given column-wise, as a scan produces them: [offset + starts[i],
   * offset + ends[i]) is replaced by texts[i], or by `texts` itself for every one when it is a
   * string. Unsorted input is sorted first, exactly as spanEdits does. `replaced`, when given, is a
   * promise from the caller (the scan that found the ranges) of what they hold: one text for every
   * range (an indexOf scan), or one per range. The trim is then worked out from it (once per
   * distinct pair of texts) instead of reading the text at every match.
   */
  spanEditsOf(
    starts: ArrayLike<number>,
    ends: ArrayLike<number>,
    texts: ArrayLike<string> | string,
    options: { offset?: number; replaced?: string | ArrayLike<string> } = {},
  ): { edits: SpanEdit[]; newOriginal: string } {
    const n = starts.length;
    const offset = options.offset ?? 0;
    const same = typeof texts === 'string' ? texts : null;
    for (let i = 1; i < n; i++) {
      const a = starts[i - 1] as number;
      const b = starts[i] as number;
      if (b < a || (b === a && (ends[i] as number) < (ends[i - 1] as number))) {
        const reps: NormReplacement[] = [];
        for (let j = 0; j < n; j++) {
          reps.push({ start: offset + (starts[j] as number), end: offset + (ends[j] as number), text: same ?? ((texts as ArrayLike<string>)[j] as string) });
        }
        return this.spanEdits(reps);
      }
    }

    const length = this.length;
    const original = this.original;
    const eol = this.eol;
    const crlfAt = this.crlfAt;
    const bom = this.bomLength;
    const replaced = options.replaced ?? null;
    const sameReplaced = typeof replaced === 'string' ? replaced : null;
    // A lone \r can only fuse with a \n when the original has a \r (new texts get one only from a
    // \r\n or \r dominant ending, which needs one too).
    const crPossible = this.hasCr;
    const sameNorm = same === null ? null : normalizeEol(same);

    // Replacements that touch are merged into one group (so no edit undoes its neighbour), then each
    // group is trimmed and mapped. Groups are at least one character apart and trimming only shrinks
    // them, so edits never touch. Offsets to map only grow, so the CRLFs before them are counted
    // with a cursor instead of a search.
    const edits: SpanEdit[] = new Array(n);
    let count = 0;
    const parts: string[] = [];
    let cursor = 0;
    let crlfSeen = 0;
    let prevEnd = 0;
    // The trim of the last known replaced text (trimmedOld) against the last new text (trimmedFor).
    let trimmedOld: string | null = null;
    let trimmedFor: string | null = null;
    let trimP = 0;
    let trimQ = 0;
    // The last trimmed new text, reused while groups keep the same new text and trim.
    let lastNew: string | null = null;
    let lastP = -1;
    let lastQ = -1;
    let lastTrimmed = '';
    let i = 0;
    while (i < n) {
      const groupFirst = i;
      const groupStart = offset + (starts[i] as number);
      let groupEnd = offset + (ends[i] as number);
      if (groupStart < prevEnd || groupEnd < groupStart || groupEnd > length || groupStart < 0) {
        throw new Error(`NormalizedText.spanEdits: bad or overlapping replacement [${groupStart}, ${groupEnd})`);
      }
      let groupText = same ?? ((texts as ArrayLike<string>)[i] as string);
      let merged = false;
      i++;
      while (i < n && offset + (starts[i] as number) === groupEnd) {
        const end = offset + (ends[i] as number);
        if (end < groupEnd || end > length) {
          throw new Error(`NormalizedText.spanEdits: bad or overlapping replacement [${groupEnd}, ${end})`);
        }
        groupEnd = end;
        groupText += same ?? ((texts as ArrayLike<string>)[i] as string);
        merged = true;
        i++;
      }
      prevEnd = groupEnd;

      const newText = sameNorm !== null && !merged ? sameNorm : normalizeEol(groupText);
      const oldLen = groupEnd - groupStart;
      const newLen = newText.length;
      let p: number;
      let q: number;
      const known = replaced === null || merged ? null : (sameReplaced ?? ((replaced as ArrayLike<string>)[groupFirst] as string));
      if (known !== null && known.length !== oldLen) {
        throw new Error(`NormalizedText.spanEditsOf: [${groupStart}, ${groupEnd}) cannot hold the ${known.length} characters promised`);
      }
      if (known !== null && newText === trimmedFor && known === trimmedOld) {
        p = trimP;
        q = trimQ;
      } else {
        // Common prefix and suffix of the replaced text and the new text, never splitting a pair.
        const old = known ?? this.text;
        const at = known !== null ? 0 : groupStart;
        const last = at + oldLen - 1;
        const max = Math.min(oldLen, newLen);
        p = 0;
        while (p < max && old.charCodeAt(at + p) === newText.charCodeAt(p)) p++;
        if (p > 0 && isHighSurrogate(newText.charCodeAt(p - 1))) p--;
        q = 0;
        while (q < max - p && old.charCodeAt(last - q) === newText.charCodeAt(newLen - 1 - q)) q++;
        if (q > 0 && isLowSurrogate(newText.charCodeAt(newLen - q))) q--;
        if (known !== null) {
          trimmedOld = known;
          trimmedFor = newText;
          trimP = p;
          trimQ = q;
        }
      }
      if (oldLen - p - q === 0 && newLen - p - q === 0) continue;

      const from = groupStart + p;
      const to = groupEnd - q;
      while (crlfSeen < crlfAt.length && (crlfAt[crlfSeen] as number) < from) crlfSeen++;
      const start = from + bom + crlfSeen;
      while (crlfSeen < crlfAt.length && (crlfAt[crlfSeen] as number) < to) crlfSeen++;
      const end = to + bom + crlfSeen;

      if (newText !== lastNew || p !== lastP || q !== lastQ) {
        lastNew = newText;
        lastP = p;
        lastQ = q;
        lastTrimmed = withEol(p === 0 && q === 0 ? newText : newText.slice(p, newLen - q), eol);
      }
      let edited = lastTrimmed;
      if (crPossible) {
        // Keep a lone \r and a following \n from fusing into one CRLF break (which would merge two
        // lines): complete a lone \r before the edit into a CRLF when the edit starts with \n (or
        // deletes up to an untouched \n), and a new trailing \r before an untouched \n likewise.
        // The original has a \r before `start` only where the normalised text has a \n before
        // `from`, which is the trimmed prefix's last character when there is one (a cheap look
        // that spares reading the original at every edit).
        if ((p === 0 || newText.charCodeAt(p - 1) === LF) && original.charCodeAt(start - 1) === CR) {
          const first = edited.length > 0 ? edited.charCodeAt(0) : original.charCodeAt(end);
          if (first === LF) edited = '\n' + edited;
        }
        if (edited.charCodeAt(edited.length - 1) === CR && original.charCodeAt(end) === LF) edited += '\n';
      }
      edits[count++] = { start, end, newText: edited };
      // The new original's pieces, joined once at the end. (Grown as a rope and flattened to be
      // encoded for the disk: 125-170 ms instead of 40-58 for the 124 MB of a 4,118-file
      // replaceInFiles.) A text left a rope (ROPE_MAX_PARTS): the disk write (encodePieces), the diff
      // and the journal read it through its edits (EditedText), so it is never made flat and no
      // file's text is held twice.
      parts.push(original.slice(cursor, start), edited);
      cursor = end;
    }
    edits.length = count;
    if (count === 0) return { edits, newOriginal: original };
    parts.push(original.slice(cursor));
    const rope = length >= ROPE_MIN_CHARS && (parts.length <= ROPE_MAX_PARTS || length >= ROPE_PIECE_CHARS * parts.length);
    return { edits, newOriginal: rope ? parts.reduce((a, b) => a + b, '') : parts.join('') };
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
