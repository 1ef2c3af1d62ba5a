// Owns the Codebuff-style str_replace: ordered replacements, each matched on the result of the
// previous one by exact text, then a uniform indentation added or removed, then whitespace-insensitively
// (whole lines unless old is within one line), with `new` re-indented into the file's style
// (reindent.ts), and per-entry failures that either let the others apply or (atomic) stop everything.

import { fail, type ErrorKind, type Failure, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol, type NormReplacement } from '../text/normalizedText.js';
import { EditSequence } from '../text/editSequence.js';
import { stripLineNumbers, type PrefixReport } from './lineNumberPrefixes.js';
import { findCandidates, levenshteinRatio, type ClosestCandidate } from './closest.js';
import { buildReindent, inferTabs, inferWidth, leadingWhitespace, reindentText, type IndentPair, type StyleEvidence } from './reindent.js';
import { closestData, closestHint, describeLines, lineNumbers, occurrences } from './matching.js';
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
  /** One per entry that applied: how it matched and how many places it matched (and line-number prefixes removed, if any). */
  details: ({ index: number; matchedBy: MatchTier; count: number } & Partial<PrefixReport>)[];
  failedReplacements: ReplacementFailure[];
}

/** Indentation prefixes tried by tier 2, in order. */
const INDENT_PREFIXES: readonly string[] = [
  ...Array.from({ length: 12 }, (_, i) => ' '.repeat(i + 1)),
  ...Array.from({ length: 6 }, (_, i) => '\t'.repeat(i + 1)),
];

/** Most leading characters tier 2b removes from old's lines. */
const MAX_DEDENT = 32;

/** A tier's matches, or the first match whose indentation could not be mapped (then nothing applies). */
interface Found {
  matches: NormReplacement[];
  refused?: { region: ClosestCandidate; reason: string };
}

/** The file's indentation style, worked out on first use (a scan of the whole text). */
type LazyStyle = (regionStart: number, regionEnd: number) => StyleEvidence;

function lazyStyle(text: string, oldText: string, newText: string): LazyStyle {
  let file: { tabs: boolean | undefined; width: number | undefined } | undefined;
  return (regionStart, regionEnd) => {
    file ??= { tabs: inferTabs(text), width: inferWidth([text]) };
    const from = lineStartOf(text, regionStart);
    let to = text.indexOf('\n', regionEnd);
    if (to === -1) to = text.length;
    return {
      regionTabs: inferTabs(text, from, to),
      fileTabs: file.tabs,
      regionWidth: inferWidth([text.slice(from, to)]),
      fileWidth: file.width,
      agentTexts: [oldText, newText],
    };
  };
}

function lineStartOf(text: string, p: number): number {
  return p <= 0 ? 0 : text.lastIndexOf('\n', p - 1) + 1;
}

/** The region [start, end) widened to whole lines, as a candidate for a not_found failure. */
function regionCandidate(text: string, start: number, end: number, oldText: string): ClosestCandidate {
  const from = lineStartOf(text, start);
  let to = text.indexOf('\n', Math.max(start, end - 1));
  if (to === -1) to = text.length;
  const regionText = text.slice(from, to);
  const startLine = lineNumbers(text, [from])[0] as number;
  const collapse = (x: string) => x.replace(/\s+/g, ' ').trim();
  return {
    startLine,
    endLine: startLine + countBreaks(regionText),
    text: regionText,
    similarity: Math.round(levenshteinRatio(collapse(oldText), collapse(regionText)) * 100) / 100,
  };
}

/**
 * Pairs each old line that has text with the file line it matched, when old matched line for line
 * from `start` (the indentation tiers): (old's indentation, the file line's indentation).
 */
function linePairs(text: string, start: number, oldText: string): IndentPair[] {
  const pairs: IndentPair[] = [];
  let pos = start;
  for (const line of oldText.split('\n')) {
    let eol = text.indexOf('\n', pos);
    if (eol === -1) eol = text.length;
    if (line.trim() !== '') pairs.push({ agent: leadingWhitespace(line), file: leadingWhitespace(text.slice(pos, eol)) });
    pos = eol + 1;
  }
  return pairs;
}

/**
 * new re-indented for one match of an indentation tier: the level mapping when it explains every
 * matched line, else the tier's own string rule (add or strip the prefix) — which reproduces the
 * matched lines by construction.
 */
function reindentShifted(
  text: string,
  m: { start: number; end: number },
  oldText: string,
  newText: string,
  style: LazyStyle,
  fallback: (indent: string) => string | undefined,
): { text: string } | { refused: Found['refused'] } {
  const reindent = buildReindent(linePairs(text, m.start, oldText), style(m.start, m.end));
  const map = reindent.ok ? reindent.map : fallback;
  const startsLine = m.start === lineStartOf(text, m.start);
  const out = reindentText(newText, map, startsLine, !endsLine(text, m.end));
  if (out.ok) return { text: out.text };
  return { refused: { region: regionCandidate(text, m.start, m.end, oldText), reason: out.reason } };
}

