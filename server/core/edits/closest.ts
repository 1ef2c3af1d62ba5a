// Owns the "closest match" hint for a failed search: the regions of a file (same number of lines as
// the needle) most similar to the needle, up to three, best first. Near-linear: cheap per-line votes pick a few windows,
// and only those get a real (bit-parallel Levenshtein) similarity.

export interface ClosestCandidate {
  /** 1-based first line of the region. */
  startLine: number;
  /** 1-based last line of the region (inclusive). */
  endLine: number;
  text: string;
  /** 0..1, rounded to 2 decimals. */
  similarity: number;
}

const MIN_SIMILARITY = 0.5;
const MAX_COMPARE_CHARS = 4000;
const PROBE_LINES = 5;
const CANDIDATE_WINDOWS = 10;
const MIN_DICE_VOTE = 0.5;
/** Most candidates listed in `data.candidates`. */
export const MAX_CANDIDATES = 3;

/**
 * The regions most similar to `needle` (similarity >= 0.5): at most three, best first, equally close
 * ones all kept (up to three), no two overlapping. Both texts use \n breaks.
 */
export function findCandidates(normalizedText: string, needle: string): ClosestCandidate[] {
  const needleLines = needle.split('\n');
  if (needleLines.length > 1 && needleLines[needleLines.length - 1] === '') needleLines.pop();
  const windowLines = needleLines.length;
  const collapsedNeedle = collapse(needle);
  if (collapsedNeedle.length === 0) return [];

  const starts = lineStarts(normalizedText);
  const lineCount = starts.length;
  const lastWindow = Math.max(0, lineCount - windowLines);

  // Probe lines: the longest distinct trimmed lines of the needle (long lines are the most telling).
  const probes = pickProbes(needleLines);
  if (probes.length === 0) return [];
  const scorer = new BigramScorer(probes.map((p) => p.text));

  const votes = new Float64Array(lastWindow + 1);
  const minLen = Math.min(...probes.map((p) => p.text.length));
  const maxLen = Math.max(...probes.map((p) => p.text.length));
  const scores = new Float64Array(probes.length);
  for (let line = 0; line < lineCount; line++) {
    let from = starts[line] as number;
    let to = line + 1 < lineCount ? (starts[line + 1] as number) - 1 : normalizedText.length;
    // Cheap length filter: a Dice score >= 0.5 needs lengths within a factor of 3.
    if ((to - from) * 3 < minLen) continue;
    while (from < to && isSpace(normalizedText.charCodeAt(from))) from++;
    while (to > from && isSpace(normalizedText.charCodeAt(to - 1))) to--;
    const len = to - from;
    if (len === 0 || len * 3 < minLen || len > maxLen * 3) continue;
    scorer.score(normalizedText, from, to, scores);
    for (let k = 0; k < probes.length; k++) {
      const probe = probes[k] as Probe;
      const s = scores[k] as number;
      const exact = len === probe.text.length && s === 1 && normalizedText.startsWith(probe.text, from);
      const weight = exact ? 2 : s >= MIN_DICE_VOTE ? s : 0;
      if (weight === 0) continue;
      const start = Math.min(lastWindow, Math.max(0, line - probe.index));
      votes[start] = (votes[start] as number) + weight;
    }
  }

  const scored: ClosestCandidate[] = [];
  for (const start of topIndices(votes, CANDIDATE_WINDOWS)) {
    const endLine = Math.min(lineCount, start + windowLines) - 1;
    const from = starts[start] as number;
    const to = endLine + 1 < lineCount ? (starts[endLine + 1] as number) - 1 : normalizedText.length;
    const text = normalizedText.slice(from, to);
    const similarity = levenshteinRatio(collapsedNeedle, collapse(text));
    if (similarity < MIN_SIMILARITY) continue;
    scored.push({ startLine: start + 1, endLine: endLine + 1, text, similarity: Math.round(similarity * 100) / 100 });
  }
  // Best first (the earlier region on a tie); a window overlapping a better one is the same place shifted.
  scored.sort((a, b) => b.similarity - a.similarity || a.startLine - b.startLine);
  const kept: ClosestCandidate[] = [];
  for (const c of scored) {
    if (kept.length === MAX_CANDIDATES) break;
    if (kept.every((k) => c.endLine < k.startLine || c.startLine > k.endLine)) kept.push(c);
  }
  return kept;
}

