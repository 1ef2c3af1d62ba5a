// Case-insensitive fuzzy matching of symbol names for workspace/symbol: exact > prefix >
// word/camel-hump (each query piece starts a word: `gsbn` -> getSymbolByName) > substring >
// subsequence, then shorter names, types before functions before values, path, line and column. A bounded
// heap keeps the best `limit` without sorting every match.
import type { SymbolKindName } from './types.js';

export const Tier = { Exact: 0, Prefix: 1, WordStarts: 2, Substring: 3, Subsequence: 4 } as const;

/** A bit per letter, one for digits, one for `_`/`$`, one for anything else: a cheap superset test. */
export function charMask(lower: string, start = 0, end = lower.length): number {
  let mask = 0;
  for (let i = start; i < end; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 97 && c <= 122) mask |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) mask |= 1 << 26;
    else if (c === 95 || c === 36) mask |= 1 << 27;
    else mask |= 1 << 28;
  }
  return mask;
}

export interface Query {
  raw: string;
  lower: string;
  mask: number;
}

export function makeQuery(raw: string): Query {
  const trimmed = raw.trim();
  const lower = trimmed.toLowerCase();
  return { raw: trimmed, lower, mask: charMask(lower) };
}

/**
 * The match tier of a name, or -1. `lower` is name.toLowerCase(), `mask` its charMask. `worstUseful`
 * lets a caller that already holds enough better hits skip the costlier word-start test.
 */
export function matchTier(q: Query, name: string, lower: string, mask: number, worstUseful: number = Tier.Subsequence): number {
  return matchTierIn(q, name, lower, 0, name.length, mask, worstUseful);
}

/**
 * matchTier for the name at [start, end) of `names` (its lower case at the same offsets of
 * `lowers`): the index packs a file's names into one string, so a query scans without slicing.
 */
export function matchTierIn(q: Query, names: string, lowers: string, start: number, end: number, mask: number, worstUseful: number = Tier.Subsequence): number {
  const ql = q.lower;
  if (ql === '') return Tier.Subsequence;
  const len = end - start;
  if ((q.mask & mask) !== q.mask || len < ql.length) return -1;
  if (lowers.startsWith(ql, start)) return len === ql.length ? Tier.Exact : Tier.Prefix;
  if (worstUseful < Tier.WordStarts) return -1;
  // Scans stay inside the name: `lowers` holds every name of a file, and an indexOf that runs past
  // `end` to the file's last name made a query quadratic in the names per file (`msp` took 40 ms on
  // Rust's library, whose avx512 files hold thousands of names).
  let at = start;
  for (let i = 0; i < ql.length; i++, at++) {
    const c = ql.charCodeAt(i);
    while (at < end && lowers.charCodeAt(at) !== c) at++;
    if (at === end) return -1;
  }
  if (matchesWordStartsIn(ql, names, lowers, start, end)) return Tier.WordStarts;
  if (worstUseful < Tier.Substring) return -1;
  for (let from = start; from + ql.length <= end; from++) if (lowers.startsWith(ql, from)) return Tier.Substring;
  return Tier.Subsequence;
}

function isAlnum(c: number, ch: string): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return /[\p{L}\p{N}]/u.test(ch);
}

function isUpper(c: number, ch: string): boolean {
  if (c < 128) return c >= 65 && c <= 90;
  return ch !== ch.toLowerCase();
}

/** Indices where a word starts: after `_ - $ .`, at a letter/digit change, at a lower->Upper step, and at the last capital of an acronym (HTMLParser -> H, P). */
export function wordStarts(name: string): number[] {
  const starts: number[] = [];
  let prevCode = -1;
  let prevAlnum = false;
  let prevUpper = false;
  let prevDigit = false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const ch = name[i]!;
    const alnum = isAlnum(code, ch);
    const upper = alnum && isUpper(code, ch);
    const digit = code >= 48 && code <= 57;
    if (alnum) {
      if (prevCode === -1 || !prevAlnum) starts.push(i);
      else if (upper && !prevUpper) starts.push(i);
      else if (upper && prevUpper && i + 1 < name.length && isAlnum(name.charCodeAt(i + 1), name[i + 1]!) && !isUpper(name.charCodeAt(i + 1), name[i + 1]!) && !(name.charCodeAt(i + 1) >= 48 && name.charCodeAt(i + 1) <= 57)) starts.push(i);
      else if (digit !== prevDigit) starts.push(i);
    }
    prevCode = code;
    prevAlnum = alnum;
    prevUpper = upper;
    prevDigit = digit;
  }
  return starts;
}

/** Whether a word starts at `i` of the name at [start, end) of `names` (the rule of wordStarts, without building the list). */
function isWordStart(names: string, start: number, end: number, i: number): boolean {
  const code = names.charCodeAt(i);
  const ch = names[i]!;
  if (!isAlnum(code, ch)) return false;
  if (i === start) return true;
  const prevCode = names.charCodeAt(i - 1);
  const prevCh = names[i - 1]!;
  if (!isAlnum(prevCode, prevCh)) return true;
  const upper = isUpper(code, ch);
  const prevUpper = isUpper(prevCode, prevCh);
  if (upper && !prevUpper) return true;
  if (upper && prevUpper && i + 1 < end) {
    const nextCode = names.charCodeAt(i + 1);
    const nextCh = names[i + 1]!;
    if (isAlnum(nextCode, nextCh) && !isUpper(nextCode, nextCh) && !(nextCode >= 48 && nextCode <= 57)) return true;
  }
  return (code >= 48 && code <= 57) !== (prevCode >= 48 && prevCode <= 57);
}

