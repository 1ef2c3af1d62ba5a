// syncFileSystems (one `sync -f` for a large batch of disk writes, search/fileSystemSync.ts): when it
// is worth it (little other unwritten data, read from /proc/meminfo), and the real `sync -f` run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOREIGN_DIRTY_MAX, syncFileSystems, syncfsWorthIt, unwrittenBytes } from '../../server/workspace/search/fileSystemSync.js';

const MEMINFO = 'MemTotal:        8000000 kB\nDirty:              1000 kB\nWriteback:           24 kB\nWritebackTmp:        0 kB\n';

describe('unwrittenBytes', () => {
  it.each([
    ['Dirty and Writeback added, in bytes', MEMINFO, 1024 * 1024],
    ['CRLF lines', MEMINFO.replace(/\n/g, '\r\n'), 1024 * 1024],
    ['WritebackTmp is not Writeback', 'Dirty: 0 kB\nWritebackTmp: 99 kB\nWriteback: 1 kB\n', 1024],
    ['no Writeback line', 'Dirty: 10 kB\n', undefined],
    ['a unit other than kB', 'Dirty: 10 MB\nWriteback: 0 kB\n', undefined],
    ['empty', '', undefined],
  ])('%s', (_name, meminfo, expected) => {
    expect(unwrittenBytes(meminfo)).toBe(expected);
  });
});

describe('syncfsWorthIt', () => {
  it.each([
    [0, 0, true],
    [FOREIGN_DIRTY_MAX, 0, true],
    [FOREIGN_DIRTY_MAX + 1, 0, false],
    [FOREIGN_DIRTY_MAX + 5_000_000, 5_000_000, true],
    [FOREIGN_DIRTY_MAX + 5_000_001, 5_000_000, false],
    [undefined, 0, false],
  ])('%s unwritten bytes, %s of them the batch\'s own: %s', (unwritten, own, expected) => {
    expect(syncfsWorthIt(unwritten, own)).toBe(expected);
  });
});

describe.runIf(process.platform === 'linux')('syncFileSystems', () => {
  it('runs sync -f on the folders (without the helper: spawned here) and answers whether it succeeded', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-syncfs-'));
    try {
      expect(await syncFileSystems([dir], 0)).toBe(true);
      expect(await syncFileSystems([path.join(dir, 'no such folder')], 0)).toBe(false);
      expect(await syncFileSystems([], 0)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
