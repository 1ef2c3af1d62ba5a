// The ripgrep runner and editls.searchFiles' IO on real temp folders with the real binary: ignore
// rules without .git, nested and negated rules, hidden and binary files, globs that must not
// re-include, CRLF `$`, BOM `^`, Unicode `\w`, the cap (and ripgrep stopped early), dirty buffers,
// cancellation.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileGlob } from '../../server/core/search/glob.js';
import { resolveWorkspacePath } from '../../server/workspace/disk/paths.js';
import { ripgrepPath, runRipgrep } from '../../server/workspace/search/ripgrep.js';
import { searchFiles } from '../../server/workspace/search/ripgrepSearch.js';
import type { SearchRequest } from '../../server/commands/ports/search.js';
import type { OpenDocument } from '../../server/workspace/editor/openDocuments.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

function ws(files: Record<string, string | Buffer>): TempWorkspace {
  const w = tempWorkspace(files, 'editls-rg-');
  workspaces.push(w);
  return w;
}

interface Options {
  path?: string;
  glob?: string;
  respectIgnore?: boolean;
  contextLines?: number;
  maxResults?: number;
  open?: Record<string, string>;
  signal?: AbortSignal;
}

async function search(w: TempWorkspace, regex: string, o: Options = {}) {
  const scope = await resolveWorkspacePath(o.path ?? '.', [w.root], { directories: true });
  if (!scope.ok) throw new Error(scope.message);
  const docs: OpenDocument[] = Object.entries(o.open ?? {}).map(([rel, text]) => ({ uri: pathToFileURL(path.join(w.root, rel)).href, version: 1, text }));
  let glob;
  if (o.glob !== undefined) {
    const g = compileGlob(o.glob);
    if (!g.ok) throw new Error(g.message);
    glob = g.glob;
  }
  const req: SearchRequest = {
    scope,
    regex,
    ...(glob ? { glob } : {}),
    respectIgnore: o.respectIgnore ?? true,
    contextLines: o.contextLines ?? 1,
    maxResults: o.maxResults ?? 300,
    signal: o.signal ?? new AbortController().signal,
  };
  return searchFiles({ folders: [w.root], documents: { all: () => docs }, maxFileSize: 10 * 1024 * 1024, log: () => undefined }, req);
}

async function paths(w: TempWorkspace, regex: string, o: Options = {}): Promise<string[]> {
  const r = await search(w, regex, o);
  if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
  return r.files.map((f) => f.path);
}

