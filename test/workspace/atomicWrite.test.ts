// Atomic writes on a real filesystem: content, mode, exclusivity, folders, concurrency, temp cleanup.

import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStrayTemps, TEMP_PREFIX, writeFileAtomic } from '../../server/workspace/atomicWrite.js';

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
    expect(r).toEqual({ ok: true });
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
  it('deletes leftover temp files only', async () => {
    await writeFile(path.join(dir, `${TEMP_PREFIX}a.ts.123abc`), 'partial');
    await writeFile(path.join(dir, `${TEMP_PREFIX}b.ts.456def`), 'partial');
    await writeFile(path.join(dir, 'keep.ts'), 'keep');
    await mkdir(path.join(dir, `${TEMP_PREFIX}dir`));
    expect(await removeStrayTemps(dir)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([`${TEMP_PREFIX}dir`, 'keep.ts']);
    expect(await removeStrayTemps(dir)).toBe(0);
  });

  it('returns 0 for a missing folder', async () => {
    expect(await removeStrayTemps(path.join(dir, 'missing'))).toBe(0);
  });
});
