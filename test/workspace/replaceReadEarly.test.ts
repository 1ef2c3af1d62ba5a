// editls.replaceInFiles reads files while ripgrep still lists them, before it holds their locks
// (commands/replaceInFilesRead.ts): on real files through the real Context and a real ripgrep, a file
// that changes between that early read and the lock is read again (FilesPort.unchangedSince: the
// stamp of a closed file, also after a rewrite of the same size), so the answer is what reading after
// the lock gives; a file swapped for a symlink meanwhile is not followed; and the temp files written
// ahead for the early reads that were not used are removed. (A literal's closed files are read by
// SearchPort.matchLiteral, the rest by FilesPort.snapshot: both count as reads.)
import { readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCommand } from '../../server/commands/index.js';
import type { Context } from '../../server/commands/context.js';
import { TEMP_PREFIX } from '../../server/workspace/disk/atomicWrite.js';
import { diskContext } from '../helpers/inProcessContext.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const replaceInFiles = findCommand('editls.replaceInFiles')!;
const made: TempWorkspace[] = [];
afterEach(() => {
  for (const ws of made.splice(0)) ws.cleanup();
});

/**
 * The disk Context, with its listing handing files on as ripgrep names them, then waiting until every
 * listed file was read (snapshots taken before the lock) and running `meanwhile` before it ends.
 */
function readingEarly(ws: TempWorkspace, meanwhile: () => void): Context & { reads: string[]; listed: string[] } {
  const ctx = diskContext(ws.root);
  const reads: string[] = [];
  const listed: string[] = [];
  let wanted = Number.POSITIVE_INFINITY;
  let allRead!: () => void;
  const done = new Promise<void>((resolve) => (allRead = resolve));
  const snapshot = ctx.snapshot;
  const matchLiteral = ctx.matchLiteral!;
  const list = ctx.listReplaceCandidates;
  const read = (relPath: string) => {
    reads.push(relPath);
    if (reads.length >= wanted) allRead();
  };
  return Object.assign(ctx, {
    reads,
    listed,
    snapshot: async (...args: Parameters<Context['snapshot']>) => {
      const s = await snapshot(...args);
      read(args[0].relPath);
      return s;
    },
    // A literal's closed files are read (and matched) here, the others through snapshot.
    matchLiteral: async (...args: Parameters<NonNullable<Context['matchLiteral']>>) => {
      const got = await matchLiteral(...args);
      if (got) read(args[0].relPath);
      return got;
    },
    listReplaceCandidates: async (req: Parameters<Context['listReplaceCandidates']>[0]) => {
      const r = await list({ ...req, onListed: (abs) => (listed.push(abs), req.onListed?.(abs)) });
      wanted = listed.length;
      if (reads.length >= wanted) allRead();
      await done;
      meanwhile();
      return r;
    },
  });
}

function temps(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => path.basename(n).startsWith(TEMP_PREFIX));
}