describe('ripgrep runner', () => {
  it('streams --json messages through the schema', async () => {
    const w = ws({ 'a.txt': 'one\ntwo needle\n' });
    const types: string[] = [];
    const exit = await runRipgrep({ args: ['--json', '--no-config', 'needle', w.root], onMessage: (m) => (types.push(m.type), 'continue') });
    expect(exit.code).toBe(0);
    expect(exit.sawSummary).toBe(true);
    expect(exit.malformed).toEqual([]);
    expect(types).toEqual(['begin', 'match', 'end', 'summary']);
  });

  it('searches stdin', async () => {
    const lines: string[] = [];
    const exit = await runRipgrep({ args: ['--no-config', 'b'], stdin: 'a\nb\nc\n', onLine: (l) => (lines.push(l), 'continue') });
    expect(exit.code).toBe(0);
    expect(lines).toEqual(['b']);
  });

  it('kills ripgrep on abort (blocked on a FIFO that never gets data)', async () => {
    const w = ws({});
    const fifo = path.join(w.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const run = runRipgrep({ args: ['--json', '--no-config', 'x', fifo], signal: controller.signal, onMessage: () => 'continue' });
    setTimeout(() => controller.abort(), 50);
    const exit = await run;
    expect(exit.cancelled).toBe(true);
    expect(exit.code).toBeNull();
  });

  it('the binary exists where @vscode/ripgrep says', async () => {
    expect(existsSync(await ripgrepPath())).toBe(true);
  });
});

describe('searchFiles: which files are searched', () => {
  const files = {
    '.gitignore': 'ignored.ts\nbuild/\n*.log\n!keep.log\n',
    'src/a.ts': 'needle a\n',
    'src/ignored.ts': 'needle ignored by the root rule, also nested\n',
    'ignored.ts': 'needle\n',
    'build/b.ts': 'needle in ignored folder\n',
    'x.log': 'needle\n',
    'keep.log': 'needle kept by negation\n',
    'sub/.gitignore': 'c.ts\n',
    'sub/deep/c.ts': 'needle nested rule\n',
    'sub/deep/d.ts': 'needle\n',
    'other/.ignore': 'secret.ts\n',
    'other/secret.ts': 'needle\n',
    '.hidden.ts': 'needle\n',
    '.hid/x.ts': 'needle\n',
    'bin/early.ts': Buffer.concat([Buffer.from('needle\0binary\n')]),
    'bin/late.ts': Buffer.concat([Buffer.from('needle first\n'), Buffer.from('x'.repeat(200_000) + '\n'), Buffer.from('\0tail\n')]),
  };

  it('honours .gitignore and .ignore without .git, nested and negated rules; skips hidden and binary files', async () => {
    const w = ws(files);
    expect(existsSync(path.join(w.root, '.git'))).toBe(false);
    expect(await paths(w, 'needle')).toEqual(['keep.log', 'src/a.ts', 'sub/deep/d.ts']);
  });

  it('respect_gitignore: false searches ignored files too, still not hidden or binary ones', async () => {
    const w = ws(files);
    expect(await paths(w, 'needle', { respectIgnore: false })).toEqual([
      'build/b.ts',
      'ignored.ts',
      'keep.log',
      'other/secret.ts',
      'src/a.ts',
      'src/ignored.ts',
      'sub/deep/c.ts',
      'sub/deep/d.ts',
      'x.log',
    ]);
  });

  it('file_pattern narrows but never re-includes ignored or hidden files (ripgrep --glob would)', async () => {
    const w = ws(files);
    // What plain `rg --glob` does, for the record: it re-includes ignored and hidden files.
    const rg = await ripgrepPath();
    const raw = execFileSync(rg, ['--no-config', '--no-require-git', '-l', '--glob', '*.ts', 'needle', '.'], { cwd: w.root, encoding: 'utf8' }).split('\n').filter(Boolean).map((p) => p.replace(/^\.\//, '')).sort();
    expect(raw).toContain('ignored.ts');
    expect(raw).toContain('.hidden.ts');
    expect(await paths(w, 'needle', { glob: '*.ts' })).toEqual(['src/a.ts', 'sub/deep/d.ts']);
    expect(await paths(w, 'needle', { glob: '**/*.ts' })).toEqual(['src/a.ts', 'sub/deep/d.ts']);
    expect(await paths(w, 'needle', { glob: 'build/**' })).toEqual([]);
    expect(await paths(w, 'needle', { glob: '*.log' })).toEqual(['keep.log']);
    expect(await paths(w, 'needle', { glob: '*.{log,ts}' })).toEqual(['keep.log', 'src/a.ts', 'sub/deep/d.ts']);
    expect(await paths(w, 'needle', { glob: 'sub/**/*.ts' })).toEqual(['sub/deep/d.ts']);
    expect(await paths(w, 'needle', { glob: 'src/*' })).toEqual(['src/a.ts']);
    expect(await paths(w, 'needle', { glob: 'ignored.ts' })).toEqual([]);
    // with ignore rules off, the pattern still narrows
    expect(await paths(w, 'needle', { glob: 'src/*.ts', respectIgnore: false })).toEqual(['src/a.ts', 'src/ignored.ts']);
  });

  it('a path scope searches below it, relative paths stay relative to the workspace folder', async () => {
    const w = ws(files);
    expect(await paths(w, 'needle', { path: 'sub' })).toEqual(['sub/deep/d.ts']);
    expect(await paths(w, 'needle', { path: 'src/a.ts' })).toEqual(['src/a.ts']);
    expect(await paths(w, 'needle', { path: 'sub', glob: 'deep/*.ts' })).toEqual(['sub/deep/d.ts']);
  });

  it('results come in ripgrep --sort path order, which comparePaths reproduces', async () => {
    const names = ['a.ts', 'a/x.ts', 'a-b.ts', 'B.ts', 'a/b/c.ts', 'z.ts', 'é.ts', '😀.ts', 'a/a.ts'];
    const w = ws(Object.fromEntries(names.map((n) => [n, 'hit\n'])));
    expect(await paths(w, 'hit')).toEqual(['B.ts', 'a/a.ts', 'a/b/c.ts', 'a/x.ts', 'a-b.ts', 'a.ts', 'z.ts', 'é.ts', '😀.ts']);
  });
});

describe('searchFiles: lines, encodings and regex semantics', () => {
  it('$ matches before CRLF; ^ matches after a BOM; ranges skip the BOM', async () => {
    const w = ws({
      'crlf.txt': 'alpha end\r\nbeta\r\nend gamma end\r\n',
      'mixed.txt': 'x end\nend y\r\nz end\r\n',
      'bom.txt': '\uFEFFstart here\nnot start\n',
    });
    const r = await search(w, 'end$', { contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    const lines = r.files.flatMap((f) => f.lines.filter((l) => l.match).map((l) => `${f.path}:${l.line}:${l.text}`));
    expect(lines).toEqual(['crlf.txt:1:alpha end', 'crlf.txt:3:end gamma end', 'mixed.txt:1:x end', 'mixed.txt:3:z end']);
    const bom = await search(w, '^start', { contextLines: 0 });
    if (!bom.ok) throw new Error(bom.message);
    expect(bom.files.map((f) => f.path)).toEqual(['bom.txt']);
    expect(bom.files[0]!.lines[0]).toMatchObject({ line: 1, text: 'start here', submatches: [{ start: 0, end: 5 }] });
  });

  it('\\w is Unicode-aware; offsets come back as UTF-16 on é, CJK and astral characters', async () => {
    const line = 'héllo wörld 日本語 😀x';
    const w = ws({ 'u.txt': `${line}\n` });
    const r = await search(w, '\\w+', { contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    const l = r.files[0]!.lines[0]!;
    expect(l.submatches.map((m) => line.slice(m.start, m.end))).toEqual(['héllo', 'wörld', '日本語', 'x']);
  });

  it('lines that are not UTF-8 and UTF-16 files are reported as the editor shows them', async () => {
    const w = ws({
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a]),
      'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x needle é\n', 'utf16le')]),
    });
    const r = await search(w, 'needle', { contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    const byPath = Object.fromEntries(r.files.map((f) => [f.path, f.lines[0]!]));
    expect(byPath['latin1.txt']!.text).toBe('caf\uFFFD needle');
    expect(byPath['latin1.txt']!.text.slice(byPath['latin1.txt']!.submatches[0]!.start, byPath['latin1.txt']!.submatches[0]!.end)).toBe('needle');
    expect(byPath['utf16.txt']!.text).toBe('x needle é');
    expect(byPath['utf16.txt']!.submatches[0]).toEqual({ start: 2, end: 8 });
  });

  it('tabs, no final newline and a 1 MB line', async () => {
    const huge = `${'x'.repeat(1_000_000)}needle😀`;
    const w = ws({ 'tabs.txt': '\tone\t\tneedle\there', 'huge.txt': `before\n${huge}\nafter` });
    const r = await search(w, 'needle', { contextLines: 1 });
    if (!r.ok) throw new Error(r.message);
    const byPath = Object.fromEntries(r.files.map((f) => [f.path, f.lines]));
    const tab = byPath['tabs.txt']!.find((l) => l.match)!;
    expect(tab.text).toBe('\tone\t\tneedle\there');
    expect(tab.text.slice(tab.submatches[0]!.start, tab.submatches[0]!.end)).toBe('needle');
    const big = byPath['huge.txt']!;
    expect(big.map((l) => l.line)).toEqual([1, 2, 3]);
    expect(big[1]!.submatches).toEqual([{ start: 1_000_000, end: 1_000_006 }]);
    expect(big[2]!.text).toBe('after');
  });

  it('a bad regex is invalid_regex with ripgrep\'s reason, never an empty result', async () => {
    const w = ws({ 'a.txt': 'x\n' });
    for (const [regex, reason] of [
      ['(unclosed', 'unclosed group'],
      ['a{2,1}', 'invalid repetition'],
      ['(?<=x)y', 'look-around'],
      ['a\\nb', 'single lines'],
    ] as const) {
      const r = await search(w, regex);
      if (r.ok) throw new Error(`${regex} should fail`);
      expect(r.kind).toBe('invalid_regex');
      expect(r.message.toLowerCase()).toContain(reason);
      expect(r.message).not.toContain('\n');
    }
  });

  it('context lines and block boundaries come from ripgrep (hits within three lines share a block)', async () => {
    const text = Array.from({ length: 20 }, (_, i) => (i + 1 === 3 || i + 1 === 6 || i + 1 === 10 ? `hit ${i + 1}` : `line ${i + 1}`)).join('\n') + '\n';
    const w = ws({ 'a.txt': text });
    const r = await search(w, '^hit');
    if (!r.ok) throw new Error(r.message);
    expect(r.files[0]!.lines.map((l) => l.line)).toEqual([2, 3, 4, 5, 6, 7, 9, 10, 11]);
  });
});

describe('searchFiles: the cap', () => {
  it('keeps max_results matching lines in path order and stops ripgrep early', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`f${String(i).padStart(3, '0')}.txt`] = 'needle\n'.repeat(20) + 'x'.repeat(2000) + '\n';
    const w = ws(files);
    const r = await search(w, 'needle', { maxResults: 30 });
    if (!r.ok) throw new Error(r.message);
    expect(r.truncated).toBe(true);
    expect(r.matchCount).toBe(30);
    expect(r.files.map((f) => f.path)).toEqual(['f000.txt', 'f001.txt']);
    expect(r.files[1]!.lines.filter((l) => l.match).length).toBe(10);
    expect(r.stoppedEarly).toBe(true);
  });

  it('exactly max_results hits is not truncated', async () => {
    const w = ws({ 'a.txt': 'n\nn\nn\n' });
    const r = await search(w, 'n', { maxResults: 3 });
    if (!r.ok) throw new Error(r.message);
    expect(r.truncated).toBe(false);
    expect(r.matchCount).toBe(3);
  });
});

describe('searchFiles: open buffers with unsaved changes', () => {
  it('searches the buffer text instead of the disk copy, merged in path order', async () => {
    const w = ws({ 'a.txt': 'needle on disk\n', 'b.txt': 'nothing\n', 'c.txt': 'needle c\n' });
    const r = await search(w, 'needle', { open: { 'a.txt': 'changed\nneedle in buffer\n', 'b.txt': 'buffer needle\n' }, contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    expect(r.files.map((f) => `${f.path}:${f.lines.map((l) => l.text).join('|')}`)).toEqual(['a.txt:needle in buffer', 'b.txt:buffer needle', 'c.txt:needle c']);
    expect(r.files[0]!.lines[0]!.line).toBe(2);
  });

  it('a buffer whose text equals the disk is not searched twice; a dirty buffer without hits hides its disk hits', async () => {
    const w = ws({ 'a.txt': 'needle\n', 'b.txt': 'needle\n' });
    expect(await paths(w, 'needle', { open: { 'a.txt': 'needle\n', 'b.txt': 'gone\n' } })).toEqual(['a.txt']);
  });

  it('a dirty buffer of an ignored or hidden file stays out; file_pattern applies to buffers', async () => {
    const w = ws({ '.gitignore': 'gen.ts\n', 'gen.ts': 'x\n', '.h.ts': 'x\n', 'a.ts': 'x\n', 'a.md': 'x\n' });
    const open = { 'gen.ts': 'needle\n', '.h.ts': 'needle\n', 'a.ts': 'needle\n', 'a.md': 'needle\n' };
    expect(await paths(w, 'needle', { open })).toEqual(['a.md', 'a.ts']);
    expect(await paths(w, 'needle', { open, glob: '*.ts' })).toEqual(['a.ts']);
    expect(await paths(w, 'needle', { open, respectIgnore: false })).toEqual(['a.md', 'a.ts', 'gen.ts']);
  });

  it('a new unsaved buffer (no file on disk) is searched; one with CRLF gets $ right', async () => {
    const w = ws({ 'a.txt': 'x\n' });
    const r = await search(w, 'end$', { open: { 'new.txt': 'the end\r\nmore\r\n' }, contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    expect(r.files.map((f) => `${f.path}:${f.lines[0]!.text}`)).toEqual(['new.txt:the end']);
  });

  it('the cap counts buffer hits too', async () => {
    const w = ws({ 'a.txt': 'n\n', 'c.txt': 'n\n' });
    const r = await search(w, 'n', { open: { 'b.txt': 'n\nn\n' }, maxResults: 2, contextLines: 0 });
    if (!r.ok) throw new Error(r.message);
    expect(r.truncated).toBe(true);
    expect(r.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(r.matchCount).toBe(2);
  });
});

describe('searchFiles: cancellation', () => {
  it('an aborted signal is `cancelled`', async () => {
    const w = ws({ 'a.txt': 'needle\n' });
    const controller = new AbortController();
    controller.abort();
    const r = await search(w, 'needle', { signal: controller.signal });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('cancelled');
  });
});
