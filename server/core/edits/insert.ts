// Owns editls.insert's computation (the text editor tools' `insert`): new lines after a 1-based line
// (0 = before the first), as whole lines in the file's dominant line ending, the BOM and every
// untouched ending kept.

import { fail, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol } from '../text/normalizedText.js';

export interface InsertComputed {
  newText: string;
  edits: SpanEdit[];
  replacements: number;
  /** The inserted lines in the new text, 1-based and inclusive. */
  insertedLines: { startLine: number; endLine: number };
}

/** Lines as editors count them: a final line break ends the last line, it does not start another. */
export function lineCountOf(normalized: string): number {
  if (normalized === '') return 0;
  let n = 0;
  for (let i = normalized.indexOf('\n'); i !== -1; i = normalized.indexOf('\n', i + 1)) n++;
  return normalized.endsWith('\n') ? n : n + 1;
}

/**
 * Inserts `newStr` after line `insertLine` (0 = at the start, the line count = at the end). `newStr`
 * is made whole lines: a missing final line break is added, except at the end of a file that has no
 * final line break, where the break goes before the new lines and the file still ends without one
 * (unless the last new line is empty).
 */
export function computeInsert(text: string, insertLine: number, newStr: string, file: string): Result<InsertComputed> {
  if (newStr === '') return fail('invalid_args', `new_str is empty; give the lines to insert into ${file}`);
  const doc = NormalizedText.from(text);
  const t = doc.text;
  const lineCount = lineCountOf(t);
  if (!Number.isInteger(insertLine)) return fail('invalid_args', 'insert_line must be a whole number');
  if (insertLine < 0) {
    return fail('invalid_range', `insert_line ${insertLine} is negative; use 0 to insert before the first line of ${file}`, { lineCount });
  }
  if (insertLine > lineCount) {
    return fail(
      'invalid_range',
      `insert_line ${insertLine} is past the end of ${file}, which has ${lineCount} line${lineCount === 1 ? '' : 's'}; use ${lineCount} to insert at the end`,
      { lineCount },
    );
  }

  let lines = normalizeEol(newStr);
  if (!lines.endsWith('\n')) lines += '\n';
  const newLineCount = lineCountOf(lines);
  let offset: number;
  let inserted: string;
  if (insertLine === 0) {
    offset = 0;
    inserted = lines;
  } else if (insertLine === lineCount && !t.endsWith('\n')) {
    // After a last line without a line break: the break goes first, and the file keeps ending without
    // one — unless the last new line is empty, which only a final break can express.
    offset = t.length;
    const withoutFinal = lines.slice(0, -1);
    inserted = withoutFinal === '' || withoutFinal.endsWith('\n') ? `\n${lines}` : `\n${withoutFinal}`;
  } else {
    offset = nthLineEnd(t, insertLine);
    inserted = lines;
  }
  const { edits, newOriginal } = doc.spanEdits([{ start: offset, end: offset, text: inserted }]);
  return {
    ok: true,
    newText: newOriginal,
    edits,
    replacements: 1,
    insertedLines: { startLine: insertLine + 1, endLine: insertLine + newLineCount },
  };
}

/** The offset just after the `n`th line break (1-based) of a \n text. */
function nthLineEnd(t: string, n: number): number {
  let at = -1;
  for (let k = 0; k < n; k++) at = t.indexOf('\n', at + 1);
  return at + 1;
}
