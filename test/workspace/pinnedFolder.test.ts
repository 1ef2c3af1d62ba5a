// pinFolder's "still at" check on a real filesystem: a pinned folder moved, deleted or swapped for a
// symbolic link is no longer where it was checked; untouched, it is. openedAt does the same for files.

import { closeSync, mkdirSync, openSync, renameSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openedAt, pinFolder, pinFolderSync, type PinnedFolder } from '../../server/workspace/disk/pinnedFolder.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace({ 'src/a.ts': 'a\n' });
});
afterEach(() => ws.cleanup());

async function pinned(dir: string): Promise<PinnedFolder> {
  const r = await pinFolder(dir, { displayPath: 'src/a.ts' });
  if (!r.ok) throw new Error(r.message);
  return r.folder;
}

describe.runIf(process.platform === 'linux')('pinned folders', () => {
  it('an untouched folder is still at its path (also when pinned in synchronous calls)', async () => {
    const f = await pinned(ws.file('src'));
    expect(f.stillAt()).toBe(true);
    await f.close();
    const g = pinFolderSync(ws.file('src'));
    expect(typeof g === 'object' && !(g instanceof Error) && g.stillAt()).toBe(true);
    if (typeof g === 'object' && !(g instanceof Error)) await g.close();
  });

  it('a moved folder is not', async () => {
    const f = await pinned(ws.file('src'));
    renameSync(ws.file('src'), ws.file('moved'));
    expect(f.stillAt()).toBe(false);
    await f.close();
  });

  it('a folder swapped for a symbolic link to itself (moved) is not', async () => {
    const f = await pinned(ws.file('src'));
    renameSync(ws.file('src'), ws.file('moved'));
    symlinkSync(ws.file('moved'), ws.file('src'));
    expect(f.stillAt()).toBe(false);
    await f.close();
  });

  it('a deleted folder, or one deleted and made again, is not', async () => {
    mkdirSync(ws.file('gone'));
    const f = await pinned(ws.file('gone'));
    rmdirSync(ws.file('gone'));
    expect(f.stillAt()).toBe(false);
    mkdirSync(ws.file('gone'));
    expect(f.stillAt()).toBe(false);
    await f.close();
  });

  it('a closed pinned folder is not (its descriptor number may belong to another file by now)', async () => {
    const f = await pinned(ws.file('src'));
    await f.close();
    const other = openSync(ws.file('src'), 'r');
    expect(f.stillAt()).toBe(false);
    closeSync(other);
  });

  it('openedAt: an open file is at its path until moved or deleted', () => {
    writeFileSync(ws.file('src/b.ts'), 'b\n');
    const fd = openSync(ws.file('src/b.ts'), 'r');
    try {
      expect(openedAt(fd, ws.file('src/b.ts'))).toBe(true);
      renameSync(ws.file('src'), ws.file('moved'));
      expect(openedAt(fd, ws.file('src/b.ts'))).toBe(false);
      expect(openedAt(fd, ws.file('moved/b.ts'))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});
