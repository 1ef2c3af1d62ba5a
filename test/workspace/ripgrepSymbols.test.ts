// The symbol index on real temp folders with the real ripgrep: the one-pass build finds what the
// in-process extractor finds (so ripgrep's prefilter misses no definition), respects ignore rules,
// and follows watched-file events and open-buffer edits file by file; positions per encoding.
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractSymbols } from '../core/support.js';
import { languageOf } from '../../server/core/symbols/languages.js';
import type { PositionEncoding } from '../../server/core/text/positions.js';
import type { OpenDocument } from '../../server/workspace/editor/openDocuments.js';
import { SymbolIndex } from '../../server/workspace/symbols/symbolIndex.js';
import { fileURLToPath } from 'node:url';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/symbols');

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

function ws(files: Record<string, string | Buffer>): TempWorkspace {
  const w = tempWorkspace(files, 'editls-sym-');
  workspaces.push(w);
  return w;
}

function indexFor(w: TempWorkspace, encoding: PositionEncoding = 'utf-16', more: readonly TempWorkspace[] = [], tempDir?: string) {
  const open = new Map<string, OpenDocument>();
  const progress: string[] = [];
  const index = new SymbolIndex({
    folders: () => [w.root, ...more.map((m) => m.root)],
    encoding: () => encoding,
    documents: {
      get: (uri) => open.get(uri),
      getByPath: (abs) => open.get(pathToFileURL(abs).href),
    },
    maxFileSize: () => 10 * 1024 * 1024,
    log: () => undefined,
    ...(tempDir !== undefined ? { tempDir: () => tempDir } : {}),
    startProgress: (title) => {
      progress.push(`begin ${title}`);
      return { signal: new AbortController().signal, report: (m) => void progress.push(`report ${m}`), done: (m) => void progress.push(`end ${m ?? ''}`) };
    },
  });
  const openDoc = (rel: string, text: string) => {
    const uri = pathToFileURL(path.join(w.root, rel)).href;
    open.set(uri, { uri, version: (open.get(uri)?.version ?? 0) + 1, text });
    index.bufferChanged(uri);
  };
  const closeDoc = (rel: string) => {
    const uri = pathToFileURL(path.join(w.root, rel)).href;
    open.delete(uri);
    index.bufferClosed(uri);
  };
  return { index, progress, openDoc, closeDoc };
}

const signal = new AbortController().signal;

async function names(index: SymbolIndex, query: string): Promise<string[]> {
  const hits = await index.query(query, 1000, signal);
  if (hits === 'cancelled') throw new Error('cancelled');
  return hits.map((h) => `${h.name}@${h.uri.slice(h.uri.lastIndexOf('/') + 1)}:${h.line + 1}`);
}

