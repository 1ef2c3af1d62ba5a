// Owns editls.searchAndReplace's computation: the scope (whole text or 1-based inclusive lines of the
// \n-normalised text), the search (literal or JavaScript regex, optionally case-insensitive), and
// turning the matches into minimal span edits. The regex scan itself may run elsewhere (a worker).

import { fail, type Failure, type Result } from '../result.js';
import type { SpanEdit } from '../text/spanEdit.js';
import { NormalizedText, normalizeEol } from '../text/normalizedText.js';
import { scanRegex, type ScanJob, type ScanReply } from './regexScan.js';
import { MAX_RESULT_CHARS_CAP, resultTooLong } from './resultSize.js';

export interface SearchAndReplaceArgs {
  search: string;
  replace: string;
  /** 1-based, inclusive; either may be given alone. */
  startLine?: number;
  endLine?: number;
  useRegex: boolean;
  ignoreCase: boolean;
  /** Caps that keep a runaway pattern from exhausting memory (`too_large` beyond them). */
  maxMatches?: number;
  maxOutput?: number;
  /** Longest result allowed (UTF-16 units, see resultSize.ts); longer is too_large, nothing built. */
  maxResultChars?: number;
}

export const DEFAULT_MAX_MATCHES = 1_000_000;
export const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/** A validated search on one text, ready to scan. */
export interface PreparedSearch {
  file: string;
  doc: NormalizedText;
  /** The scope is doc.text[scopeStart, scopeEnd). */
  scopeStart: number;
  scopeEnd: number;
  /** The line range actually searched (end clamped), when one was given. */
  lines?: { startLine: number; endLine: number };
  /** The scan to run on the scope. */
  job: ScanJob;
  /** True when the scan needs the regex engine (so it must run with a deadline, off the main thread);
   *  false for a case-sensitive literal search, which is a plain linear indexOf. */
  usesRegex: boolean;
  /** The scan runs on doc.body rather than doc.text (a literal without line breaks over the whole
   *  text finds the same matches there, without the \n view being built); finish maps the offsets. */
  onBody: boolean;
  /** The search as shown in messages: /source/flags or "text". */
  shown: string;
  maxResultChars: number;
}

export interface SearchAndReplaceComputed {
  newText: string;
  edits: SpanEdit[];
  replacements: number;
  lines?: { startLine: number; endLine: number };
}

/** Validates the arguments against `text` and builds the scan (no matching yet). */
export function prepareSearchAndReplace(text: string, args: SearchAndReplaceArgs, file: string): Result<{ prepared: PreparedSearch }> {
  if (args.search === '') return fail('invalid_args', `search is empty; give the text or pattern to find in ${file}`);
  const doc = NormalizedText.from(text);
  const scope = args.startLine === undefined && args.endLine === undefined ? { ok: true as const, start: 0, end: doc.length } : lineScope(doc.text, args.startLine, args.endLine, file);
  if (!scope.ok) return scope;

  const search = normalizeEol(args.search);
  const flags = args.ignoreCase ? 'gi' : 'g';
  // A case-sensitive literal without a line break, over the whole text, matches the same characters
  // in the body as in the \n view (no match can contain a \r or \n): no need to build the view.
  const onBody = !args.useRegex && !args.ignoreCase && scope.start === 0 && scope.end === doc.length && search.indexOf('\n') === -1;
  const scanned = onBody ? doc.body : doc.text.slice(scope.start, scope.end);
  const base = {
    text: scanned,
    // The whole \n view of a body with \r in it: the body too, which travels to a regex worker without the view made flat.
    ...(!onBody && scanned !== doc.body && scope.start === 0 && scope.end === doc.length ? { crBody: doc.body } : {}),
    replacement: normalizeEol(args.replace),
    maxMatches: args.maxMatches ?? DEFAULT_MAX_MATCHES,
    maxOutput: args.maxOutput ?? DEFAULT_MAX_OUTPUT,
  };
  let job: ScanJob;
  let shown: string;
  if (args.useRegex) {
    const source = rewriteCrlfEscapes(search);
    try {
      // Parsing is linear and runs nothing; matching is what may explode, and that runs with a deadline.
      new RegExp(source, flags);
    } catch (error) {
      return invalidRegex(file, error instanceof Error ? error.message : String(error));
    }
    job = { ...base, source, flags, expand: true };
    shown = `/${clip(source)}/${flags}`;
  } else {
    job = { ...base, source: args.ignoreCase ? escapeRegExp(search) : search, flags: args.ignoreCase ? 'gi' : '', expand: false };
    shown = JSON.stringify(clip(search));
  }
  const lines = 'lines' in scope ? scope.lines : undefined;
  return {
    ok: true,
    prepared: { file, doc, scopeStart: scope.start, scopeEnd: scope.end, ...(lines ? { lines } : {}), job, usesRegex: args.useRegex || args.ignoreCase, onBody, shown, maxResultChars: args.maxResultChars ?? MAX_RESULT_CHARS_CAP },
  };
}

