// Owns the Claude-Code-style Edit: a strict exact replacement of old_string by new_string on the
// normalised text (no BOM, \n breaks), unique unless replace_all, mapped back to minimal span edits;
// an empty old_string fills a file only when it is empty.

import { fail, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol } from '../text/normalizedText.js';
import { findCandidates } from './closest.js';
import { stripLineNumbers, type PrefixReport } from './lineNumberPrefixes.js';
import { closestData, closestHint, describeLines, lineNumbers, occurrences } from './matching.js';
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
  /** Result fields beyond the common ones: line-number prefixes removed from old_string/new_string. */
  extra?: PrefixReport;
}

export function computeEdit(text: string, args: EditArgs, file: string): Result<EditComputed> {
  if (args.oldString === '') return fillEmpty(text, args.newString, file);
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
    const numbered = stripLineNumbers(oldString);
    if (numbered !== undefined && numbered.text.trim() !== '') {
      const at = occurrences(doc.text, numbered.text);
      if (at.length === 1) {
        // Lines copied with their line numbers (a searchFiles or numbered read): the text without them, found once.
        const neu = newString === '' ? undefined : stripLineNumbers(newString, numbered.style);
        const { edits, newOriginal } = doc.spanEditsOf(at, [(at[0] as number) + numbered.text.length], neu?.text ?? newString, { replaced: numbered.text });
        return { ok: true, newText: newOriginal, edits, replacements: 1, extra: { lineNumberPrefixes: numbered.style, strippedFromNew: neu !== undefined } };
      }
    }
    const candidates = findCandidates(doc.text, oldString);
    return fail('not_found', `old_string not found in ${file}; ${closestHint(candidates)}`, closestData(candidates));
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

/**
 * An empty old_string on an existing file: only a file with no text at all (a BOM alone counts as
 * none) is filled with new_string, so content is never overwritten.
 */
function fillEmpty(text: string, newString: string, file: string): Result<EditComputed> {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (text.length > bom) {
    return fail('already_exists', `${file} already exists and is not empty; give an old_string to edit it (an empty old_string only creates a new file or fills an empty one)`);
  }
  if (newString === '') return fail('no_change', `${file} is already empty and new_string is empty; nothing to change`);
  return { ok: true, newText: text + newString, edits: [{ start: bom, end: bom, newText: newString }], replacements: 1 };
}