interface Probe {
  text: string;
  index: number;
}

function pickProbes(lines: readonly string[]): Probe[] {
  const seen = new Set<string>();
  const all: Probe[] = [];
  lines.forEach((line, index) => {
    const text = line.trim();
    if (text.length === 0 || seen.has(text)) return;
    seen.add(text);
    all.push({ text, index });
  });
  all.sort((a, b) => b.text.length - a.text.length || a.index - b.index);
  return all.slice(0, PROBE_LINES);
}

function lineStarts(text: string): Int32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

/** Whitespace runs become one space; ends trimmed; capped for the quadratic-free but still costly comparison. */
function collapse(s: string): string {
  const c = s.replace(/\s+/g, ' ').trim();
  return c.length > MAX_COMPARE_CHARS ? c.slice(0, MAX_COMPARE_CHARS) : c;
}

/** Indices of the `k` largest positive values, best first. */
function topIndices(values: Float64Array, k: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v <= 0) continue;
    if (top.length === k && v <= (values[top[k - 1] as number] as number)) continue;
    let pos = top.length < k ? top.length : k - 1;
    if (top.length < k) top.push(i);
    while (pos > 0 && (values[top[pos - 1] as number] as number) < v) {
      top[pos] = top[pos - 1] as number;
      pos--;
    }
    top[pos] = i;
  }
  return top;
}

/** Whitespace as String.prototype.trim sees it. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * Bigram Dice coefficients of one line against several probe lines at once (multiset bigrams).
 * Bigram ids live in an open-addressing hash table (no Map lookups in the hot loop).
 */
class BigramScorer {
  private readonly k: number;
  private readonly slotKey: Int32Array;
  private readonly slotId: Int32Array;
  private readonly shift: number;
  /** need[id * k + j]: how often bigram `id` occurs in probe j. */
  private readonly need: Int32Array;
  private readonly used: Int32Array;
  private readonly stamp: Int32Array;
  private readonly probeBigrams: Int32Array;
  private readonly probes: readonly string[];
  private readonly inter: Int32Array;
  private generation = 0;

  constructor(probes: readonly string[]) {
    this.probes = probes;
    const k = probes.length;
    this.k = k;
    const total = probes.reduce((n, p) => n + Math.max(0, p.length - 1), 0);
    let bits = 4;
    while (1 << bits < total * 4) bits++;
    this.shift = 32 - bits;
    this.slotKey = new Int32Array(1 << bits);
    this.slotId = new Int32Array(1 << bits).fill(-1);
    const counts: number[][] = [];
    probes.forEach((p, j) => {
      for (let i = 0; i + 1 < p.length; i++) {
        const key = (p.charCodeAt(i) << 16) | p.charCodeAt(i + 1);
        let id = this.lookup(key);
        if (id < 0) {
          id = counts.length;
          this.insert(key, id);
          counts.push(new Array<number>(k).fill(0));
        }
        const row = counts[id] as number[];
        row[j] = (row[j] as number) + 1;
      }
    });
    this.need = new Int32Array(counts.length * k);
    counts.forEach((row, id) => row.forEach((c, j) => (this.need[id * k + j] = c)));
    this.used = new Int32Array(counts.length * k);
    this.stamp = new Int32Array(counts.length).fill(-1);
    this.probeBigrams = Int32Array.from(probes, (p) => Math.max(0, p.length - 1));
    this.inter = new Int32Array(k);
  }

  private slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  private lookup(key: number): number {
    const mask = this.slotId.length - 1;
    for (let h = this.slot(key); ; h = (h + 1) & mask) {
      const id = this.slotId[h] as number;
      if (id < 0 || this.slotKey[h] === key) return id;
    }
  }

