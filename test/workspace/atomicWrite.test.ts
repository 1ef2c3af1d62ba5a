// Atomic writes on a real filesystem: content, mode, exclusivity, folders, concurrency, temp cleanup.

import { appendFile, chmod, chown, link, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStrayTemps, TEMP_PREFIX, writeFileAtomic } from '../../server/workspace/disk/atomicWrite.js';
import { fileStamp } from '../../server/workspace/disk/fileCodec.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'editls-write-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function temps(folder = dir): Promise<string[]> {
  return (await readdir(folder)).filter((n) => n.startsWith(TEMP_PREFIX));
}

describe('writeFileAtomic', () => {
  it('replaces the content and leaves no temp file', async () => {
    const p = path.join(dir, 'a.txt');
    await writeFile(p, 'old content that is longer\n');
    const r = await writeFileAtomic(p, Buffer.from('new\n'), 'a.txt');
    expect(r).toEqual({ ok: true, notes: [] });
    expect(await readFile(p, 'utf8')).toBe('new\n');
    expect(await temps()).toEqual([]);
  });

  it('creates a missing file', async () => {
    const p = path.join(dir, 'new.txt');
    expect((await writeFileAtomic(p, Buffer.from('x'), 'new.txt')).ok).toBe(true);
    expect(await readFile(p, 'utf8')).toBe('x');
  });

  for (const mode of [0o640, 0o755, 0o600, 0o444]) {
    it(`keeps the existing mode ${mode.toString(8)}`, async () => {
      const p = path.join(dir, 'm.sh');
      await writeFile(p, 'a');
      await chmod(p, mode);
      expect((await writeFileAtomic(p, Buffer.from('b'), 'm.sh')).ok).toBe(true);
      expect((await stat(p)).mode & 0o7777).toBe(mode);
      expect(await readFile(p, 'utf8')).toBe('b');
    });
  }

  it('applies an explicit mode, ignoring the umask', async () => {
    const p = path.join(dir, 'explicit.sh');
    expect((await writeFileAtomic(p, Buffer.from('#!/bin/sh\n'), 'explicit.sh', { mode: 0o775 })).ok).toBe(true);
    expect((await stat(p)).mode & 0o7777).toBe(0o775);
  });

  it('fails with already_exists under exclusive and leaves the target untouched', async () => {
    const p = path.join(dir, 'exists.txt');
    await writeFile(p, 'original');
    const r = await writeFileAtomic(p, Buffer.from('clobbered'), 'src/exists.txt', { exclusive: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('already_exists');
    expect(r.message).toContain('src/exists.txt');
    expect(await readFile(p, 'utf8')).toBe('original');
    expect(await temps()).toEqual([]);
  });

  it('creates a new file under exclusive', async () => {
    const p = path.join(dir, 'fresh.txt');
    expect((await writeFileAtomic(p, Buffer.from('fresh'), 'fresh.txt', { exclusive: true })).ok).toBe(true);
    expect(await readFile(p, 'utf8')).toBe('fresh');
    expect(await temps()).toEqual([]);
  });

  it('lets exactly one of many concurrent exclusive creations win', async () => {
    const p = path.join(dir, 'race.txt');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => writeFileAtomic(p, Buffer.from(`writer ${i}`), 'race.txt', { exclusive: true })),
    );
    const winners = results.flatMap((r, i) => (r.ok ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.kind === 'already_exists')).toBe(true);
    expect(await readFile(p, 'utf8')).toBe(`writer ${winners[0]}`);
    expect(await temps()).toEqual([]);
  });

  it('creates missing parent folders with mkdirs', async () => {
    const p = path.join(dir, 'x', 'y', 'z.txt');
    expect((await writeFileAtomic(p, Buffer.from('deep'), 'x/y/z.txt', { mkdirs: true })).ok).toBe(true);
    expect(await readFile(p, 'utf8')).toBe('deep');
    expect(await temps(path.join(dir, 'x', 'y'))).toEqual([]);
  });

  it('fails with io_error when the folder is missing and mkdirs is off', async () => {
    const r = await writeFileAtomic(path.join(dir, 'nope', 'z.txt'), Buffer.from('x'), 'nope/z.txt');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('io_error');
    expect(r.message).toContain('nope/z.txt');
    expect(r.message).toContain('folder does not exist');
  });

  it('fails with io_error on a directory target and removes its temp file', async () => {
    const target = path.join(dir, 'sub');
    await mkdir(target);
    const r = await writeFileAtomic(target, Buffer.from('x'), 'sub');
    expect(r.ok ? 'ok' : r.kind).toBe('io_error');
    expect(await temps()).toEqual([]);
  });

  it('leaves exactly one whole content after 50 concurrent writes to one file', async () => {
    const p = path.join(dir, 'busy.txt');
    await writeFile(p, 'start');
    // Distinct lengths and bodies, so a mixed or truncated file cannot pass for one of them.
    const contents = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}:`.repeat(1000 + i * 37));
    const results = await Promise.all(contents.map((c) => writeFileAtomic(p, Buffer.from(c), 'busy.txt')));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(contents).toContain(await readFile(p, 'utf8'));
    expect(await temps()).toEqual([]);
  });

  it('writes binary-exact data (UTF-16 with BOM)', async () => {
    const p = path.join(dir, 'u16.txt');
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo 😀\r\n', 'utf16le')]);
    expect((await writeFileAtomic(p, data, 'u16.txt')).ok).toBe(true);
    expect((await readFile(p)).equals(data)).toBe(true);
  });

  it('keeps temp names short for long file names', async () => {
    const name = `${'é'.repeat(120)}.txt`; // 244 bytes, close to the 255-byte limit
    const p = path.join(dir, name);
    expect((await writeFileAtomic(p, Buffer.from('x'), name)).ok).toBe(true);
    expect(await readFile(p, 'utf8')).toBe('x');
  });
});

describe('removeStrayTemps', () => {
  it('deletes leftover temp files only: exactly editls\'s temp name, never a user file with the prefix', async () => {
    await writeFile(path.join(dir, `${TEMP_PREFIX}999999-a.ts.0123456789ab`), 'partial');
    await writeFile(path.join(dir, `${TEMP_PREFIX}999999-b.ts.abcdef012345`), 'partial');
    const userFiles = [`${TEMP_PREFIX}notes.md`, `${TEMP_PREFIX}999999-c.ts.123abc`, `${TEMP_PREFIX}999999-d.ts.0123456789ab.bak`, `${TEMP_PREFIX}x-e.ts.0123456789ab`];
    for (const f of userFiles) await writeFile(path.join(dir, f), 'a user file');
    await writeFile(path.join(dir, 'keep.ts'), 'keep');
    await mkdir(path.join(dir, `${TEMP_PREFIX}dir`));
    expect(await removeStrayTemps(dir)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([`${TEMP_PREFIX}dir`, ...userFiles, 'keep.ts'].sort());
    expect(await removeStrayTemps(dir)).toBe(0);
  });

  it('leaves a live writer\'s temp file', async () => {
    await writeFile(path.join(dir, `${TEMP_PREFIX}4242-a.ts.0123456789ab`), 'being written');
    expect(await removeStrayTemps(dir, (pid) => pid === 4242)).toBe(0);
    expect(await removeStrayTemps(dir, () => false)).toBe(1);
  });

  it('returns 0 for a missing folder', async () => {
    expect(await removeStrayTemps(path.join(dir, 'missing'))).toBe(0);
  });
});

describe('writeFileAtomic: folders, links, permissions and foreign writers', () => {
  it('never makes a folder through a symlink on the way (a folder swapped for a link after the check)', async () => {
    const ws = path.join(dir, 'ws');
    const outside = path.join(dir, 'outside');
    await mkdir(ws);
    await mkdir(outside);
    await symlink(outside, path.join(ws, 'a')); // was a missing folder when the path was resolved
    const r = await writeFileAtomic(path.join(ws, 'a', 'b', 'c.txt'), Buffer.from('x'), 'a/b/c.txt', { exclusive: true, mkdirs: true, within: ws });
    expect(r.ok ? 'ok' : r.kind).toBe('outside_workspace');
    expect(await readdir(outside)).toEqual([]);
  });

  it('a failed create removes the folders it made', async () => {
    const long = `${'n'.repeat(300)}.txt`; // the folders can be made, the file name is too long
    const r = await writeFileAtomic(path.join(dir, 'new1', 'new2', long), Buffer.from('x'), `new1/new2/${long}`, { exclusive: true, mkdirs: true, within: dir });
    expect(r.ok).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a failed create keeps folders that existed before', async () => {
    await mkdir(path.join(dir, 'old'));
    const long = `${'n'.repeat(300)}.txt`;
    const r = await writeFileAtomic(path.join(dir, 'old', 'new', long), Buffer.from('x'), `old/new/${long}`, { exclusive: true, mkdirs: true, within: dir });
    expect(r.ok).toBe(false);
    expect(await readdir(dir)).toEqual(['old']);
    expect(await readdir(path.join(dir, 'old'))).toEqual([]);
  });

  it('says plainly when a parent path is a file', async () => {
    await writeFile(path.join(dir, 'a'), 'a file');
    const r = await writeFileAtomic(path.join(dir, 'a', 'b.ts'), Buffer.from('x'), 'a/b.ts', { exclusive: true, mkdirs: true, within: dir });
    expect(r.ok ? 'ok' : [r.kind, r.message]).toEqual(['io_error', 'cannot create a/b.ts: a is a file, not a folder']);
    const deep = await writeFileAtomic(path.join(dir, 'a', 'x', 'y', 'b.ts'), Buffer.from('x'), 'a/x/y/b.ts', { exclusive: true, mkdirs: true, within: dir });
    expect(deep.ok ? 'ok' : deep.message).toBe('cannot create a/x/y/b.ts: a is a file, not a folder');
    expect(await readFile(path.join(dir, 'a'), 'utf8')).toBe('a file');
  });

  it('refuses, as stale, a file that changed since it was read (the stamp differs), and writes nothing', async () => {
    const p = path.join(dir, 'log.txt');
    await writeFile(p, 'one\n');
    const stamp = fileStamp(await stat(p, { bigint: true }));
    await appendFile(p, 'two\n');
    const r = await writeFileAtomic(p, Buffer.from('ONE\n'), 'log.txt', { expect: { stamp, bytes: () => Buffer.from('one\n') } });
    expect(r.ok ? 'ok' : [r.kind, r.data?.changedOnDisk]).toEqual(['stale', true]);
    expect(await readFile(p, 'utf8')).toBe('one\ntwo\n');
    expect(await temps()).toEqual([]);
  });

  it('writes when the stamp still matches', async () => {
    const p = path.join(dir, 'log.txt');
    await writeFile(p, 'one\n');
    const stamp = fileStamp(await stat(p, { bigint: true }));
    const r = await writeFileAtomic(p, Buffer.from('ONE\n'), 'log.txt', { expect: { stamp, bytes: () => Buffer.from('one\n') } });
    expect(r).toEqual({ ok: true, notes: [] });
    expect(await readFile(p, 'utf8')).toBe('ONE\n');
  });

  it('says so when the file had other hard links (only this name gets the new text)', async () => {
    const p = path.join(dir, 'a.ts');
    await writeFile(p, 'old');
    await link(p, path.join(dir, 'twin.ts'));
    const r = await writeFileAtomic(p, Buffer.from('new'), 'a.ts');
    expect(r.ok && r.notes).toEqual(['a.ts had 2 hard links; the atomic write replaced this name only (the other links keep the old text)']);
    expect(await readFile(path.join(dir, 'twin.ts'), 'utf8')).toBe('old');
  });

  it('keeps the owner and group of a file it replaces (as root)', async () => {
    if (process.getuid?.() !== 0) return;
    const p = path.join(dir, 'theirs.ts');
    await writeFile(p, 'old');
    await chown(p, 1234, 5678);
    await chmod(p, 0o640);
    expect((await writeFileAtomic(p, Buffer.from('new'), 'theirs.ts')).ok).toBe(true);
    const st = await stat(p);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([1234, 5678, 0o640]);
  });

  it("keeps the group of a file it replaces in a setgid folder, whose group a new file takes (as root)", async () => {
    if (process.getuid?.() !== 0) return;
    // The folder's group (5678) is not the file's (the process's own): the temp file takes the folder's.
    const sub = path.join(dir, 'shared');
    await mkdir(sub);
    await chown(sub, 0, 5678);
    await chmod(sub, 0o2775);
    const p = path.join(sub, 'mine.ts');
    await writeFile(p, 'old');
    await chown(p, process.getuid(), process.getgid!());
    expect((await stat(p)).gid).toBe(process.getgid!());
    expect((await writeFileAtomic(p, Buffer.from('new'), 'shared/mine.ts')).ok).toBe(true);
    const st = await stat(p);
    expect([await readFile(p, 'utf8'), st.uid, st.gid]).toEqual(['new', process.getuid(), process.getgid!()]);
  });
});
