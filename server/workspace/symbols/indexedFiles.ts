// The symbol index's files: one column-wise record per source file (IndexedFile), and the map
// from real path to record that retires a record when it is replaced or removed, so that the name
// table built from older records (nameTable.ts) skips it, and that lists the records the table
// does not hold yet (queries scan those one by one).
import type { SymbolKindName } from '../../core/symbols/types.js';
import { SYMBOL_KINDS } from '../../core/symbols/types.js';

/**
 * One file's symbols, column-wise (a few arrays instead of an object per symbol: ~100k symbols
 * cost far less memory and garbage-collection time this way).
 */
export interface IndexedFile {
  abs: string;
  rel: string;
  uri: string;
  count: number;
  /**
   * All names of the file in one string (and lower-cased, at the same offsets): two strings per
   * file instead of two per symbol keeps the heap small and garbage collection short.
   */
  names: string;
  lowers: string;
  /** Each symbol's container, or undefined when no symbol of the file has one. */
  containers: (string | undefined)[] | undefined;
  /**
   * FIELDS numbers per symbol: char mask, kind, line, name start and end (columns in the
   * negotiated encoding), name offsets in `names`. One typed array per file: allocating typed
   * arrays is not cheap.
   */
  data: Int32Array;
  /** Position in path order, refreshed before a query when files came or went. */
  order: number;
  /** Replaced or removed from the index: a name table built before still lists its symbols, and skips them. */
  retired: boolean;
}

export const FIELDS = 7;
export const MASK = 0;
export const KIND = 1;
export const LINE = 2;
export const START = 3;
export const END = 4;
export const NAME_AT = 5;
export const NAME_END = 6;

export const KINDS: readonly SymbolKindName[] = SYMBOL_KINDS;

export class IndexedFiles {
  private readonly byPath = new Map<string, IndexedFile>();
  /** Live records no name table holds (every record until the first table is built). */
  readonly unlisted = new Set<IndexedFile>();
  /** Symbols of `unlisted`. */
  unlistedSymbols = 0;
  /** Symbols of all live records. */
  symbols = 0;

  get size(): number {
    return this.byPath.size;
  }

  has(abs: string): boolean {
    return this.byPath.has(abs);
  }

  keys(): IterableIterator<string> {
    return this.byPath.keys();
  }

  values(): IterableIterator<IndexedFile> {
    return this.byPath.values();
  }

  entries(): IterableIterator<[string, IndexedFile]> {
    return this.byPath.entries();
  }

  put(file: IndexedFile): void {
    this.retire(this.byPath.get(file.abs));
    this.byPath.set(file.abs, file);
    this.unlisted.add(file);
    this.unlistedSymbols += file.count;
    this.symbols += file.count;
  }

  drop(abs: string): void {
    this.retire(this.byPath.get(abs));
    this.byPath.delete(abs);
  }

  clear(): void {
    for (const f of this.byPath.values()) this.retire(f);
    this.byPath.clear();
  }

  /** No name table holds any record any more. */
  unlistAll(): void {
    for (const f of this.byPath.values()) this.unlisted.add(f);
    this.unlistedSymbols = this.symbols;
  }

  /** A name table now holds these records (those retired meanwhile stay out of `unlisted`). */
  listed(files: readonly IndexedFile[]): void {
    for (const f of files) {
      if (this.unlisted.delete(f)) this.unlistedSymbols -= f.count;
    }
  }

  private retire(old: IndexedFile | undefined): void {
    if (old === undefined) return;
    old.retired = true;
    this.symbols -= old.count;
    if (this.unlisted.delete(old)) this.unlistedSymbols -= old.count;
  }
}