describe('symbol index build', () => {
  it('one ripgrep pass finds exactly what the extractor finds in every fixture (no definition lost to the prefilter)', async () => {
    const files: Record<string, string> = {};
    for (const f of readdirSync(FIXTURES)) files[`src/${f.replace(/\.txt$/, '')}`] = readFileSync(path.join(FIXTURES, f), 'utf8');
    // Lines that lean on the prefilter's non-ASCII classes, decorations and modifiers (ripgrep reads them as bytes).
    files['more/A.java'] = '@Entity(name = "users") public class User {\n    @Override public String toString() {\n    }\n}\n';
    files['more/a.cs'] = '[Serializable] public class Dto {\n    [JsonIgnore] public int Count { get; set; }\n}\n';
    files['more/a.kt'] = 'class Repo {\n    companion object Factory {\n        @JvmStatic fun create(): Repo {\n        }\n    }\n}\n';
    files['more/a.swift'] = 'class Cache {\n    @available(iOS 13, *) public func run() {\n    }\n    convenience init?(x: Int) {\n    }\n}\n';
    files['more/a.rs'] = '#[macro_export] macro_rules! check {\n}\nconst ÉTAT: u8 = 1;\n';
    files['more/a.lua'] = 'café.boire = function(x)\nend\n';
    files['more/a.php'] = '<?php\nclass C {\n    const MAX = 10;\n    const string NAME = "x";\n}\n';
    const w = ws(files);
    const { index, progress } = indexFor(w);
    await index.rebuild();
    expect(progress[0]).toBe('begin editls: indexing symbols');
    expect(progress[progress.length - 1]).toMatch(/^end /);
    const all = await index.query('', 100_000, signal);
    if (all === 'cancelled') throw new Error('cancelled');
    for (const [rel, text] of Object.entries(files)) {
      const uri = pathToFileURL(path.join(w.root, rel)).href;
      const got = all.filter((h) => h.uri === uri).map((h) => `${h.line}:${h.character}-${h.endCharacter} ${h.kind} ${h.name} ${h.container ?? ''}`).sort();
      const want = extractSymbols(languageOf(rel)!, text).map((s) => `${s.line}:${s.start}-${s.end} ${s.kind} ${s.name} ${s.container ?? ''}`).sort();
      expect(got, rel).toEqual(want);
    }
  });

  it('one folder is searched from inside it (ripgrep prints ./ paths), several by their absolute paths: same files, same URIs', async () => {
    const a = ws({ 'src/one.ts': 'export function one() {}\n', 'deep/er/two.py': 'def two():\n    pass\n' });
    const b = ws({ 'lib/three.go': 'package x\n\nfunc Three() {}\n', '.hidden/no.ts': 'function no() {}\n' });
    const single = indexFor(a);
    await single.index.rebuild();
    expect(await names(single.index, '')).toEqual(['two@two.py:1', 'one@one.ts:1']);
    const hits = await single.index.query('', 10, signal);
    if (hits === 'cancelled') throw new Error('cancelled');
    expect(hits.map((h) => h.uri).sort()).toEqual([pathToFileURL(path.join(a.root, 'deep/er/two.py')).href, pathToFileURL(path.join(a.root, 'src/one.ts')).href]);
    const both = indexFor(a, 'utf-16', [b]);
    await both.index.rebuild();
    const all = await both.index.query('', 10, signal);
    if (all === 'cancelled') throw new Error('cancelled');
    expect(all.map((h) => `${h.name} ${h.uri}`).sort()).toEqual(
      [
        `Three ${pathToFileURL(path.join(b.root, 'lib/three.go')).href}`,
        `one ${pathToFileURL(path.join(a.root, 'src/one.ts')).href}`,
        `two ${pathToFileURL(path.join(a.root, 'deep/er/two.py')).href}`,
      ].sort(),
    );
  });

  it('builds the same index through a pipe when no temporary file can be made for ripgrep', async () => {
    const files: Record<string, string> = {};
    for (const f of readdirSync(FIXTURES)) files[`src/${f.replace(/\.txt$/, '')}`] = readFileSync(path.join(FIXTURES, f), 'utf8');
    const w = ws(files);
    const viaFile = indexFor(w);
    await viaFile.index.rebuild();
    const viaPipe = indexFor(w, 'utf-16', [], path.join(w.root, 'no', 'such', 'folder'));
    await viaPipe.index.rebuild();
    const all = async (index: SymbolIndex) => {
      const hits = await index.query('', 100_000, signal);
      if (hits === 'cancelled') throw new Error('cancelled');
      return hits;
    };
    const expected = await all(viaFile.index);
    expect(expected.length).toBeGreaterThan(100);
    expect(await all(viaPipe.index)).toEqual(expected);
  });

  it('skips the same long lines as the extractor (--max-columns counts the line break; multi-byte characters)', async () => {
    const sized = (name: string, bytes: number) => `export const ${name} = "${'é'.repeat((bytes - name.length - 19) >> 1)}${'x'.repeat((bytes - name.length - 19) & 1)}";`;
    const text = [998, 999, 1000, 1001].map((n, i) => sized(`v${i}`, n)).join('\n') + '\n';
    expect(text.split('\n').slice(0, 4).map((l) => Buffer.byteLength(l))).toEqual([998, 999, 1000, 1001]);
    const w = ws({ 'a.ts': text });
    const { index } = indexFor(w);
    await index.rebuild();
    expect(await names(index, '')).toEqual(['v0@a.ts:1', 'v1@a.ts:2']);
    expect(extractSymbols(languageOf('a.ts')!, text).map((s) => s.name)).toEqual(['v0', 'v1']);
  });

  it('skips ignored (also without .git), hidden, binary and non-source files', async () => {
    const w = ws({
      '.gitignore': 'gen/\nskip.ts\n',
      'a.ts': 'export function kept() {}\n',
      'skip.ts': 'export function ignoredFile() {}\n',
      'gen/x.ts': 'export function ignoredFolder() {}\n',
      '.hidden.ts': 'export function hiddenFile() {}\n',
      '.cache/y.ts': 'export function hiddenFolder() {}\n',
      'bin.ts': Buffer.from('export function binaryFile() {}\n\0\0\0'),
      'notes.md': 'function markdown() {}\n',
    });
    const { index } = indexFor(w);
    await index.rebuild();
    expect(await names(index, '')).toEqual(['kept@a.ts:1']);
  });

  it('CRLF files, a BOM and positions in utf-8 / utf-16 / utf-32', async () => {
    const text = '\uFEFFconst x = "é😀"; export function after() {}\r\nexport function 日本() {}\r\n';
    const w = ws({ 'a.ts': text });
    const cols: Record<string, [number, number][]> = {};
    for (const enc of ['utf-8', 'utf-16', 'utf-32'] as const) {
      const { index } = indexFor(w, enc);
      await index.rebuild();
      const hits = await index.query('', 100, signal);
      if (hits === 'cancelled') throw new Error('cancelled');
      cols[enc] = hits.map((h) => [h.character, h.endCharacter]);
      expect(hits.map((h) => h.name)).toEqual(['x', '日本']);
    }
    // `x` is at column 6 whatever the unit; `日本` spans 2 UTF-16 units, 6 UTF-8 bytes, 2 code points.
    expect(cols['utf-16']).toEqual([[6, 7], [16, 18]]);
    expect(cols['utf-8']).toEqual([[6, 7], [16, 22]]);
    expect(cols['utf-32']).toEqual([[6, 7], [16, 18]]);
  });

  it('answers queries during the build from what is indexed so far', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`f${i}.ts`] = Array.from({ length: 50 }, (_, j) => `export function fn_${i}_${j}() {}`).join('\n') + '\n';
    const w = ws(files);
    const { index } = indexFor(w);
    const build = index.rebuild();
    const early = await index.query('fn', 10, signal);
    expect(Array.isArray(early)).toBe(true);
    await build;
    expect(index.symbolCount).toBe(300 * 50);
  });

  it('a cancelled query says so', async () => {
    const w = ws({ 'a.ts': 'function a() {}\n' });
    const { index } = indexFor(w);
    await index.rebuild();
    const c = new AbortController();
    c.abort();
    expect(await index.query('a', 10, c.signal)).toBe('cancelled');
  });
});

