// Owns the Claude-Code-style Edit: a strict exact replacement of old_string by new_string on the
// normalised text (no BOM, \n breaks), unique unless replace_all, mapped back to minimal span edits.

import { fail, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol } from '../text/normalizedText.js';
import { findClosest } from './closest.js';
import { closestHint, describeLines, lineNumbers, occurrences } from './matching.js';
import { MAX_RESULT_CHARS_CAP, resultTooLong } from './resultSize.js';

export interface EditArgs {
  oldString: string;
  newString: string;
  replaceAll: boolean;
  /** Longest result allowed (UTF-16 units, see resultSize.ts); longer is too_large, nothing built. */
  maxResultChars?: number;
}

export interface EditComputed {
  /** The whole file text after the edit (BOM and untouched line endings kept). */
  newText: string;
  /** Minimal edits against the original text. */
  edits: SpanEdit[];
  /** Number of occurrences replaced. */
  replacements: number;
}

export function computeEdit(text: string, args: EditArgs, file: string): Result<EditComputed> {
  if (args.oldString === '') {
    return fail('already_exists', `${file} already exists; give an old_string to edit it (an empty old_string only creates a new file)`);
  }
  const oldString = normalizeEol(args.oldString);
  const newString = normalizeEol(args.newString);
  if (oldString === newString) {
    return fail('no_change', `old_string and new_string are identical in ${file} (after line-ending normalisation); nothing to change`);
  }

  const doc = NormalizedText.from(text);
  // Without a line break, old_string matches the same characters in the text as it is (no match
  // can contain a \r or \n), so the \n view need not be built: offsets are mapped afterwards.
  const onBody = oldString.indexOf('\n') === -1;
  const starts = Int32Array.from(occurrences(onBody ? doc.body : doc.text, oldString));
  if (onBody) doc.bodyOffsetsToText(starts);
  const found = Array.from(starts);
  if (found.length === 0) {
    const closest = findClosest(doc.text, oldString);
    return fail(
      'not_found',
      `old_string not found in ${file}; ${closestHint(closest)}`,
      closest === undefined ? undefined : { closest },
    );
  }
  if (found.length > 1 && !args.replaceAll) {
    const lines = lineNumbers(doc.text, found);
    return fail(
      'ambiguous',
      `old_string matched ${found.length} times in ${file} (${describeLines(lines, found.length)}); add surrounding context or set replace_all`,
      { count: found.length, lines },
    );
  }

  // The result's length before it is built (a lower bound of the text with its own line endings).
  const tooLong = resultTooLong(file, doc.length + found.length * (newString.length - oldString.length), args.maxResultChars ?? MAX_RESULT_CHARS_CAP, `replacing ${found.length} occurrence${found.length === 1 ? '' : 's'}`);
  if (tooLong) return tooLong;
  const ends = found.map((start) => start + oldString.length);
  // Every range holds exactly oldString (an indexOf scan found it there).
  const { edits, newOriginal } = doc.spanEditsOf(found, ends, newString, { replaced: oldString });
  return { ok: true, newText: newOriginal, edits, replacements: found.length };
}