function endsLine(text: string, p: number): boolean {
  for (let i = p; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (!isWhitespace(c)) return false;
  }
  return true;
}

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
  const empty = entries.findIndex((entry) => entry.old === '');
  if (empty !== -1) {
    return fail(
      'invalid_args',
      `replacements[${empty}].old is empty for ${file}; give the exact text to replace (to create a file use editls.edit with an empty old_string)`,
      { index: empty },
    );
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
    let found: Found = { matches: exact.map((start) => ({ start, end: start + oldText.length, text: newText })) };
    const style = lazyStyle(current, oldText, newText);
    if (found.matches.length === 0) {
      matchedBy = 'indentation';
      found = findIndented(current, oldText, newText, style);
      if (found.matches.length === 0 && found.refused === undefined) found = findDedented(current, oldText, newText, style);
    }
    if (found.matches.length === 0 && found.refused === undefined) {
      matchedBy = 'whitespace';
      found = findIgnoringWhitespace(current, oldText, newText, style);
    }
    let prefixes: PrefixReport | undefined;
    if (found.matches.length === 0 && found.refused === undefined) {
      const numbered = prefixedMatch(current, oldText, newText);
      if (numbered !== undefined) {
        matchedBy = 'exact';
        found = { matches: [numbered.match] };
        prefixes = numbered.report;
      }
    }
    const matches = found.matches;
    if (found.refused !== undefined) {
      const { region, reason } = found.refused;
      const where = region.startLine === region.endLine ? `line ${region.startLine}` : `lines ${region.startLine}-${region.endLine}`;
      const how = matchedBy === 'whitespace' ? 'only when whitespace is ignored' : 'only with a different indentation';
      failures.push({
        index,
        kind: 'not_found',
        message: `${label} matches ${file} at ${where} ${how}, but new cannot be re-indented to fit: ${reason}; copy old's lines exactly as the file has them`,
        data: { closest: region, candidates: [region], reason },
      });
      return;
    }
    if (matches.length === 0) {
      const candidates = findCandidates(current, oldText);
      const failure: ReplacementFailure = { index, kind: 'not_found', message: `${label} not found in ${file}; ${closestHint(candidates)}` };
      const data = closestData(candidates);
      if (data !== undefined) failure.data = data;
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
    details.push({ index, matchedBy, count: matches.length, ...prefixes });
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

/**
 * Last resort: old matched nowhere, but every line of it carries a line-number prefix of one kind
 * and the text without them occurs exactly once; new loses the same prefixes when all its lines
 * carry them.
 */
function prefixedMatch(text: string, oldText: string, newText: string): { match: NormReplacement; report: PrefixReport } | undefined {
  const old = stripLineNumbers(oldText);
  if (old === undefined || old.text.trim() === '') return undefined;
  const at = occurrences(text, old.text);
  if (at.length !== 1) return undefined;
  const neu = newText === '' ? undefined : stripLineNumbers(newText, old.style);
  const start = at[0] as number;
  return {
    match: { start, end: start + old.text.length, text: neu?.text ?? newText },
    report: { lineNumberPrefixes: old.style, strippedFromNew: neu !== undefined },
  };
}

function indentLines(s: string, prefix: string): string {
  return s
    .split('\n')
    .map((line) => (line.length > 0 ? prefix + line : line))
    .join('\n');
}

/** Non-overlapping matches, leftmost first. */
function leftmost(found: (NormReplacement & { fix: () => { text: string } | { refused: Found['refused'] } })[]): Found {
  found.sort((a, b) => a.start - b.start);
  const kept: NormReplacement[] = [];
  for (const m of found) {
    const last = kept[kept.length - 1];
    if (last !== undefined && m.start < last.end) continue;
    const fixed = m.fix();
    if ('refused' in fixed) return { matches: [], refused: fixed.refused };
    kept.push({ start: m.start, end: m.end, text: fixed.text });
  }
  return { matches: kept };
}

/** Every occurrence of `needle` in `text` starting at a line start (anywhere when `anchored` is false). */
function lineStartOccurrences(text: string, needle: string, anchored: boolean): number[] {
  const out: number[] = [];
  let i = text.indexOf(needle);
  while (i !== -1) {
    if (anchored && i > 0 && text.charCodeAt(i - 1) !== 10) {
      i = text.indexOf(needle, i + 1);
      continue;
    }
    out.push(i);
    i = text.indexOf(needle, i + needle.length);
  }
  return out;
}

/**
 * Tier 2: old with a uniform prefix (1-12 spaces, then 1-6 tabs) on every non-empty line, starting at
 * a line start; new is re-indented from the lines matched. Matches of all prefixes are collected
 * (overlaps dropped).
 */
function findIndented(text: string, oldText: string, newText: string, style: LazyStyle): Found {
  const anchored = !oldText.startsWith('\n');
  const found: Parameters<typeof leftmost>[0] = [];
  for (const prefix of INDENT_PREFIXES) {
    const needle = indentLines(oldText, prefix);
    for (const start of lineStartOccurrences(text, needle, anchored)) {
      const m = { start, end: start + needle.length };
      found.push({ ...m, text: '', fix: () => reindentShifted(text, m, oldText, newText, style, (indent) => prefix + indent) });
    }
  }
  return leftmost(found);
}

/**
 * Tier 2b, the mirror: the file less indented than old. Old's lines that have text share a leading
 * indentation; old with its first 1..all characters removed from every line is looked for at line
 * starts, and new is re-indented from the lines matched.
 */
function findDedented(text: string, oldText: string, newText: string, style: LazyStyle): Found {
  const lines = oldText.split('\n');
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const lead = leadingWhitespace(line);
    if (common === undefined) common = lead;
    else {
      let n = 0;
      while (n < common.length && n < lead.length && common[n] === lead[n]) n++;
      common = common.slice(0, n);
    }
  }
  if (common === undefined || common === '') return { matches: [] };
  const anchored = !oldText.startsWith('\n');
  const found: Parameters<typeof leftmost>[0] = [];
  // One indexOf scan per length removed: at most MAX_DEDENT of them (8 levels of 4 spaces).
  for (let k = 1; k <= Math.min(common.length, MAX_DEDENT); k++) {
    const strip = common.slice(0, k);
    const needle = lines.map((line) => (line.startsWith(strip) ? line.slice(k) : line.trim() === '' ? '' : line)).join('\n');
    for (const start of lineStartOccurrences(text, needle, anchored)) {
      const m = { start, end: start + needle.length };
      const fallback = (indent: string) => (indent.startsWith(strip) ? indent.slice(k) : undefined);
      found.push({ ...m, text: '', fix: () => reindentShifted(text, m, oldText, newText, style, fallback) });
    }
  }
  return leftmost(found);
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
 * that span) are dropped from the matching ends of new. An old of several lines must match whole
 * lines (only whitespace before and after on their lines). A match that starts its line is widened
 * to the line start and new is re-indented from the lines matched (line for line when old's lines
 * match the file's one to one, else from the first line; for an old within one line, from new's
 * first line); a match inside a line takes new as given.
 */
function findIgnoringWhitespace(text: string, oldText: string, newText: string, style: LazyStyle): Found {
  const needle = stripWhitespace(oldText);
  if (needle.length === 0) return { matches: [] };

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
  const oldLines = oldText.split('\n').filter((l) => l.trim() !== '');
  const multiLine = oldLines.length > 1;
  const newFirst = replacement.split('\n').find((l) => l.trim() !== '');

  const matches: NormReplacement[] = [];
  for (const idx of occurrences(stripped, needle)) {
    let start = map[idx] as number;
    const end = (map[idx + needle.length - 1] as number) + 1;
    const lineStart = lineStartOf(text, start);
    const startsLine = /^\s*$/.test(text.slice(lineStart, start));
    if (multiLine && !(startsLine && endsLine(text, end))) continue;
    if (!startsLine) {
      matches.push({ start, end, text: replacement });
      continue;
    }
    start = lineStart;
    const regionLines = text.slice(start, end).split('\n').filter((l) => l.trim() !== '');
    let pairs: IndentPair[];
    if (!multiLine) {
      pairs = [{ agent: leadingWhitespace(newFirst ?? oldLines[0] ?? ''), file: leadingWhitespace(regionLines[0] ?? '') }];
    } else if (regionLines.length === oldLines.length && regionLines.every((l, k) => stripWhitespace(l) === stripWhitespace(oldLines[k] as string))) {
      pairs = oldLines.map((l, k) => ({ agent: leadingWhitespace(l), file: leadingWhitespace(regionLines[k] as string) }));
    } else {
      pairs = [{ agent: leadingWhitespace(oldLines[0] as string), file: leadingWhitespace(regionLines[0] as string) }];
    }
    const reindent = buildReindent(pairs, style(start, end));
    const out = reindent.ok ? reindentText(replacement, reindent.map, true, !endsLine(text, end)) : reindent;
    if (!out.ok) return { matches: [], refused: { region: regionCandidate(text, start, end, oldText), reason: out.reason } };
    matches.push({ start, end, text: out.text });
  }
  return { matches };
}
