// editls.searchFiles at ripgrep's own speed, with the real binary on real temp folders: the parallel
// walk (unordered) sorted into path order, and past the cap a sorted walk so that the lines kept are
// always the first maxResults in path order, the same on every run, open buffers merged in between.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { comparePaths } from '../../server/core/search/pathOrder.js';
import { decodeBytesLine, stripTerminator } from '../../server/core/search/lineText.js';
import { resolveWorkspacePath } from '../../server/workspace/disk/paths.js';
import { ripgrepPath } from '../../server/workspace/search/ripgrep.js';
import { dataBytes, parseRgMessage } from '../../server/workspace/search/ripgrepSchema.js';
import { searchFiles } from '../../server/workspace/search/ripgrepSearch.js';
import type { SearchRequest } from '../../server/commands/ports/search.js';
import type { OpenDocument } from '../../server/workspace/editor/openDocuments.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

/** 240 files in nested folders (names ripgrep's byte order and plain string order disagree on), some lines with "needle". */
function tree(): { w: TempWorkspace; files: Record<string, string> } {
  const files = treeFiles();
  const w = tempWorkspace(files, 'editls-rgpar-');
  workspaces.push(w);
  return { w, files };
}

function treeFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const dirs = ['a', 'a-b', 'a/b', 'B', 'é', '😀', 'z/y/x', 'a.b'];
  for (let i = 0; i < 240; i++) {
    const lines: string[] = [];
    const n = 1 + Math.floor(next() * 12);
    for (let l = 0; l < n; l++) lines.push(next() < 0.35 ? `line ${l} needle ${i}` : `line ${l} hay`);
    files[`${dirs[i % dirs.length]}/f${i % 7}-${i}${i % 3 === 0 ? '.ts' : '.txt'}`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/** Every matching line of `files` (as `path:line`) in ripgrep's --sort path order, the texts given winning. */
function expected(files: Record<string, string>): string[] {
  return Object.keys(files)
    .sort(comparePaths)
    .flatMap((p) =>
      files[p]!.split('\n')
        .map((t, i) => (t.includes('needle') ? `${p}:${i + 1}` : ''))
        .filter((x) => x !== ''),
    );
}

async function search(w: TempWorkspace, o: { maxResults: number; contextLines?: number; open?: Record<string, string> }) {
  const scope = await resolveWorkspacePath('.', [w.root], { directories: true });
  if (!scope.ok) throw new Error(scope.message);
  const docs: OpenDocument[] = Object.entries(o.open ?? {}).map(([rel, text]) => ({ uri: pathToFileURL(path.join(w.root, rel)).href, version: 1, text }));
  const req: SearchRequest = { scope, regex: 'needle', respectIgnore: true, contextLines: o.contextLines ?? 0, maxResults: o.maxResults, signal: new AbortController().signal };
  const r = await searchFiles({ folders: [w.root], documents: { all: () => docs }, maxFileSize: 10 * 1024 * 1024, log: () => undefined }, req);
  if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
  return { ...r, hits: r.files.flatMap((f) => f.lines.filter((l) => l.match).map((l) => `${f.path}:${l.line}`)) };
}

describe('searchFiles walks in parallel and still answers in path order', () => {
  it('under the cap: one parallel walk (no --sort path), every matching line in path order', async () => {
    const { w, files } = tree();
    const all = expected(files);
    const r = await search(w, { maxResults: all.length });
    expect(r.walks).toEqual(['parallel']);
    expect(r.truncated).toBe(false);
    expect(r.hits).toEqual(all);
  });

  it('over the cap: the parallel walk stops, a sorted walk keeps the first maxResults lines in path order, the same every run', async () => {
    const { w, files } = tree();
    const all = expected(files);
    const cap = Math.floor(all.length / 3);
    const runs = await Promise.all([1, 2, 3, 4, 5].map(() => search(w, { maxResults: cap, contextLines: 1 })));
    for (const r of runs) {
      expect(r.walks).toEqual(['parallel', 'sorted']);
      expect(r.truncated).toBe(true);
      expect(r.hits).toEqual(all.slice(0, cap));
      expect(r.files).toEqual(runs[0]!.files);
    }
  });

  it('open buffers are merged in path order on both walks, their disk copies never reported', async () => {
    const { w, files } = tree();
    const open = { 'a-b/f0-1.txt': 'needle buffer\nhay\nneedle again\n', 'é/new.txt': 'needle unsaved\n' };
    const merged = { ...files, ...open };
    const all = expected(merged);
    const under = await search(w, { maxResults: all.length, open });
    expect(under.walks).toEqual(['parallel']);
    expect(under.hits).toEqual(all);
    const cap = all.indexOf('é/new.txt:1') + 1;
    const over = await search(w, { maxResults: cap, open });
    expect(over.walks).toEqual(['parallel', 'sorted']);
    expect(over.hits).toEqual(all.slice(0, cap));
  });

  it("a file with more matching lines than the cap (ripgrep's --max-count) still shows the last kept hit's after-context", async () => {
    const w = tempWorkspace({ 'a.txt': 'needle\nhay\nhay\n'.repeat(50), 'b.txt': 'needle\n' }, 'editls-rgpar-');
    workspaces.push(w);
    const r = await search(w, { maxResults: 10, contextLines: 2 });
    expect(r.truncated).toBe(true);
    expect(r.hits).toEqual(Array.from({ length: 10 }, (_, i) => `a.txt:${1 + 3 * i}`));
    const lines = r.files[0]!.lines;
    expect(lines.at(-1)).toMatchObject({ line: 30, match: false, text: 'hay' });
    expect(lines.filter((l) => l.line > 28).map((l) => l.line)).toEqual([29, 30]);
  });
});

/** Every line `rg --context n --sort path` prints over the folder, as `path:line:match|context:text`. */
async function rgContext(root: string, n: number): Promise<string[]> {
  const out = execFileSync(await ripgrepPath(), ['--json', '--no-config', '--no-require-git', '--crlf', '--line-number', '--sort', 'path', '--context', String(n), '-e', 'needle', '--', '.'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const lines: string[] = [];
  for (const l of out.split('\n')) {
    const m = l === '' ? undefined : parseRgMessage(l);
    if (!m || (m.type !== 'match' && m.type !== 'context')) continue;
    const p = 'text' in m.data.path ? m.data.path.text.replace(/^\.\//, '') : '?';
    const text = 'text' in m.data.lines ? m.data.lines.text : decodeBytesLine(dataBytes(m.data.lines), []).text;
    lines.push(`${p}:${m.data.line_number}:${m.type}:${stripTerminator(text)}`);
  }
  return lines;
}

describe('searchFiles reads context lines from the files ripgrep found hits in', () => {
  const variants = (): Record<string, string | Buffer> => {
    const files: Record<string, string | Buffer> = { ...treeFiles() };
    files['crlf.txt'] = 'one\r\nneedle\r\ntwo\r\nthree\r\nneedle\r\n';
    files['bom.ts'] = '\uFEFFfirst\nneedle\nlast';
    files['mixed.txt'] = 'a\nb\r\nneedle 😀 漢字\n\tc\r\nd';
    files['latin1.txt'] = Buffer.from([0x61, 0xe9, 0x0a, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a, 0xe8, 0x0a]);
    files['long.txt'] = `${'x'.repeat(70_000)}\nneedle\n${'y'.repeat(70_000)}\n`;
    return files;
  };

  it.each([1, 2])('gives the lines rg --context %i gives, without a second walk', async (n) => {
    const w = tempWorkspace(variants(), 'editls-rgctx-');
    workspaces.push(w);
    const r = await search(w, { maxResults: 10_000, contextLines: n });
    expect(r.walks).toEqual(['parallel']);
    const got = r.files.flatMap((f) => f.lines.map((l) => `${f.path}:${l.line}:${l.match ? 'match' : 'context'}:${l.text}`));
    const want = await rgContext(w.root, n);
    expect(want.filter((l) => l.includes(':context:')).length).toBeGreaterThan(100);
    expect(got).toEqual(want);
  });

  it('checks and reads a file whose name is not UTF-8 through its bytes (it is reported, with its context lines)', async () => {
    const w = tempWorkspace({ 'plain.txt': 'needle\n' }, 'editls-rgctx-');
    workspaces.push(w);
    writeFileSync(Buffer.concat([Buffer.from(`${w.root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'a\nneedle\nb\n');
    for (const contextLines of [0, 1]) {
      const r = await search(w, { maxResults: 100, contextLines });
      expect(r.walks).toEqual(['parallel']);
      expect(r.notes).toEqual([]);
      expect(r.files.map((f) => [f.path, f.lines.map((l) => l.text)])).toEqual([
        ['caf\uFFFD.txt', contextLines === 0 ? ['needle'] : ['a', 'needle', 'b']],
        ['plain.txt', ['needle']],
      ]);
    }
  });

  it('asks ripgrep for the context lines of a file that cannot give them (UTF-16, which ripgrep transcodes), by its name', async () => {
    const w = tempWorkspace({ ...variants(), 'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nneedle\nb\n', 'utf16le')]) }, 'editls-rgctx-');
    workspaces.push(w);
    const r = await search(w, { maxResults: 10_000, contextLines: 1 });
    expect(r.walks).toEqual(['parallel', 'files']);
    const got = r.files.flatMap((f) => f.lines.map((l) => `${f.path}:${l.line}:${l.match ? 'match' : 'context'}:${l.text}`));
    expect(got).toContain('utf16.txt:1:context:a');
    expect(got).toEqual(await rgContext(w.root, 1));
  });
});
