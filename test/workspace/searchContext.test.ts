// Context lines read from the file (workspace/search/searchContext.ts) against real `rg --json --context n` on
// generated files: LF, CRLF and mixed endings, a UTF-8 BOM, no final newline, tabs, emoji and CJK, bytes
// that are not UTF-8, empty lines, hits next to each other and lines longer than the first window; and
// the cases where ripgrep must be asked instead (UTF-16, a changed file, NUL, a symlink, a FIFO).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ripgrepPath } from '../../server/workspace/search/ripgrep.js';
import { dataBytes, parseRgMessage } from '../../server/workspace/search/ripgrepSchema.js';
import { contextAround, fileContextAround, type ContextLine, type Hit } from '../../server/workspace/search/searchContext.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

interface RgLine {
  line: number;
  offset: number;
  bytes: Buffer;
  match: boolean;
}

/** ripgrep's matching and context lines in one file, as --json prints them. */
async function rgLines(file: string, context: number): Promise<RgLine[]> {
  let out = '';
  try {
    out = execFileSync(await ripgrepPath(), ['--json', '--no-config', '--crlf', '--line-number', '--context', String(context), '-e', 'needle', '--', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (error) {
    out = (error as { stdout: string }).stdout; // exit 1: no match
  }
  const lines: RgLine[] = [];
  for (const l of out.split('\n')) {
    const m = l === '' ? undefined : parseRgMessage(l);
    if (m && (m.type === 'match' || m.type === 'context')) lines.push({ line: m.data.line_number!, offset: m.data.absolute_offset, bytes: Buffer.from(dataBytes(m.data.lines)), match: m.type === 'match' });
  }
  return lines;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['const a = 1;', '\tindented\twith tabs', '', 'emoji 😀 and 漢字', 'needle here', 'two needle needle', 'plain text', '   '];

function generated(seed: number): Buffer {
  const r = rng(seed);
  const parts: Buffer[] = [];
  if (r() < 0.3) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const count = 1 + Math.floor(r() * 40);
  for (let i = 0; i < count; i++) {
    const x = r();
    let text: Buffer;
    if (x < 0.04) text = Buffer.from('x'.repeat(20000 + Math.floor(r() * 60000)) + (r() < 0.5 ? ' needle' : ''));
    else if (x < 0.08) text = Buffer.from([0x6c, 0x61, 0x74, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]); // Latin-1 "laté needle"
    else text = Buffer.from(PIECES[Math.floor(r() * PIECES.length)]!);
    parts.push(text);
    const last = i === count - 1;
    if (!last || r() < 0.7) parts.push(Buffer.from(r() < 0.3 ? '\r\n' : '\n'));
  }
  return Buffer.concat(parts);
}

describe('contextAround', () => {
  // 600 ripgrep runs one after another: seconds when quiet, more than the suite's 30 s with a
  // CPU-bound process per core beside it; bounded by a generous deadline, not a guess at its pace.
  it('gives exactly the context lines rg --context prints, on 150 generated files and 1 to 3 lines, still intact after every later file is read', { timeout: 240_000 }, async () => {
    const files: Record<string, Buffer> = {};
    for (let seed = 1; seed <= 150; seed++) files[`f${seed}.txt`] = generated(seed);
    const w = tempWorkspace(files, 'editls-ctx-');
    workspaces.push(w);
    let compared = 0;
    let contextLines = 0;
    // Every result is compared only once all files are read: the reader reuses one buffer from file to
    // file, and the lines it returns must not be views into it.
    const results: { label: string; got: ContextLine[] | string; expected: { line: number; bytes: string }[] }[] = [];
    for (const name of Object.keys(files)) {
      const file = path.join(w.root, name);
      const hits: Hit[] = (await rgLines(file, 0)).map((l) => ({ line: l.line, offset: l.offset, bytes: l.bytes }));
      for (const n of [1, 2, 3]) {
        const expected = (await rgLines(file, n)).filter((l) => !l.match).map((l) => ({ line: l.line, bytes: l.bytes.toString('latin1') }));
        results.push({ label: `${name} -C${n}`, got: fileContextAround(file, hits, n), expected });
      }
    }
    for (const { label, got, expected } of results) {
      expect(Array.isArray(got), `${label}: ${String(got)}`).toBe(true);
      expect((got as ContextLine[]).map((l) => ({ line: l.line, bytes: l.bytes.toString('latin1') })), label).toEqual(expected);
      compared++;
      contextLines += expected.length;
    }
    expect(compared).toBe(450);
    expect(contextLines).toBeGreaterThan(1000);
  });

  it('reads past the first window for long neighbouring lines, and gives up past the largest', async () => {
    const long = 'y'.repeat(100_000);
    const w = tempWorkspace({ 'long.txt': `${long}\n${long}\nneedle\n${long}\n${long}\n`, 'huge.txt': `${'z'.repeat(5 * 1024 * 1024)}\nneedle\n` }, 'editls-ctx-');
    workspaces.push(w);
    const file = path.join(w.root, 'long.txt');
    const hits = (await rgLines(file, 0)).map((l) => ({ line: l.line, offset: l.offset, bytes: l.bytes }));
    const got = fileContextAround(file, hits, 2) as ContextLine[];
    expect(got.map((l) => [l.line, l.bytes.length])).toEqual([
      [1, 100_001],
      [2, 100_001],
      [4, 100_001],
      [5, 100_001],
    ]);
    const huge = path.join(w.root, 'huge.txt');
    const hugeHits = (await rgLines(huge, 0)).map((l) => ({ line: l.line, offset: l.offset, bytes: l.bytes }));
    expect(fileContextAround(huge, hugeHits, 1)).toBe('unsupported');
    // The check alone (no context) reads only the hit's line.
    expect(fileContextAround(huge, hugeHits, 0)).toEqual([]);
  });

  it('says why it cannot: a UTF-16 file (unsupported), a changed file, a NUL byte, a FIFO (changed), a symlink or a folder swapped for one (moved)', async () => {
    const w = tempWorkspace(
      {
        'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nneedle\nb\n', 'utf16le')]),
        'changed.txt': 'a\nneedle\nb\n',
        'nul.txt': 'a\nneedle\nb\n',
        'target.txt': 'a\nneedle\nb\n',
      },
      'editls-ctx-',
    );
    workspaces.push(w);
    const hitsOf = async (name: string) => (await rgLines(path.join(w.root, name), 0)).map((l) => ({ line: l.line, offset: l.offset, bytes: l.bytes }));
    const utf16 = await hitsOf('utf16.txt');
    expect(utf16).toHaveLength(1);
    expect(fileContextAround(path.join(w.root, 'utf16.txt'), utf16, 1)).toBe('unsupported');
    const changed = await hitsOf('changed.txt');
    writeFileSync(path.join(w.root, 'changed.txt'), 'a\nnoodle\nb\n');
    expect(fileContextAround(path.join(w.root, 'changed.txt'), changed, 1)).toBe('changed');
    expect(fileContextAround(path.join(w.root, 'changed.txt'), changed, 0)).toBe('changed');
    const nul = await hitsOf('nul.txt');
    writeFileSync(path.join(w.root, 'nul.txt'), 'a\nneedle\n\0\n');
    expect(fileContextAround(path.join(w.root, 'nul.txt'), nul, 1)).toBe('changed');
    expect(fileContextAround(path.join(w.root, 'gone.txt'), nul, 1)).toBe('changed');
    const target = await hitsOf('target.txt');
    expect((fileContextAround(path.join(w.root, 'target.txt'), target, 1) as ContextLine[]).map((l) => l.line)).toEqual([1, 3]);
    symlinkSync(path.join(w.root, 'target.txt'), path.join(w.root, 'link.txt'));
    expect(fileContextAround(path.join(w.root, 'link.txt'), target, 1)).toBe('moved');
    mkdirSync(path.join(w.root, 'd'));
    execFileSync('mkfifo', [path.join(w.root, 'd', 'fifo')]);
    expect(fileContextAround(path.join(w.root, 'd', 'fifo'), target, 1)).toBe('changed');
    // A folder on the path swapped for a link to an identical file elsewhere: the bytes match, the place does not.
    const elsewhere = tempWorkspace({ 'target.txt': 'a\nneedle\nb\n' }, 'editls-ctx-out-');
    workspaces.push(elsewhere);
    mkdirSync(path.join(w.root, 'sub'));
    writeFileSync(path.join(w.root, 'sub', 'target.txt'), 'a\nneedle\nb\n');
    const subHits = await hitsOf('sub/target.txt');
    renameSync(path.join(w.root, 'sub'), path.join(w.root, 'sub.real'));
    symlinkSync(elsewhere.root, path.join(w.root, 'sub'));
    expect(fileContextAround(path.join(w.root, 'sub', 'target.txt'), subHits, 1)).toBe('moved');
    expect(fileContextAround(path.join(w.root, 'sub', 'target.txt'), subHits, 0)).toBe('moved');
  });

  it('refuses hits that disagree with the file: a line number past its start, hits out of order', () => {
    const buf = Buffer.from('a\nneedle\nb\n');
    const read = (pos: number, len: number) => buf.subarray(pos, pos + len);
    const hit = { line: 2, offset: 2, bytes: Buffer.from('needle\n') };
    expect((contextAround(read, buf.length, [hit], 1) as ContextLine[]).map((l) => l.bytes.toString())).toEqual(['a\n', 'b\n']);
    expect(contextAround(read, buf.length, [{ ...hit, line: 5 }], 3)).toBe('changed');
    expect(contextAround(read, buf.length, [{ ...hit, offset: 1 }], 1)).toBe('changed');
    expect(contextAround(read, buf.length, [{ ...hit, offset: 1 }], 0)).toBe('changed');
    expect(contextAround(read, buf.length, [{ ...hit, bytes: Buffer.from('noodle\n') }], 0)).toBe('changed');
    expect(contextAround(read, buf.length, [hit, hit], 1)).toBe('changed');
    expect(contextAround(read, buf.length, [hit], 0)).toEqual([]);
  });
});
