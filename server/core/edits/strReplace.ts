// Owns the Codebuff-style str_replace: ordered replacements, each matched on the result of the
// previous one by exact text, then uniform added indentation, then whitespace-insensitively, with
// per-entry failures that either let the others apply or (atomic) stop everything.

import { fail, type ErrorKind, type Failure, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol, type NormReplacement } from '../text/normalizedText.js';
import { EditSequence } from '../text/editSequence.js';
import { findClosest } from './closest.js';
import { closestHint, describeLines, lineNumbers, occurrences } from './matching.js';
import { MAX_RESULT_CHARS_CAP, resultTooLong } from './resultSize.js';

export interface StrReplaceEntry {
  old: string;
  new: string;
  allowMultiple: boolean;
}

export type MatchTier = 'exact' | 'indentation' | 'whitespace';

export interface ReplacementFailure {
  /** 0-based index into the entries. */
  index: number;
  kind: ErrorKind;
  message: string;
  data?: Record<string, unknown>;
}

export interface StrReplaceComputed {
  newText: string;
  edits: SpanEdit[];
  /** Places whose text actually changed, over all applied entries. */
  replacements: number;
  /** One per entry that applied: how it matched and how many places it matched. */
  details: { index: number; matchedBy: MatchTier; count: number }[];
  failedReplacements: ReplacementFailure[];
}

/** Indentation prefixes tried by tier 2, in order. */
const INDENT_PREFIXES: readonly string[] = [
  ...Array.from({ length: 12 }, (_, i) => ' '.repeat(i + 1)),
  ...Array.from({ length: 6 }, (_, i) => '\t'.repeat(i + 1)),
];

export function computeStrReplace(
  text: string,
  entries: readonly StrReplaceEntry[],
  atomic: boolean,
  file: string,
  /** Longest result allowed (UTF-16 units, see resultSize.ts); an entry that would pass it makes the command too_large. */
  maxResultChars: number = MAX_RESULT_CHARS_CAP,
): Result<StrReplaceComputed> {
  if (entries.length === 0) {
    return fail('invalid_args', `no replacements given for ${file}; pass at least one {old, new} entry`);
  }
  const doc = NormalizedText.from(text);
  const seq = new EditSequence(doc.text);
  const details: StrReplaceComputed['details'] = [];
  const failures: ReplacementFailure[] = [];
  let replacements = 0;
  let tooLarge: Failure | undefined;

  entries.forEach((entry, index) => {
    if (tooLarge) return;
    const label = `replacements[${index}].old`;
    const oldText = normalizeEol(entry.old);
    const newText = normalizeEol(entry.new);
    if (oldText.trim() === '') {
      failures.push({
        index,
        kind: 'not_found',
        message: `${label} is empty or only whitespace and never matches in ${file}; give the text to replace`,
      });
      return;
    }
    const current = seq.text;
    let matchedBy: MatchTier = 'exact';
    // Exact places are counted before any replacement object is made: an entry that would grow the
    // text past the limit is refused while it is still a list of numbers.
    const exact = occurrences(current, oldText);
    if (exact.length === 1 || (exact.length > 1 && entry.allowMultiple)) {
      tooLarge = resultTooLong(file, current.length + exact.length * (newText.length - oldText.length), maxResultChars, `replacements[${index}] (${exact.length} place${exact.length === 1 ? '' : 's'})`);
      if (tooLarge) return;
    }
    let matches = exact.map((start) => ({ start, end: start + oldText.length, text: newText }));
    if (matches.length === 0) {
      matchedBy = 'indentation';
      matches = findIndented(current, oldText, newText);
    }
    if (matches.length === 0) {
      matchedBy = 'whitespace';
      matches = findIgnoringWhitespace(current, oldText, newText);
    }
    if (matches.length === 0) {
      const closest = findClosest(current, oldText);
      const failure: ReplacementFailure = { index, kind: 'not_found', message: `${label} not found in ${file}; ${closestHint(closest)}` };
      if (closest !== undefined) failure.data = { closest };
      failures.push(failure);
      return;
    }
    if (matches.length > 1 && !entry.allowMultiple) {
      const lines = lineNumbers(current, matches.map((m) => m.start));
      const how = matchedBy === 'exact' ? '' : ` (${matchedBy} match)`;
      failures.push({
        index,
        kind: 'ambiguous',
        message: `${label} matched ${matches.length} times${how} in ${file} (${describeLines(lines, matches.length)}); add surrounding context or set allowMultiple`,
        data: { count: matches.length, lines, matchedBy },
      });
      return;
    }
    // The length after this entry, before it is built (a lower bound of the text with its own endings).
    let grown = current.length;
    for (const m of matches) grown += m.text.length - (m.end - m.start);
    tooLarge = resultTooLong(file, grown, maxResultChars, `replacements[${index}] (${matches.length} place${matches.length === 1 ? '' : 's'})`);
    if (tooLarge) return;
    for (const m of matches) {
      if (current.slice(m.start, m.end) !== m.text) replacements++;
    }
    seq.replaceAll(matches);
    details.push({ index, matchedBy, count: matches.length });
  });

  if (tooLarge) return tooLarge;
  const first = failures[0];
  if (first !== undefined && (atomic || details.length === 0)) {
    const why = atomic && details.length > 0 ? ' (atomic: nothing was applied)' : '';
    return fail(first.kind, `${first.message}${why}`, { ...first.data, failedReplacements: failures });
  }

  const { edits, newOriginal } = doc.spanEdits(seq.toReplacements());
  if (edits.length === 0) {
    if (first !== undefined) {
      return fail('no_change', `the replacements that matched leave ${file} unchanged and ${failures.length} failed; first failure: ${first.message}`, {
        failedReplacements: failures,
      });
    }
    return fail('no_change', `the replacements leave ${file} unchanged (each new text equals what it matched); nothing to change`);
  }
  return { ok: true, newText: newOriginal, edits, replacements, details, failedReplacements: failures };
}