  private insert(key: number, id: number): void {
    const mask = this.slotId.length - 1;
    let h = this.slot(key);
    while ((this.slotId[h] as number) >= 0) h = (h + 1) & mask;
    this.slotKey[h] = key;
    this.slotId[h] = id;
  }

  /** Scores text[from, to) against every probe into `out`. */
  score(text: string, from: number, to: number, out: Float64Array): void {
    const k = this.k;
    const gen = this.generation++;
    const inter = this.inter;
    const used = this.used;
    const need = this.need;
    const stamp = this.stamp;
    inter.fill(0);
    let prev = text.charCodeAt(from);
    for (let i = from + 1; i < to; i++) {
      const cur = text.charCodeAt(i);
      const id = this.lookup((prev << 16) | cur);
      prev = cur;
      if (id < 0) continue;
      const base = id * k;
      if (stamp[id] !== gen) {
        stamp[id] = gen;
        for (let j = 0; j < k; j++) used[base + j] = 0;
      }
      for (let j = 0; j < k; j++) {
        if ((used[base + j] as number) < (need[base + j] as number)) {
          used[base + j] = (used[base + j] as number) + 1;
          inter[j] = (inter[j] as number) + 1;
        }
      }
    }
    const lineBigrams = Math.max(0, to - from - 1);
    for (let j = 0; j < k; j++) {
      const probeBigrams = this.probeBigrams[j] as number;
      if (probeBigrams === 0 || lineBigrams === 0) {
        const p = this.probes[j] as string;
        out[j] = to - from === p.length && text.startsWith(p, from) ? 1 : 0;
      } else {
        out[j] = (2 * (inter[j] as number)) / (probeBigrams + lineBigrams);
      }
    }
  }
}

/** 1 - distance / longer length; 1 for two empty strings. */
export function levenshteinRatio(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - levenshtein(a, b) / longer;
}

/**
 * Levenshtein distance (UTF-16 units) with Myers/Hyyrö bit-parallel blocks: O(ceil(m/32) * n).
 * The shorter string is the pattern (vertical), split into 32-row blocks.
 */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const [pattern, text] = a.length <= b.length ? [a, b] : [b, a];
  const m = pattern.length;
  const n = text.length;
  if (m === 0) return n;

  // Alphabet of the pattern; text characters outside it never match.
  const alphabet = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    if (!alphabet.has(c)) alphabet.set(c, alphabet.size);
  }
  const blocks = Math.ceil(m / 32);
  const peq = new Int32Array(alphabet.size * blocks);
  for (let i = 0; i < m; i++) {
    const id = alphabet.get(pattern.charCodeAt(i)) as number;
    const slot = id * blocks + (i >>> 5);
    peq[slot] = (peq[slot] as number) | (1 << (i & 31));
  }

  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastBit = 1 << ((m - 1) & 31);
  let score = m;
  for (let j = 0; j < n; j++) {
    const id = alphabet.get(text.charCodeAt(j));
    const base = id === undefined ? -1 : id * blocks;
    let hin = 1; // horizontal delta entering the top of the block (row 0 grows by 1 per column)
    for (let blk = 0; blk < blocks; blk++) {
      let eq = base < 0 ? 0 : (peq[base + blk] as number);
      const pvB = pv[blk] as number;
      const mvB = mv[blk] as number;
      const hinNeg = hin < 0 ? 1 : 0;
      const xv = eq | mvB;
      eq |= hinNeg;
      const xh = ((((eq & pvB) + pvB) | 0) ^ pvB) | eq;
      let ph = mvB | ~(xh | pvB);
      let mh = pvB & xh;
      if (blk === blocks - 1) {
        if (ph & lastBit) score++;
        else if (mh & lastBit) score--;
      }
      const hout = ph < 0 ? 1 : mh < 0 ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      mh |= hinNeg;
      if (hin > 0) ph |= 1;
      pv[blk] = mh | ~(xv | ph);
      mv[blk] = ph & xv;
      hin = hout;
    }
  }
  return score;
}
