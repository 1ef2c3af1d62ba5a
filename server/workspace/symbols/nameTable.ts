// The symbol index's query table: every distinct name once, with the list of its symbols, so that
// a query tests a name once instead of once per definition (a million symbols of C headers carry
// about 160,000 distinct names). Built in time slices from a snapshot of the index's files; records
// replaced or removed since (retired) are skipped, and records indexed since are scanned one by one
// beside the table (indexedFiles.ts lists them).
import { matchTierIn, rankKeyIn, type Query, type TopK } from '../../core/symbols/rank.js';
import { FIELDS, KIND, KINDS, LINE, MASK, NAME_AT, NAME_END, START, type IndexedFile } from './indexedFiles.js';

export interface NameTable {
  /** The records the table was built from (some may be retired since). */
  readonly files: readonly IndexedFile[];
  /** The distinct names, joined, and lower-cased at the same offsets. */
  readonly names: string;
  readonly lowers: string;
  /** Name k is names[at[k], at[k + 1]). */
  readonly at: Int32Array;
  /** Each name's charMask. */
  readonly masks: Int32Array;
  /** Name k's symbols are entries first[k] to first[k + 1] of symFile / symIndex. */
  readonly first: Int32Array;
  /** The symbol's record (an index into `files`) and its index in that record. */
  readonly symFile: Int32Array;
  readonly symIndex: Int32Array;
}

/** How long the build works between two pauses (ms): queries and edits get in between. */
export const NAME_TABLE_SLICE_MS = 8;

/**
 * Builds the table from `files`, pausing after a file once `sliceMs` have passed since the last
 * pause; `pause` answers false when the table is no longer wanted (then undefined).
 */
export async function buildNameTable(files: readonly IndexedFile[], pause: () => Promise<boolean>, sliceMs = NAME_TABLE_SLICE_MS): Promise<NameTable | undefined> {
  let total = 0;
  for (const f of files) total += f.count;
  const ids = new Map<string, number>();
  const distinct: string[] = [];
  const distinctLowers: string[] = [];
  const masks: number[] = [];
  // Each symbol's name id, in file order.
  const nameOf = new Int32Array(total);
  let s = 0;
  let sliceStart = performance.now();
  for (const f of files) {
    const { names, lowers, data } = f;
    for (let i = 0, at = 0; i < f.count; i++, at += FIELDS) {
      const from = data[at + NAME_AT]!;
      const to = data[at + NAME_END]!;
      const name = names.slice(from, to);
      let id = ids.get(name);
      if (id === undefined) {
        id = distinct.length;
        ids.set(name, id);
        distinct.push(name);
        distinctLowers.push(lowers.slice(from, to));
        masks.push(data[at + MASK]!);
      }
      nameOf[s++] = id;
    }
    if (performance.now() - sliceStart >= sliceMs) {
      if (!(await pause())) return undefined;
      sliceStart = performance.now();
    }
  }
  ids.clear();
  const n = distinct.length;
  // Symbols grouped by name (a counting sort), each name's in file order.
  const first = new Int32Array(n + 1);
  for (let k = 0; k < total; k++) first[nameOf[k]! + 1]!++;
  for (let k = 0; k < n; k++) first[k + 1]! += first[k]!;
  const next = first.slice(0, n);
  const symFile = new Int32Array(total);
  const symIndex = new Int32Array(total);
  s = 0;
  for (let fi = 0; fi < files.length; fi++) {
    const count = files[fi]!.count;
    for (let i = 0; i < count; i++) {
      const slot = next[nameOf[s++]!]!++;
      symFile[slot] = fi;
      symIndex[slot] = i;
    }
  }
  const at = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) at[k + 1] = at[k]! + distinct[k]!.length;
  return { files, names: distinct.join(''), lowers: distinctLowers.join(''), at, masks: Int32Array.from(masks), first, symFile, symIndex };
}

/**
 * Tests names [from, to) of the table against `q` and offers the symbols of those that match, in
 * live records under `prefix` (when given), to `top`. Returns the work done (names tested plus
 * symbols offered), for the caller's yields.
 */
export function offerNames(table: NameTable, q: Query, top: TopK<[IndexedFile, number]>, prefix: string | undefined, from: number, to: number): number {
  const { files, names, lowers, at, masks, first, symFile, symIndex } = table;
  let work = to - from;
  for (let k = from; k < to; k++) {
    const start = at[k]!;
    const end = at[k + 1]!;
    const tier = matchTierIn(q, names, lowers, start, end, masks[k]!, top.worstUseful());
    if (tier < 0) continue;
    // The best key any of its symbols can have (a type's): none can enter when that one cannot.
    if (!top.mightAccept(rankKeyIn(q, names, start, end, tier, 'class'))) continue;
    for (let e = first[k]!, last = first[k + 1]!; e < last; e++) {
      const file = files[symFile[e]!]!;
      if (file.retired || (prefix !== undefined && !file.abs.startsWith(prefix))) continue;
      const i = symIndex[e]!;
      const d = i * FIELDS;
      const key = rankKeyIn(q, names, start, end, tier, KINDS[file.data[d + KIND]!]!);
      if (top.mightAccept(key)) top.push({ item: [file, i], key, order: file.order, line: file.data[d + LINE]!, column: file.data[d + START]! });
    }
    work += first[k + 1]! - first[k]!;
  }
  return work;
}
