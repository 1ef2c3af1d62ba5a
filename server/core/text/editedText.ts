// A text given as an original and the span edits that change it, read without building it: its
// length, its pieces (to encode or hash it piece by piece), a slice, a character, the next match of
// one character, equality with a string. V8 makes a string built by concatenation flat the first
// time anything reads it: for a 50 MB file holding one non-ASCII character that is 100 MB more, so
// the disk write, the journal's digest and the result's diff of an edit read the new text through
// this instead (issue 30, item 3).
import type { SpanEdit } from './spanEdit.js';

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

export class EditedText {
  readonly length: number;
  /** The pieces in order (none empty), and where each starts in the edited text. */
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  /** The piece the last lookup found (reads tend to stay near each other). */
  private last = 0;

  /**
   * `edits` are offsets into `before`, non-overlapping (in any order). Throws on overlapping or
   * out-of-range edits, as applying them would. (Edits come sorted: they are sorted only when they
   * are not, and the pieces are added as they are cut: 100,000 edits took ~95 ms, ~50 ms now.)
   */
  constructor(before: string, edits: readonly SpanEdit[]) {
    const sorted = inOrder(edits) ? edits : [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
    let at = 0;
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i]!;
      if (e.start < at || e.end < e.start || e.end > before.length) throw new Error(`EditedText: bad or overlapping edit [${e.start}, ${e.end})`);
      this.add(before.slice(at, e.start));
      this.add(e.newText);
      at = e.end;
    }
    this.add(before.slice(at));
    const n = this.parts.length;
    this.length = n === 0 ? 0 : this.starts[n - 1]! + this.parts[n - 1]!.length;
  }

  /**
   * Appends a piece (none empty). No piece ends in the first half of a surrogate pair that the next
   * piece completes: encoded on its own, each half would become U+FFFD. The pair is moved into a
   * piece of its own.
   */
  private add(p: string): void {
    if (p === '') return;
    const { parts, starts } = this;
    const n = parts.length;
    const at = n === 0 ? 0 : starts[n - 1]! + parts[n - 1]!.length;
    if (n > 0 && isLow(p.charCodeAt(0))) {
      const prev = parts[n - 1]!;
      if (isHigh(prev.charCodeAt(prev.length - 1))) {
        const from = starts[n - 1]!;
        parts.pop();
        starts.pop();
        let length = from;
        for (const q of [prev.slice(0, -1), prev.slice(-1) + p.charAt(0), p.slice(1)]) {
          if (q === '') continue;
          parts.push(q);
          starts.push(length);
          length += q.length;
        }
        return;
      }
    }
    parts.push(p);
    starts.push(at);
  }

  /** The pieces in order: slices of the original and the edits' new texts. */
  pieces(): readonly string[] {
    return this.parts;
  }

  /** The index of the piece holding offset `i` (0 <= i < length). */
  private pieceAt(i: number): number {
    const { starts, parts } = this;
    const k = this.last;
    if (k < parts.length && starts[k]! <= i && i < starts[k]! + parts[k]!.length) return k;
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    this.last = lo;
    return lo;
  }

  charCodeAt(i: number): number {
    if (!(i >= 0 && i < this.length)) return NaN;
    const k = this.pieceAt(i);
    return this.parts[k]!.charCodeAt(i - this.starts[k]!);
  }

  /** The edited text's [start, end) (clamped, as String.prototype.slice with non-negative bounds). */
  slice(start = 0, end = this.length): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (from === to) return '';
    let out = '';
    for (let k = this.pieceAt(from); k < this.parts.length && this.starts[k]! < to; k++) {
      const s = this.starts[k]!;
      out += this.parts[k]!.slice(Math.max(0, from - s), to - s);
    }
    return out;
  }

  /** The first offset >= `from` of `char` (one UTF-16 unit), or -1. */
  indexOf(char: string, from = 0): number {
    if (char.length !== 1) throw new Error('EditedText.indexOf looks for one character');
    if (from >= this.length) return -1;
    for (let k = this.pieceAt(Math.max(0, from)); k < this.parts.length; k++) {
      const s = this.starts[k]!;
      const found = this.parts[k]!.indexOf(char, Math.max(0, from - s));
      if (found !== -1) return s + found;
    }
    return -1;
  }

  /** Whether `text` is this text (compared piece by piece: neither is made flat). */
  equals(text: string): boolean {
    if (text.length !== this.length) return false;
    return this.parts.every((p, k) => text.startsWith(p, this.starts[k]));
  }
}

/**
 * From this many UTF-16 units a new text is kept a rope of pieces (NormalizedText.spanEditsOf) and
 * read through its edits (throughEdits); a shorter one is joined flat and read as it is. 4 KiB: a
 * replaceInFiles of thousands of files then holds the old texts and their edits, not a second copy
 * of every changed file (20,000 files, 124 MB changed: peak RSS growth 412–414 -> 310–321 MB, measured);
 * below it the pieces would cost more than the text.
 */
export const ROPE_MIN_CHARS = 1 << 12;

/**
 * `after` (the text `edits` make of `before`) read through the edits, so that a large one is never
 * made flat; `after` itself when it is shorter than ROPE_MIN_CHARS (flat already: reading it is
 * cheaper than rebuilding its pieces, on replaceInFiles' path of thousands of files), or when the
 * edits do not account for it (they always should: the check is its length) or are not valid.
 */
export function throughEdits(before: string, edits: readonly SpanEdit[], after: string): string | EditedText {
  if (after.length < ROPE_MIN_CHARS) return after;
  const known = readThrough.get(edits);
  if (known !== undefined && known.before === before && known.edited.length === after.length) return known.edited;
  try {
    const edited = new EditedText(before, edits);
    if (edited.length !== after.length) return after;
    readThrough.set(edits, { before, edited });
    return edited;
  } catch {
    return after;
  }
}

/**
 * The EditedText each edits array was read through (throughEdits), while the array lives: one change's
 * new text is read several times (the disk write, the undo journal's digest, the result's diff and
 * size check), each of which made it again (100,000 edits: ~50 ms each). The entry holds `before`
 * (its pieces are slices of it): no one keeps an edits array past its texts (the journal keeps copies
 * of the replaced spans, not the edits).
 */
const readThrough = new WeakMap<readonly SpanEdit[], { before: string; edited: EditedText }>();

/** Whether edits are sorted as the constructor needs them (by start, then end). */
function inOrder(edits: readonly SpanEdit[]): boolean {
  for (let i = 1; i < edits.length; i++) {
    const a = edits[i - 1]!;
    const b = edits[i]!;
    if (a.start > b.start || (a.start === b.start && a.end > b.end)) return false;
  }
  return true;
}

/** A text's pieces: the text, or an EditedText's pieces. */
export function piecesOf(text: string | EditedText): readonly string[] {
  return typeof text === 'string' ? [text] : text.pieces();
}
