// Owns the pure parts of editls.replaceInFiles: which literal (if any) may prefilter the candidate
// files through ripgrep without ever skipping a file the JavaScript search would match, and the
// preserve-case rewrite of a scan's replacements.

import { normalizeEol } from '../text/normalizedText.js';
import type { ScanReply } from './regexScan.js';
import type { PreparedSearch } from './searchAndReplace.js';
import { preserveCase } from './preserveCase.js';

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