function indentLines(s: string, prefix: string): string {
  return s
    .split('\n')
    .map((line) => (line.length > 0 ? prefix + line : line))
    .join('\n');
}

/**
 * Tier 2: old with a uniform prefix (1-12 spaces, then 1-6 tabs) on every non-empty line, starting at
 * a line start; new gets the same prefix. Matches of all prefixes are collected (overlaps dropped).
 */
function findIndented(text: string, oldText: string, newText: string): NormReplacement[] {
  const anchored = !oldText.startsWith('\n');
  const found: NormReplacement[] = [];
  for (const prefix of INDENT_PREFIXES) {
    const needle = indentLines(oldText, prefix);
    let replacement: string | undefined;
    let i = text.indexOf(needle);
    while (i !== -1) {
      if (anchored && i > 0 && text.charCodeAt(i - 1) !== 10) {
        i = text.indexOf(needle, i + 1);
        continue;
      }
      replacement ??= indentLines(newText, prefix);
      found.push({ start: i, end: i + needle.length, text: replacement });
      i = text.indexOf(needle, i + needle.length);
    }
  }
  found.sort((a, b) => a.start - b.start);
  const kept: NormReplacement[] = [];
  for (const m of found) {
    const last = kept[kept.length - 1];
    if (last === undefined || m.start >= last.end) kept.push(m);
  }
  return kept;
}

/** JavaScript's \s, as char codes. */
function isWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function stripWhitespace(s: string): string {
  return s.replace(/\s+/g, '');
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Position just after the k-th \n of `s` (k >= 1), or 0 when k is 0. */
function afterNthBreak(s: string, k: number): number {
  let pos = 0;
  for (let n = 0; n < k; n++) pos = s.indexOf('\n', pos) + 1;
  return pos;
}

/** Position of the k-th \n counted from the end of `s` (k >= 1), or s.length when k is 0. */
function atNthBreakFromEnd(s: string, k: number): number {
  let pos = s.length;
  for (let n = 0; n < k; n++) pos = s.lastIndexOf('\n', pos - 1);
  return pos;
}

/**
 * Tier 3: compare with all whitespace removed and map each match back to the span from its first to
 * its last non-whitespace character. Line breaks that old had around its text (and so fall outside
 * that span) are dropped from the matching ends of new; when old began with indentation and the span
 * is preceded on its line only by whitespace, the span starts at the line start so new's own
 * indentation is used.
 */
function findIgnoringWhitespace(text: string, oldText: string, newText: string): NormReplacement[] {
  const needle = stripWhitespace(oldText);
  if (needle.length === 0) return [];

  // Stripped text (native regex, fast) plus, for each of its characters, the offset in `text`.
  const stripped = stripWhitespace(text);
  const map = new Int32Array(stripped.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isWhitespace(text.charCodeAt(i))) map[n++] = i;
  }

  const oldLead = /^\s*/.exec(oldText)?.[0] ?? '';
  const oldTrail = /\s*$/.exec(oldText)?.[0] ?? '';
  const newLead = /^\s*/.exec(newText)?.[0] ?? '';
  const newTrail = newLead.length === newText.length ? '' : (/\s*$/.exec(newText)?.[0] ?? '');
  const leadCut = afterNthBreak(newLead, Math.min(countBreaks(oldLead), countBreaks(newLead)));
  const trailKeep = atNthBreakFromEnd(newTrail, Math.min(countBreaks(oldTrail), countBreaks(newTrail)));
  const replacement =
    newLead.length === newText.length
      ? newText.slice(leadCut)
      : newText.slice(leadCut, newText.length - newTrail.length + trailKeep);
  const oldIndented = oldLead.length > 0 && !oldLead.endsWith('\n');

  return occurrences(stripped, needle).map((idx) => {
    let start = map[idx] as number;
    const end = (map[idx + needle.length - 1] as number) + 1;
    if (oldIndented) {
      let s = start;
      while (s > 0 && text.charCodeAt(s - 1) !== 10 && isWhitespace(text.charCodeAt(s - 1))) s--;
      if (s === 0 || text.charCodeAt(s - 1) === 10) start = s;
    }
    return { start, end, text: replacement };
  });
}
