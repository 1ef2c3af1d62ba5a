// The symbol index's name table (issue 30, item 2) answers exactly as a scan of every symbol: two
// indexes of the same real folder (real ripgrep), one querying through a table and one scanning
// file by file, give the same hits for prefixes, word starts, substrings, subsequences, case
// variants, non-ASCII names and every limit, before and after files change, buffers are edited and
// folders go away, while a table is being built and across a full rebuild.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SymbolHit } from '../../server/core/symbols/types.js';
import type { OpenDocument } from '../../server/workspace/editor/openDocuments.js';
import { SymbolIndex } from '../../server/workspace/symbols/symbolIndex.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

/** A small deterministic random source (the corpus and queries are the same on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PARTS = ['get', 'set', 'html', 'parser', 'value', 'id', 'url', 'x', 'node', 'list', 'item', 'Ünïcode', 'straße', 'σigma', 'İdx', '日本', 'v2', '3d', 'buf', 'open'];

function nameFrom(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 3);
  const parts = Array.from({ length: n }, () => PARTS[Math.floor(rand() * PARTS.length)]!);
  const style = Math.floor(rand() * 4);
  if (style === 0) return parts.join('_');
  if (style === 1) return parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('');
  if (style === 2) return parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  return parts.join('_').toUpperCase();
}

/** TypeScript, Python and Rust files defining names from a small pool (so most names recur in many files). */
function corpus(seed: number, files: number): Record<string, string> {
  const rand = random(seed);
  const pool = Array.from({ length: 120 }, () => nameFrom(rand));
  const pick = () => pool[Math.floor(rand() * pool.length)]!;
  const out: Record<string, string> = {};
  for (let f = 0; f < files; f++) {
    const lines: string[] = [];
    const kind = f % 3;
    for (let i = 0; i < 12; i++) {
      const name = pick();
      if (kind === 0) lines.push(i % 3 === 0 ? `export class ${name} {}` : i % 3 === 1 ? `export function ${name}() {}` : `export const ${name} = 1;`);
      else if (kind === 1) lines.push(i % 2 === 0 ? `def ${name}(): pass` : `class ${name}: pass`);
      else lines.push(i % 2 === 0 ? `fn ${name}() {}` : `pub struct ${name};`);
    }
    // Two definitions on one line (the same key, file and line: the column decides).
    if (kind === 0) lines.push(`export const ${pick()} = 1, ${pick()} = 2;`);
    out[`${f % 4 === 0 ? 'sub/' : ''}f${f}.${['ts', 'py', 'rs'][kind]}`] = lines.join(f % 5 === 0 ? '\r\n' : '\n') + '\n';
  }
  return out;
}

/** Queries drawn from the names: prefixes, inner pieces, every other letter, word initials, other case. */
function queries(names: readonly string[], seed: number): string[] {
  const rand = random(seed);
  const out = new Set(['', 'x', 'zzzq', '日', 'Σ', 'ß', 'i̇', 'GSV', 'get_', '__']);
  for (let i = 0; out.size < 160; i++) {
    const name = names[Math.floor(rand() * names.length)]!;
    const a = Math.floor(rand() * name.length);
    const b = a + 1 + Math.floor(rand() * 6);
    const kind = i % 5;
    if (kind === 0) out.add(name.slice(0, b));
    else if (kind === 1) out.add(name.slice(a, b));
    else if (kind === 2) out.add([...name].filter((_, j) => j % 2 === 0).join('').slice(0, 6));
    else if (kind === 3) out.add(name.replace(/[^A-Z]/g, '').toLowerCase() || name.slice(0, 2));
    else out.add(name.slice(a, b).toUpperCase());
  }
  return [...out];
}

const signal = new AbortController().signal;

function show(hits: SymbolHit[] | 'cancelled'): string[] {
  if (hits === 'cancelled') throw new Error('cancelled');
  return hits.map((h) => `${h.name} ${h.kind} ${h.uri.slice(h.uri.lastIndexOf('/') + 1)}:${h.line}:${h.character}`);
}

/**
 * Two indexes of one folder sharing the open buffers: `table` queries through a name table, `scan`
 * never builds one. With `held`, the table's build pauses after every file until `release()`.
 */
function pair(w: TempWorkspace, held = false) {
  const open = new Map<string, OpenDocument>();
  let release: () => void = () => undefined;
  const gate = held ? new Promise<void>((resolve) => (release = resolve)) : undefined;
  const make = (nameTableMin: number) =>
    new SymbolIndex({
      folders: () => [w.root],
      encoding: () => 'utf-16',
      documents: { get: (uri) => open.get(uri), getByPath: (abs) => open.get(pathToFileURL(abs).href) },
      maxFileSize: () => 10 * 1024 * 1024,
      log: () => undefined,
      startProgress: () => ({ signal: new AbortController().signal, report: () => undefined, done: () => undefined }),
      nameTableMin,
      ...(gate !== undefined ? { nameTableBreak: () => gate, nameTableSliceMs: 0 } : {}),
    });
  const table = make(0);
  const scan = make(Number.POSITIVE_INFINITY);
  const both = [table, scan];
  return {
    table,
    scan,
    both,
    release: () => release(),
    openDoc(rel: string, text: string) {
      const uri = pathToFileURL(w.file(rel)).href;
      open.set(uri, { uri, version: (open.get(uri)?.version ?? 0) + 1, text });
      for (const i of both) i.bufferChanged(uri);
    },
    changed(rel: string, type: 'created' | 'changed' | 'deleted') {
      for (const i of both) i.watchedFilesChanged([{ uri: pathToFileURL(w.file(rel)).href, type }]);
    },
  };
}

/** The first query after a build starts the table; resolves once it is built. */
async function tabled(index: SymbolIndex): Promise<void> {
  await index.query('', 1, signal);
  await index.nameTableSettled();
}

