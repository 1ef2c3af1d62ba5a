// The one edit shape core produces: a replacement of [start, end) in a text, offsets counted in
// UTF-16 code units of that exact text (BOM character and CR characters included when present).

export interface SpanEdit {
  /** Inclusive start offset (UTF-16 code units) into the text the edit was computed on. */
  start: number;
  /** Exclusive end offset; equal to start for an insertion. */
  end: number;
  /** Replacement text, already carrying the file's line endings. */
  newText: string;
}

/** Applies non-overlapping span edits (any order) to a text; throws on overlap or out-of-range misuse. */
export function applySpanEdits(text: string, edits: readonly SpanEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let cursor = 0;
  for (const e of sorted) {
    if (e.start < cursor || e.end < e.start || e.end > text.length) {
      throw new Error(`applySpanEdits: bad or overlapping edit [${e.start}, ${e.end}) at cursor ${cursor}`);
    }
    out += text.slice(cursor, e.start) + e.newText;
    cursor = e.end;
  }
  return out + text.slice(cursor);
}