describe('incremental updates', () => {
  it('follows watched-file changes, creations and deletions, honouring ignore rules for new files', async () => {
    const w = ws({ '.gitignore': 'out/\n', 'a.ts': 'export function alpha() {}\n', 'dir/b.py': 'def beta(): pass\n' });
    const { index } = indexFor(w);
    await index.rebuild();
    expect(await names(index, '')).toEqual(['alpha@a.ts:1', 'beta@b.py:1']);

    writeFileSync(w.file('a.ts'), '// moved\nexport function alphaTwo() {}\n');
    index.watchedFilesChanged([{ uri: pathToFileURL(w.file('a.ts')).href, type: 'changed' }]);
    expect(await names(index, 'alpha')).toEqual(['alphaTwo@a.ts:2']);

    w.write('c.go', 'package c\nfunc Gamma() {}\n');
    w.write('out/d.ts', 'export function ignoredDelta() {}\n');
    w.write('.e.ts', 'export function hiddenEps() {}\n');
    index.watchedFilesChanged(['c.go', 'out/d.ts', '.e.ts'].map((rel) => ({ uri: pathToFileURL(w.file(rel)).href, type: 'created' as const })));
    expect(await names(index, '')).toEqual(['alphaTwo@a.ts:2', 'Gamma@c.go:2', 'beta@b.py:1']);

    rmSync(w.file('dir'), { recursive: true });
    index.watchedFilesChanged([{ uri: pathToFileURL(w.file('dir')).href, type: 'deleted' }]);
    expect(await names(index, '')).toEqual(['alphaTwo@a.ts:2', 'Gamma@c.go:2']);
  });

  it('follows open-buffer edits (the buffer wins over disk) and returns to the disk copy on close', async () => {
    const w = ws({ 'a.ts': 'export function onDisk() {}\n' });
    const { index, openDoc, closeDoc } = indexFor(w);
    await index.rebuild();
    openDoc('a.ts', 'export function inBuffer() {}\nexport class Typed {}\n');
    expect(await names(index, '')).toEqual(['inBuffer@a.ts:1', 'Typed@a.ts:2']);
    openDoc('new.rs', 'fn unsaved_fn() {}\n');
    expect(await names(index, 'unsaved')).toEqual(['unsaved_fn@new.rs:1']);
    closeDoc('a.ts');
    expect(await names(index, 'on')).toEqual(['onDisk@a.ts:1']);
  });
});
