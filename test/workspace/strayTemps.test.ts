// The start-up sweep of temporary files left by interrupted writes (workspace/strayTemps.ts), with
// the real ripgrep on a temp folder: nested, hidden and ignored folders are swept, a live writer's
// file stays, and the sweep waits for the index build it was told to follow (however that ends).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { TEMP_PREFIX } from '../../server/workspace/disk/atomicWrite.js';
import { sweepStrayTemps } from '../../server/workspace/strayTemps.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

const LIVE_PID = 4242;

function ws(): TempWorkspace {
  const w = tempWorkspace(
    {
      '.gitignore': 'ignored/\n',
      'a.ts': 'kept',
      [`${TEMP_PREFIX}999999-a.ts.0a1b2c3d4e5f`]: 'partial',
      [`deep/er/${TEMP_PREFIX}999999-b.ts.0a1b2c3d4e5f`]: 'partial',
      [`.hidden/${TEMP_PREFIX}999999-c.ts.0a1b2c3d4e5f`]: 'partial',
      [`ignored/${TEMP_PREFIX}999999-d.ts.0a1b2c3d4e5f`]: 'partial',
      [`${TEMP_PREFIX}${LIVE_PID}-e.ts.0a1b2c3d4e5f`]: 'being written',
    },
    'editls-stray-',
  );
  workspaces.push(w);
  return w;
}

const isAlive = (pid: number) => pid === LIVE_PID;

function left(w: TempWorkspace): string[] {
  return [`${TEMP_PREFIX}999999-a.ts.0a1b2c3d4e5f`, `deep/er/${TEMP_PREFIX}999999-b.ts.0a1b2c3d4e5f`, `.hidden/${TEMP_PREFIX}999999-c.ts.0a1b2c3d4e5f`, `ignored/${TEMP_PREFIX}999999-d.ts.0a1b2c3d4e5f`, `${TEMP_PREFIX}${LIVE_PID}-e.ts.0a1b2c3d4e5f`].filter((rel) => existsSync(w.file(rel)));
}

describe('sweepStrayTemps', () => {
  it('removes temp files anywhere in the tree (hidden and ignored folders too) unless their writer lives', async () => {
    const w = ws();
    expect(await sweepStrayTemps([w.root], isAlive)).toBe(4);
    expect(left(w)).toEqual([`${TEMP_PREFIX}${LIVE_PID}-e.ts.0a1b2c3d4e5f`]);
    expect(existsSync(w.file('a.ts'))).toBe(true);
  });

  it('starts only once `after` (the index build) has settled', async () => {
    const w = ws();
    let finishBuild = () => {};
    const build = new Promise<void>((resolve) => (finishBuild = resolve));
    const sweep = sweepStrayTemps([w.root], isAlive, { after: build });
    await new Promise((r) => setImmediate(r));
    expect(left(w)).toHaveLength(5);
    finishBuild();
    expect(await sweep).toBe(4);
  });

  it('still sweeps when the build fails or never ends (it waits latestMs at most)', async () => {
    const failed = ws();
    expect(await sweepStrayTemps([failed.root], isAlive, { after: Promise.reject(new Error('no ripgrep')) })).toBe(4);
    const endless = ws();
    expect(await sweepStrayTemps([endless.root], isAlive, { after: new Promise(() => undefined), latestMs: 200 })).toBe(4);
  });

  it('does not sweep a folder replaced by a symlink after it was fixed (nothing removed where it now leads)', async () => {
    const w = ws();
    const outside = ws();
    const fixed = w.root;
    renameSync(fixed, `${fixed}.bak`);
    symlinkSync(outside.root, fixed, 'dir');
    try {
      // Swapped before the sweep starts (while it waits for the index build).
      expect(await sweepStrayTemps([fixed], isAlive, { after: Promise.resolve() })).toBe(0);
      expect(left(outside)).toHaveLength(5);
    } finally {
      unlinkSync(fixed);
      renameSync(`${fixed}.bak`, fixed);
    }
  });

  it('does nothing without folders', async () => {
    expect(await sweepStrayTemps([], isAlive)).toBe(0);
  });
});