/** Runs the scan on this thread: the regex engine for a regex (no deadline!), indexOf for a literal. */
export function scanHere(prepared: PreparedSearch): ScanReply {
  return prepared.usesRegex ? scanRegex(prepared.job) : scanLiteral(prepared.job);
}

/** Non-overlapping occurrences of job.source (a literal) left to right; linear, never catastrophic. */
export function scanLiteral(job: ScanJob): ScanReply {
  const { text, source } = job;
  const length = source.length;
  let starts = new Int32Array(1024);
  let count = 0;
  for (let i = text.indexOf(source); i !== -1; i = text.indexOf(source, i + length)) {
    if (count >= job.maxMatches) return { ok: false, problem: 'too_large', detail: `more than ${job.maxMatches} matches` };
    if (count === starts.length) {
      const grown = new Int32Array(2 * count);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = i;
  }
  if (count * job.replacement.length > job.maxOutput) {
    return { ok: false, problem: 'too_large', detail: `the replacements would add more than ${job.maxOutput} characters` };
  }
  const s = starts.slice(0, count);
  const e = new Int32Array(count);
  for (let k = 0; k < count; k++) e[k] = (s[k] as number) + length;
  return { ok: true, count, starts: s, ends: e, texts: null };
}

/** Turns the scan's reply into the edit (or the failure it stands for). */
export function finishSearchAndReplace(prepared: PreparedSearch, reply: ScanReply): Result<SearchAndReplaceComputed> {
  const { doc, file, job } = prepared;
  const lines = prepared.lines ? { lines: prepared.lines } : {};
  if (!reply.ok) return scanFailure(prepared, reply);
  if (reply.count === 0) return { ok: true, newText: doc.original, edits: [], replacements: 0, ...lines };

  const base = prepared.scopeStart;
  const starts = reply.starts.subarray(0, reply.count);
  const ends = reply.ends.subarray(0, reply.count);
  // The result's length before it is built: count x (new - old), or the expansions' sum.
  let length = prepared.onBody ? doc.body.length : doc.length;
  for (let i = 0; i < reply.count; i++) {
    length += (reply.texts ? (reply.texts[i] as string).length : job.replacement.length) - ((ends[i] as number) - (starts[i] as number));
  }
  const tooLong = resultTooLong(file, length, prepared.maxResultChars, `replacing ${reply.count} match${reply.count === 1 ? '' : 'es'} of ${prepared.shown}`);
  if (tooLong) return tooLong;
  if (prepared.onBody) {
    doc.bodyOffsetsToText(starts);
    doc.bodyOffsetsToText(ends);
  }
  // A case-sensitive literal scan (indexOf) matched exactly job.source everywhere; a regex scan may
  // report each match. A match's own first and last characters then say whether it can start or
  // end inside a surrogate pair, and the text around the matches is read only where they can.
  const matched = prepared.usesRegex ? (reply.matched ?? null) : null;
  const replaced = prepared.usesRegex ? matched : job.source;
  let splitsPair = false;
  if (typeof replaced === 'string') {
    if (isLowSurrogate(replaced.charCodeAt(0)) || isHighSurrogate(replaced.charCodeAt(replaced.length - 1))) {
      const t = doc.text;
      for (let i = 0; i < reply.count && !splitsPair; i++) {
        if (insidePair(t, base + (starts[i] as number)) || insidePair(t, base + (ends[i] as number))) splitsPair = true;
      }
    }
  } else {
    const t = doc.text;
    for (let i = 0; i < reply.count && !splitsPair; i++) {
      const m = replaced === null ? '' : (replaced[i] as string);
      const canStartInside = m === '' || isLowSurrogate(m.charCodeAt(0));
      const canEndInside = m === '' || isHighSurrogate(m.charCodeAt(m.length - 1));
      if ((canStartInside && insidePair(t, base + (starts[i] as number))) || (canEndInside && insidePair(t, base + (ends[i] as number)))) splitsPair = true;
    }
  }
  const { edits, newOriginal } = doc.spanEditsOf(starts, ends, reply.texts ?? job.replacement, {
    offset: base,
    ...(replaced !== null ? { replaced } : {}),
  });
  // Without the `u` flag a pattern can match half of an emoji; refuse an edit that would leave half of one behind.
  if (splitsPair && !hasLoneSurrogate(doc.original) && hasLoneSurrogate(newOriginal)) {
    return fail(
      'invalid_regex',
      `${prepared.shown} matches half of an emoji or other astral character in ${file}, which would corrupt it; match whole characters (e.g. (?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]) instead of .)`,
    );
  }
  return { ok: true, newText: newOriginal, edits, replacements: reply.count, ...lines };
}

/** The one-line message for a search with no match. */
export function noMatchMessage(command: string, prepared: PreparedSearch): string {
  const where = prepared.lines ? ` (lines ${prepared.lines.startLine}-${prepared.lines.endLine})` : '';
  return `${command}: no match for ${prepared.shown} in ${prepared.file}${where}; nothing changed`;
}

function scanFailure(prepared: PreparedSearch, reply: Extract<ScanReply, { ok: false }>): Failure {
  const { file, shown } = prepared;
  switch (reply.problem) {
    case 'invalid_regex':
      return invalidRegex(file, reply.detail);
    case 'too_large':
      return fail('too_large', `${shown} in ${file}: ${reply.detail}; nothing changed; narrow the pattern or the line range (start_line/end_line)`);
    case 'timeout':
      return fail(
        'regex_timeout',
        `${shown} ran longer than ${reply.detail} on ${file} and was stopped; nothing changed; simplify the pattern (avoid nested quantifiers such as (a+)+) or narrow start_line/end_line`,
        { timeoutMs: Number.parseInt(reply.detail, 10) },
      );
    case 'cancelled':
      return fail('cancelled', `searchAndReplace on ${file} was cancelled; nothing changed`);
    case 'crashed':
      return fail('io_error', `the regex worker failed on ${file}: ${reply.detail}; nothing changed`);
  }
}

function invalidRegex(file: string, reason: string): Failure {
  return fail('invalid_regex', `invalid regular expression for ${file}: ${oneLine(reason)}; fix the pattern (JavaScript syntax) or drop use_regex for a literal search`, {
    reason,
  });
}

interface Scope {
  start: number;
  end: number;
  lines?: { startLine: number; endLine: number };
}

/**
 * [start, end) of the scope in the \n text: everything without a range; else from the start of
 * startLine to the end of endLine's text (its line break excluded, so no match crosses it and `$`
 * anchors there). Lines are counted as an editor shows them: a final line break ends the last line.
 */
function lineScope(text: string, startLine: number | undefined, endLine: number | undefined, file: string): Result<Scope> {
  if (startLine === undefined && endLine === undefined) return { ok: true, start: 0, end: text.length };
  const lineCount = countLines(text);
  const from = startLine ?? 1;
  const requestedTo = endLine ?? lineCount;
  if (!Number.isInteger(from) || !Number.isInteger(requestedTo)) {
    return fail('invalid_args', `start_line and end_line must be whole numbers (got ${from}, ${requestedTo})`);
  }
  if (from < 1) return fail('invalid_range', `start_line ${from} is before the first line of ${file}; lines are 1-based`);
  if (requestedTo < 1) return fail('invalid_range', `end_line ${requestedTo} is before the first line of ${file}; lines are 1-based`);
  if (from > lineCount) {
    return fail('invalid_range', `start_line ${from} is past the end of ${file}, which has ${lineCount} line${lineCount === 1 ? '' : 's'}`, { lineCount });
  }
  if (from > requestedTo) return fail('invalid_range', `start_line ${from} is after end_line ${requestedTo} in ${file}; give start_line <= end_line`);
  const to = Math.min(requestedTo, lineCount);
  let start = 0;
  for (let line = 1; line < from; line++) start = text.indexOf('\n', start) + 1;
  let end = start;
  for (let line = from; line <= to; line++) {
    const nl = text.indexOf('\n', end);
    if (nl === -1) {
      end = text.length;
      break;
    }
    end = line === to ? nl : nl + 1;
  }
  return { ok: true, start, end, lines: { startLine: from, endLine: to } };
}

/** Lines as an editor shows them: an empty text has one, a final \n does not open another. */
function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === 10) n--;
  return n;
}

/**
 * The pattern sees \n-normalised text, so `\r\n` (as escapes, outside a character class) would never
 * match: it is rewritten to `\n`. `\r?\n`, `[\r\n]` and the like already work unchanged.
 */
export function rewriteCrlfEscapes(source: string): string {
  if (source.indexOf('\\r\\n') === -1) return source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c === '\\') {
      if (!inClass && source.startsWith('\\r\\n', i)) {
        out += '\\n';
        i += 3;
      } else {
        out += source.slice(i, i + 2);
        i++;
      }
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function insidePair(t: string, offset: number): boolean {
  return isLowSurrogate(t.charCodeAt(offset)) && isHighSurrogate(t.charCodeAt(offset - 1));
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

function clip(s: string): string {
  const flat = s.replace(/\n/g, '\\n');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
