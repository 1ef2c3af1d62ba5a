// Owns applying several rounds of replacements in sequence to a normalised text. A piece table
// remembers which spans are still original, so the net change comes back as replacements against
// the original text that touch only what actually changed.

import type { NormReplacement } from './normalizedText.js';

/** A run of the original text ([start, end)) or, when `text` is not null, inserted text. */
interface Piece {
  start: number;
  end: number;
  text: string | null;
}

function pieceLength(p: Piece): number {
  return p.text === null ? p.end - p.start : p.text.length;
}

export class EditSequence {
  private readonly original: string;
  private pieces: Piece[];
  private cached: string | undefined;

  constructor(normalizedOriginal: string) {
    this.original = normalizedOriginal;
    this.pieces = normalizedOriginal.length > 0 ? [{ start: 0, end: normalizedOriginal.length, text: null }] : [];
    this.cached = normalizedOriginal;
  }

  /** The current text (cached; rebuilt only after a change). */
  get text(): string {
    if (this.cached === undefined) {
      const parts: string[] = new Array<string>(this.pieces.length);
      for (let i = 0; i < this.pieces.length; i++) {
        const p = this.pieces[i] as Piece;
        parts[i] = p.text ?? this.original.slice(p.start, p.end);
      }
      this.cached = parts.join('');
    }
    return this.cached;
  }

  /** Applies non-overlapping replacements whose offsets refer to the CURRENT text, in one linear pass. */
  replaceAll(replacements: readonly NormReplacement[]): void {
    if (replacements.length === 0) return;
    const reps = sortedReplacements(replacements);
    const old = this.pieces;
    const out: Piece[] = [];
    const total = this.text.length;

    let pi = 0; // index of the old piece containing `cursor`
    let pieceStart = 0; // current-text offset where old[pi] starts
    let cursor = 0; // current-text offset copied or skipped so far

    const push = (p: Piece): void => {
      const last = out[out.length - 1];
      if (last !== undefined) {
        if (p.text === null && last.text === null && last.end === p.start) {
          last.end = p.end;
          return;
        }
        if (p.text !== null && last.text !== null) {
          last.text += p.text;
          return;
        }
      }
      out.push(p);
    };

    const copyTo = (target: number): void => {
      while (cursor < target) {
        const piece = old[pi] as Piece;
        const len = pieceLength(piece);
        const pieceEnd = pieceStart + len;
        if (pieceEnd <= cursor) {
          pi++;
          pieceStart = pieceEnd;
          continue;
        }
        const from = cursor - pieceStart;
        const to = Math.min(target, pieceEnd) - pieceStart;
        if (piece.text === null) push({ start: piece.start + from, end: piece.start + to, text: null });
        else push({ start: 0, end: 0, text: from === 0 && to === len ? piece.text : piece.text.slice(from, to) });
        cursor = pieceStart + to;
      }
    };

    let prevEnd = 0;
    for (const r of reps) {
      if (r.start < prevEnd || r.end < r.start || r.end > total || r.start < 0) {
        throw new Error(`EditSequence.replaceAll: bad or overlapping replacement [${r.start}, ${r.end})`);
      }
      prevEnd = r.end;
      copyTo(r.start);
      if (r.text.length > 0) push({ start: 0, end: 0, text: r.text });
      cursor = r.end;
    }
    copyTo(total);
    this.pieces = out;
    this.cached = undefined;
  }

  /** The net change as non-overlapping replacements against the ORIGINAL text, in order. */
  toReplacements(): NormReplacement[] {
    const result: NormReplacement[] = [];
    let origCursor = 0;
    let pending = '';
    for (const p of this.pieces) {
      if (p.text !== null) {
        pending += p.text;
        continue;
      }
      if (p.start > origCursor || pending.length > 0) {
        result.push({ start: origCursor, end: p.start, text: pending });
      }
      pending = '';
      origCursor = p.end;
    }
    if (origCursor < this.original.length || pending.length > 0) {
      result.push({ start: origCursor, end: this.original.length, text: pending });
    }
    return result;
  }
}

function sortedReplacements(rs: readonly NormReplacement[]): readonly NormReplacement[] {
  for (let i = 1; i < rs.length; i++) {
    const a = rs[i - 1] as NormReplacement;
    const b = rs[i] as NormReplacement;
    if (b.start < a.start || (b.start === a.start && b.end < a.end)) {
      return [...rs].sort((x, y) => x.start - y.start || x.end - y.end);
    }
  }
  return rs;
}
