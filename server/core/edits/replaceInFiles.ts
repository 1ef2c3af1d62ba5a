// Owns the pure parts of editls.replaceInFiles: which literal (if any) may prefilter the candidate
// files through ripgrep without ever skipping a file the JavaScript search would match, the
// preserve-case rewrite of a scan's replacements, and what one file's text comes to (`settleReplace`:
// the command's matching and workspace/search/literalChange.ts' text path share it).

import type { Failure } from '../result.js';
import { normalizeEol } from '../text/normalizedText.js';
import type { SpanEdit } from '../text/spanEdit.js';
import type { ScanReply } from './regexScan.js';
import { finishSearchAndReplace, type PreparedSearch } from './searchAndReplace.js';
import { preserveCase } from './preserveCase.js';

/** What one file's text comes to under a replaceInFiles. */
export type TextReplaced =
  | { kind: 'changed'; newText: string; edits: SpanEdit[]; replacements: number }
  | { kind: 'unchanged' }
  /** Left out of the command (named in its `skipped` list). */
  | { kind: 'too_large'; reason: string }
  | { kind: 'failed'; failure: Failure };

/**
 * The change a scan's reply makes of a prepared text (prepared with maxOutput `maxFileSize`):
 * replacements in the match's case shape with `preserve`; a result over `maxFileSize` characters
 * is too_large (the file is skipped).
 */
export function settleReplace(prepared: PreparedSearch, scanned: ScanReply, preserve: boolean, maxFileSize: number): TextReplaced {
  const reply = preserve ? withPreservedCase(prepared, scanned) : scanned;
  const done = finishSearchAndReplace(prepared, reply);
  if (!done.ok) return done.kind === 'too_large' ? { kind: 'too_large', reason: `too_large: ${done.message}` } : { kind: 'failed', failure: done };
  if (done.edits.length === 0) return { kind: 'unchanged' };
  if (done.newText.length > maxFileSize) return { kind: 'too_large', reason: `too_large: the result would be ${done.newText.length} characters, over maxFileSize (${maxFileSize})` };
  return { kind: 'changed', newText: done.newText, edits: done.edits, replacements: done.replacements };
}

export interface LiteralPrefilter {
  /** A fixed string every matching file contains (ripgrep `-F`). */
  text: string;
  /** ripgrep `-i`: only for ASCII text, where ripgrep's case folding accepts everything JavaScript's `i` does. */
  ignoreCase: boolean;
}

/**
 * A literal every file the search matches must contain, or undefined (then every candidate file is
 * read). Exact for literal searches: the longest line of the search (matching runs on \n-normalised
 * text, ripgrep on the bytes, so a search spanning lines is narrowed by one of its lines). A regex
 * is never narrowed. A case-insensitive search is narrowed only when it is ASCII: JavaScript's `i`
 * (without `u`) never matches a non-ASCII character to an ASCII one, and ripgrep's Unicode case
 * folding accepts a superset of what it does match.
 */
export function literalPrefilter(search: string, useRegex: boolean, ignoreCase: boolean): LiteralPrefilter | undefined {
  if (useRegex) return undefined;
  let longest = '';
  for (const line of normalizeEol(search).split('\n')) if (line.length > longest.length) longest = line;
  if (longest === '') return undefined;
  if (ignoreCase && !/^[\x00-\x7f]*$/.test(longest)) return undefined;
  return { text: longest, ignoreCase };
}

/** The scan's replacements rewritten to take each match's case shape (VS Code's preserve case). */
export function withPreservedCase(prepared: PreparedSearch, reply: ScanReply): ScanReply {
  if (!reply.ok || reply.count === 0) return reply;
  const { job } = prepared;
  const texts: string[] = new Array(reply.count);
  let previous: { matched: string; replacement: string; out: string } | undefined;
  for (let i = 0; i < reply.count; i++) {
    const matched = reply.matched?.[i] ?? (prepared.usesRegex ? job.text.slice(reply.starts[i], reply.ends[i]) : job.source);
    const replacement = reply.texts?.[i] ?? job.replacement;
    // Runs of equal matches share one string.
    if (previous === undefined || previous.matched !== matched || previous.replacement !== replacement) {
      previous = { matched, replacement, out: preserveCase(matched, replacement) };
    }
    texts[i] = previous.out;
  }
  return { ...reply, texts };
}