async function expectSameAnswers(table: SymbolIndex, scan: SymbolIndex, qs: readonly string[], within?: string): Promise<number> {
  let hits = 0;
  for (const q of qs) {
    for (const limit of [1, 7, 50, 5000]) {
      const want = show(await scan.query(q, limit, signal, within));
      expect(show(await table.query(q, limit, signal, within)), `query ${JSON.stringify(q)} limit ${limit}`).toEqual(want);
      hits += want.length;
    }
  }
  return hits;
}

describe('the symbol name table', () => {
  it('answers every query as a scan of every symbol, also inside a folder', async () => {
    const w = tempWorkspace(corpus(7, 90), 'editls-symtable-');
    workspaces.push(w);
    const { table, scan, both } = pair(w);
    await Promise.all(both.map((i) => i.rebuild()));
    // No table until a query asks (a session that never looks for symbols makes none, and a search
    // right after the build does not share the thread with making one).
    await table.nameTableSettled();
    expect(table.nameTableSize).toBeUndefined();
    await tabled(table);
    const size = table.nameTableSize;
    // The table lists every symbol once, under far fewer names.
    expect(size?.symbols).toBe(table.symbolCount);
    expect(size!.names).toBeLessThan(size!.symbols / 3);
    expect(scan.nameTableSize).toBeUndefined();
    const names = show(await scan.query('', 100_000, signal)).map((h) => h.split(' ')[0]!);
    expect(names.length).toBe(scan.symbolCount);
    const qs = queries(names, 11);
    const hits = await expectSameAnswers(table, scan, qs);
    expect(hits).toBeGreaterThan(qs.length * 10);
    await expectSameAnswers(table, scan, qs.slice(0, 40), path.join(w.root, 'sub'));
  });

  it('stays exact as files change, buffers are edited and folders go away, and rebuilds itself', async () => {
    const w = tempWorkspace(corpus(8, 60), 'editls-symtable-');
    workspaces.push(w);
    const { table, scan, both, openDoc, changed } = pair(w);
    await Promise.all(both.map((i) => i.rebuild()));
    await tabled(table);
    const before = table.nameTableSize!;
    const qs = ['get', 'parser', 'gv', 'html', 'NODE', 'ünï', 'newName', 'onlyInBuffer', 'fresh', 'x'];

    // A file changes on disk, one is created, one is deleted, a folder is removed.
    writeFileSync(w.file('f1.py'), 'def freshName(): pass\nclass getParser: pass\n');
    changed('f1.py', 'changed');
    w.write('new.ts', 'export function newNameHere() {}\n');
    changed('new.ts', 'created');
    rmSync(w.file('f2.rs'));
    changed('f2.rs', 'deleted');
    rmSync(w.file('sub'), { recursive: true });
    changed('sub', 'deleted');
    // A buffer the editor edits, not saved.
    openDoc('f3.ts', 'export class onlyInBufferGetParser {}\n');
    await expectSameAnswers(table, scan, qs);
    expect(show(await table.query('fresh', 10, signal))).toEqual(['freshName function f1.py:0:4']);
    expect(show(await table.query('onlyinbuffer', 10, signal))).toEqual(['onlyInBufferGetParser class f3.ts:0:13']);
    expect(show(await table.query('', 100_000, signal)).some((h) => h.includes(' f2.rs:') || h.includes(' f0.'))).toBe(false);

    // The records replaced since were scanned beside the table; with nameTableMin 0 a new table now lists them.
    await table.nameTableSettled();
    const after = table.nameTableSize!;
    expect(after.symbols).toBe(table.symbolCount);
    expect(after.symbols).toBeLessThan(before.symbols);
    await expectSameAnswers(table, scan, qs);

    // A full build drops the table (it would keep every old record alive), answers exactly
    // meanwhile, and the first query after it makes a new one.
    const rebuilt = Promise.all(both.map((i) => i.rebuild()));
    expect(table.nameTableSize).toBeUndefined();
    await rebuilt;
    await expectSameAnswers(table, scan, qs);
    await table.nameTableSettled();
    expect(table.nameTableSize?.symbols).toBe(table.symbolCount);
    await expectSameAnswers(table, scan, qs);
  });

  it('answers exactly while a table is being built, as files change under it', async () => {
    const w = tempWorkspace(corpus(9, 120), 'editls-symtable-');
    workspaces.push(w);
    const { table, scan, both, release, changed, openDoc } = pair(w, true);
    await Promise.all(both.map((i) => i.rebuild()));
    // The first query starts the table's build, held after its first file: queries answer without it.
    const qs = ['get', 'par', 'sv', 'html_', 'Ünï', 'held'];
    await expectSameAnswers(table, scan, qs);
    writeFileSync(w.file('f4.py'), 'def heldBack(): pass\n');
    changed('f4.py', 'changed');
    rmSync(w.file('f5.rs'));
    changed('f5.rs', 'deleted');
    openDoc('f6.ts', 'export class HeldInBuffer {}\n');
    await expectSameAnswers(table, scan, qs);
    expect(table.nameTableSize).toBeUndefined();
    release();
    await table.nameTableSettled();
    // The held build's snapshot had the replaced and removed records: they are skipped.
    expect(table.nameTableSize).toBeDefined();
    await expectSameAnswers(table, scan, qs);
    expect(show(await table.query('held', 10, signal))).toEqual(['heldBack function f4.py:0:4', 'HeldInBuffer class f6.ts:0:13']);
    // Records replaced after the snapshot are scanned beside the table, or listed by a newer one.
    await table.nameTableSettled();
    expect(table.nameTableSize?.symbols).toBeGreaterThanOrEqual(table.symbolCount);
    await expectSameAnswers(table, scan, qs);
  });
});