describe.runIf(process.platform === 'linux')('replaceInFiles reading before the lock', () => {
  it('uses what it read early when unchanged, and reads again what changed meanwhile', async () => {
    const files: Record<string, string> = {
      'a.txt': '\uFEFFold 1\r\nold 😀\r\n',
      'b.txt': 'old b, 中文\n',
      'c.txt': 'old c\n',
      'd/e.txt': 'old e\tno final newline',
      'f.txt': 'nothing here\n',
    };
    for (let i = 0; i < 30; i++) files[`many/m${i}.txt`] = `old ${i}\n`;
    const ws = tempWorkspace(files);
    made.push(ws);
    const outside = tempWorkspace({ 'secret.txt': 'old secret\n' });
    made.push(outside);
    const ctx = readingEarly(ws, () => {
      writeFileSync(ws.file('a.txt'), '\uFEFFold 2\r\nold 😁\r\n'); // the same size, rewritten
      unlinkSync(ws.file('b.txt'));
      writeFileSync(ws.file('c.txt'), 'old c, old c again\n');
      unlinkSync(ws.file('d/e.txt'));
      symlinkSync(outside.file('secret.txt'), ws.file('d/e.txt')); // swapped for a link out of the workspace
    });
    const result = await replaceInFiles.execute(ctx, { search: 'old', replace: 'new' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    // ripgrep's files were all read before the lock (f.txt holds no "old": ripgrep leaves it out).
    expect(ctx.listed).toHaveLength(34);
    expect(ctx.reads.slice(0, 34).sort()).toEqual(ctx.listed.map((abs) => path.relative(ws.root, abs)).sort());
    // Read again after the lock: the four that changed, and only they.
    expect(ctx.reads.slice(34).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd/e.txt']);
    expect(readFileSync(ws.file('a.txt'), 'utf8')).toBe('\uFEFFnew 2\r\nnew 😁\r\n');
    expect(readdirSync(ws.root)).not.toContain('b.txt');
    expect(ws.read('c.txt')).toBe('new c, new c again\n');
    expect(readFileSync(outside.file('secret.txt'), 'utf8')).toBe('old secret\n');
    expect(ws.read('many/m7.txt')).toBe('new 7\n');
    const value = (result as { value: { filesChanged: number; replacements: number; skipped?: { path: string; reason: string }[]; files: { path: string }[] } }).value;
    expect(value.filesChanged).toBe(32);
    expect(value.replacements).toBe(34);
    expect(value.files.map((f) => f.path)).toEqual([...value.files.map((f) => f.path)].sort((x, y) => (x < y ? -1 : 1)));
    expect(value.skipped?.map((s) => s.path)).toEqual(['d/e.txt']);
    // The temp files written ahead from the early reads of a, c (and the rest) are gone: used or removed.
    expect(temps(ws.root)).toEqual([]);
  });

  it('a file that comes to match only after its early read is replaced too', async () => {
    const ws = tempWorkspace({ 'a.txt': 'old\n', 'b.txt': 'old\n' });
    made.push(ws);
    const ctx = readingEarly(ws, () => writeFileSync(ws.file('b.txt'), 'old and old\n'));
    const result = await replaceInFiles.execute(ctx, { search: 'old', replace: 'new' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(ws.read('b.txt')).toBe('new and new\n');
    expect(ws.read('a.txt')).toBe('new\n');
    expect(temps(ws.root)).toEqual([]);
  });

  // A listed path is not looked up component by component again (SearchPort.resolveListedPath): a
  // folder on it swapped for a link out of the workspace after ripgrep named it is caught by the
  // confined read (where the descriptor leads), whether the literal's byte path or snapshot reads it.
  for (const [label, search] of [
    ['a literal (read on its bytes)', 'old'],
    ['a regex (read through snapshot)', 'o+ld'],
  ] as const) {
    it(`${label}: a folder on a listed path swapped for a link out of the workspace before it is resolved is not followed`, async () => {
      const files: Record<string, string> = { 'a.txt': 'old a\n', 'd/e.txt': 'old e\n' };
      for (let i = 0; i < 150; i++) files[`many/m${i}.txt`] = `old ${i}\n`;
      const ws = tempWorkspace(files);
      made.push(ws);
      const outside = tempWorkspace({ 'e.txt': 'old secret\n' });
      made.push(outside);
      const ctx = diskContext(ws.root);
      const resolveListed = ctx.resolveListedPath!;
      let swapped = false;
      ctx.resolveListedPath = async (abs) => {
        if (!swapped) {
          swapped = true;
          rmSync(ws.file('d'), { recursive: true });
          symlinkSync(outside.root, ws.file('d'));
        }
        return resolveListed(abs);
      };
      const result = await replaceInFiles.execute(ctx, { search, replace: 'new', use_regex: search !== 'old' });
      expect(swapped).toBe(true);
      // Never read through the link: left out (and named), the rest replaced.
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const value = (result as { value: { filesChanged: number; skipped?: { path: string; reason: string }[] } }).value;
      expect(value.skipped).toEqual([{ path: 'd/e.txt', reason: expect.stringMatching(/^stale: d\/e\.txt was moved or a folder on its path was replaced/) }]);
      expect(value.filesChanged).toBe(151);
      expect(readFileSync(outside.file('e.txt'), 'utf8')).toBe('old secret\n');
      expect(ws.read('a.txt')).toBe('new a\n');
      expect(ws.read('many/m7.txt')).toBe('new 7\n');
      expect(temps(ws.root)).toEqual([]);
    });
  }
});

describe.runIf(process.platform === 'linux')('FilesPort.unchangedSince on disk', () => {
  it('holds for an untouched file, not after a rewrite of the same bytes, a rename over it, a delete, or a symlink in its place', async () => {
    const ws = tempWorkspace({ 'a.txt': 'same\n', 'b.txt': 'x' });
    made.push(ws);
    const ctx = diskContext(ws.root);
    const snap = async (rel: string) => {
      const r = await ctx.resolvePath(rel);
      if (!r.ok) throw new Error(r.message);
      const s = await ctx.snapshot(r);
      if (!s.ok) throw new Error(s.message);
      return s;
    };
    let s = await snap('a.txt');
    expect(ctx.unchangedSince(s)).toBe(true);
    writeFileSync(ws.file('a.txt'), 'same\n');
    expect(ctx.unchangedSince(s)).toBe(false);
    s = await snap('a.txt');
    writeFileSync(ws.file('tmp'), 'same\n');
    rmSync(ws.file('a.txt'));
    symlinkSync(ws.file('tmp'), ws.file('a.txt'));
    expect(ctx.unchangedSince(s)).toBe(false);
    const missing = await snap('gone.txt');
    expect(missing.source).toBe('missing');
    expect(ctx.unchangedSince(missing)).toBe(true);
    writeFileSync(ws.file('gone.txt'), '');
    expect(ctx.unchangedSince(missing)).toBe(false);
    const b = await snap('b.txt');
    rmSync(ws.file('b.txt'));
    expect(ctx.unchangedSince(b)).toBe(false);
  });
});
