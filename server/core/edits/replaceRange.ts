// Owns editls.replaceRange's computation: a guarded replace of an exact range given as 1-based lines
// and 1-based UTF-16 columns (exclusive end, counted after a BOM) on the text as it is — expectedText
// compared without normalisation — refused when the range is invalid or no longer holds that text.

import { fail, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { LineIndex } from '../text/positions.js';
import { positionsAt } from '../text/sparsePositions.js';
import { NormalizedText } from '../text/normalizedText.js';
import { MAX_RESULT_CHARS_CAP, resultTooLong } from './resultSize.js';

/** A range in replaceRange's conventions: 1-based lines, 1-based UTF-16 columns, exclusive end. */
export interface LineColumnRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface ReplaceRangeArgs extends LineColumnRange {
  expectedText: string;
  replacementText: string;
  /** Longest result allowed (UTF-16 units, see resultSize.ts); longer is too_large, nothing built. */
  maxResultChars?: number;
}

export interface ReplaceRangeComputed {
  newText: string;
  /** Minimal edits (trimmed on the \n view, never inside a CRLF or a surrogate pair), none for an identical replacement. */
  edits: SpanEdit[];
  replacements: number;
  oldRange: LineColumnRange;
  /** Where the replacement text sits in the new text. */
  newRange: LineColumnRange;
  wouldChange: boolean;
}

const CR = 13;
const LF = 10;
const BOM = 0xfeff;

export function computeReplaceRange(text: string, args: ReplaceRangeArgs, file: string): Result<ReplaceRangeComputed> {
  const bom = text.length > 0 && text.charCodeAt(0) === BOM ? 1 : 0;
  const index = new LineIndex(text);
  const { startLine, startColumn, endLine, endColumn } = args;
  const at = (what: 'start' | 'end', line: number, column: number): Result<{ offset: number }> => {
    const name = `${what} ${line}:${column}`;
    if (!Number.isInteger(line) || !Number.isInteger(column)) return fail('invalid_args', `${what}Line and ${what}Column must be whole numbers`);
    if (line < 1) return fail('invalid_range', `${name}: line ${line} is before the first line of ${file}; lines are 1-based`);
    if (column < 1) return fail('invalid_range', `${name}: column ${column} is not a position; columns are 1-based (column 1 is before the first character)`);
    if (line > index.lineCount) {
      return fail('invalid_range', `${name}: line ${line} is past the end of ${file}, which has ${index.lineCount} line${index.lineCount === 1 ? '' : 's'}; re-read the file`, {
        lineCount: index.lineCount,
      });
    }
    const lineStart = index.lineStart(line - 1) + (line === 1 ? bom : 0);
    const lineEnd = index.lineEnd(line - 1);
    const offset = lineStart + column - 1;
    if (offset > lineEnd) {
      const crlf = text.charCodeAt(lineEnd) === CR && text.charCodeAt(lineEnd + 1) === LF;
      if (crlf && offset === lineEnd + 1) {
        return fail('invalid_range', `${name} falls inside the CRLF line break of line ${line} in ${file}; the line ends at column ${lineEnd - lineStart + 1}`);
      }
      return fail('invalid_range', `${name}: column ${column} is past the end of line ${line} in ${file}, which ends at column ${lineEnd - lineStart + 1} (UTF-16 units)`, {
        lineLength: lineEnd - lineStart,
      });
    }
    if (insidePair(text, offset)) {
      return fail('invalid_range', `${name} falls inside a surrogate pair (an emoji or other astral character) on line ${line} in ${file}; columns count UTF-16 units, so such a character is 2 columns wide`);
    }
    return { ok: true, offset };
  };
  const start = at('start', startLine, startColumn);
  if (!start.ok) return start;
  const end = at('end', endLine, endColumn);
  if (!end.ok) return end;
  const shown = `${startLine}:${startColumn}-${endLine}:${endColumn}`;
  if (end.offset < start.offset) return fail('invalid_range', `the end ${endLine}:${endColumn} is before the start ${startLine}:${startColumn} in ${file}`);
  if (end.offset === start.offset) {
    return fail('invalid_range', `the range ${shown} in ${file} is empty; replaceRange replaces existing text: include the neighbouring text in expectedText and replacementText`);
  }

  const actual = text.slice(start.offset, end.offset);
  if (actual !== args.expectedText) {
    return fail('stale', `the text at ${shown} in ${file} is not expectedText (${describeDifference(args.expectedText, actual)}); re-read the file and retry with the current text`, {
      actual,
    });
  }

  // The replacement goes in like every command's new text: compared and trimmed on the \n view, its
  // line breaks in the file's dominant ending, so untouched breaks inside the range keep theirs.
  // A lower bound of the result's length (a CRLF in the replacement may become one \n), before it is built.
  let crlfs = 0;
  for (let i = args.replacementText.indexOf('\r\n'); i !== -1; i = args.replacementText.indexOf('\r\n', i + 2)) crlfs++;
  const tooLong = resultTooLong(file, text.length - (end.offset - start.offset) + args.replacementText.length - crlfs, args.maxResultChars ?? MAX_RESULT_CHARS_CAP, 'the replacement');
  if (tooLong) return tooLong;
  const doc = NormalizedText.from(text);
  const { edits, newOriginal } = doc.spanEdits([{ start: normOffset(text, start.offset, bom), end: normOffset(text, end.offset, bom), text: args.replacementText }]);
  const oldRange: LineColumnRange = { startLine, startColumn, endLine, endColumn };
  // Text after the range is untouched, so the replacement now spans [start, end + growth).
  const newEnd = end.offset + newOriginal.length - text.length;
  const [ps, pe] = positionsAt(newOriginal, [start.offset, newEnd], 'utf-16') as [{ line: number; character: number }, { line: number; character: number }];
  const newRange: LineColumnRange = {
    startLine: ps.line + 1,
    startColumn: ps.character + 1 - (ps.line === 0 ? bom : 0),
    endLine: pe.line + 1,
    endColumn: pe.character + 1 - (pe.line === 0 ? bom : 0),
  };
  if (edits.length === 0) return { ok: true, newText: text, edits: [], replacements: 0, oldRange, newRange, wouldChange: false };
  return { ok: true, newText: newOriginal, edits, replacements: 1, oldRange, newRange, wouldChange: true };
}

/** The offset in the BOM-less \n view of an original offset that is not inside a CRLF. */
function normOffset(text: string, offset: number, bom: number): number {
  let crlf = 0;
  for (let i = text.indexOf('\r\n'); i !== -1 && i < offset; i = text.indexOf('\r\n', i + 2)) crlf++;
  return offset - bom - crlf;
}

function insidePair(t: string, offset: number): boolean {
  const low = t.charCodeAt(offset);
  const high = t.charCodeAt(offset - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
}

/** A short hint on how expectedText differs from the actual text (line endings are the usual culprit). */
function describeDifference(expected: string, actual: string): string {
  if (expected.replace(/\r\n?/g, '\n') === actual.replace(/\r\n?/g, '\n')) return 'they differ only in line endings: expectedText must match exactly, \\r\\n included';
  if (expected.trim() === actual.trim()) return 'they differ in leading or trailing whitespace';
  return `expected ${expected.length} characters, found ${actual.length}; the actual text is in data.actual`;
}