/** The smallest name offset reached after each number of query characters (matchesWordStartsIn's table, reused: no allocation per name). */
let reach = new Int32Array(64);

/**
 * Can `q` be split into pieces that each match consecutive characters from the start of a word,
 * each piece in a later word than the one before and past the characters it used? For each count
 * of query characters matched, the earliest offset the match can end at is enough (a later end
 * leaves fewer word starts for the rest), so this is a table over the query, not a search: no
 * allocation, at most |q| x name length x |q| steps, for the name at [start, end) of `names`.
 */
function matchesWordStartsIn(q: string, names: string, lowers: string, start: number, end: number): boolean {
  const n = q.length;
  if (reach.length <= n) reach = new Int32Array(n * 2 + 1);
  reach[0] = start;
  for (let k = 1; k <= n; k++) reach[k] = 0x7fffffff;
  for (let qi = 0; qi < n; qi++) {
    const from = reach[qi]!;
    if (from === 0x7fffffff) continue;
    const first = q.charCodeAt(qi);
    for (let s = from; s < end; s++) {
      if (lowers.charCodeAt(s) !== first || !isWordStart(names, start, end, s)) continue;
      // The piece from this word start: every length it matches is a way on.
      for (let k = 0; qi + k < n && s + k < end && lowers.charCodeAt(s + k) === q.charCodeAt(qi + k); k++) {
        if (s + k + 1 < reach[qi + k + 1]!) reach[qi + k + 1] = s + k + 1;
      }
    }
    if (reach[n] !== 0x7fffffff) return true;
  }
  return reach[n] !== 0x7fffffff;
}

const KIND_RANK: Record<SymbolKindName, number> = {
  class: 0,
  interface: 0,
  struct: 0,
  enum: 0,
  typeParameter: 0,
  module: 0,
  namespace: 0,
  object: 0,
  function: 1,
  method: 1,
  constructor: 1,
  property: 2,
  constant: 2,
  variable: 2,
};

export interface Ranked<T> {
  item: T;
  /** tier, exact case, name length and kind packed into one number (see rankKey); smaller is better. */
  key: number;
  /** The file's position in path order. */
  order: number;
  line: number;
  /** The name's column: the last tie-break, so that the best `limit` do not depend on the order hits arrive in. */
  column: number;
}

/**
 * One number ordering hits by tier, then exact case (exact tier only), then name length, then kind
 * (types before functions before values). An empty query ranks everything equal: path order.
 */
export function rankKey(q: Query, name: string, tier: number, kind: SymbolKindName): number {
  return rankKeyIn(q, name, 0, name.length, tier, kind);
}

/** rankKey for the name at [start, end) of `names`. */
export function rankKeyIn(q: Query, names: string, start: number, end: number, tier: number, kind: SymbolKindName): number {
  if (q.lower === '') return 0;
  const caseMiss = tier === Tier.Exact && !names.startsWith(q.raw, start) ? 1 : 0;
  return ((tier * 2 + caseMiss) * 4096 + Math.min(end - start, 4095)) * 4 + KIND_RANK[kind];
}

/** The tier a key was made from. */
export function tierOf(key: number): number {
  return Math.floor(key / (4 * 4096 * 2));
}

/** Negative when `a` ranks before `b`. */
export function compareRanked<T>(a: Ranked<T>, b: Ranked<T>): number {
  return a.key - b.key || a.order - b.order || a.line - b.line || a.column - b.column;
}

/** Keeps the best `limit` items seen (a max-heap on the ranking, worst at the root). */
export class TopK<T> {
  private readonly heap: Ranked<T>[] = [];
  /** The root's key once the heap is full (Infinity before): the bar a new item must clear. */
  private bar = Infinity;
  private worstTier: number = Tier.Subsequence;

  constructor(private readonly limit: number) {}

  /** The worst tier that can still enter (lets callers skip costly tests for hopeless names). */
  worstUseful(): number {
    return this.worstTier;
  }

  /** Whether an item with this key could still enter (lets callers skip building it). */
  mightAccept(key: number): boolean {
    return key <= this.bar;
  }

  push(r: Ranked<T>): void {
    if (this.limit <= 0) return;
    const h = this.heap;
    if (h.length < this.limit) {
      h.push(r);
      this.up(h.length - 1);
    } else if (compareRanked(r, h[0]!) < 0) {
      h[0] = r;
      this.down(0);
    } else {
      return;
    }
    if (h.length === this.limit) {
      this.bar = h[0]!.key;
      this.worstTier = tierOf(this.bar);
    }
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort(compareRanked).map((r) => r.item);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compareRanked(h[i]!, h[p]!) <= 0) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && compareRanked(h[l]!, h[m]!) > 0) m = l;
      if (r < h.length && compareRanked(h[r]!, h[m]!) > 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
