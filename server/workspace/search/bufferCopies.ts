// Private copies of unsaved buffers for one ripgrep run (searchFiles over open documents): a 0700
// folder `editls-buffers-<pid>-XXXXXX` in the OS temp folder, removed after the run, removed at exit
// when a run is cut short (removeBufferCopies, from main.ts), and swept at the next start when the
// process was killed outright (its pid is dead and the folder is older than a search takes).
import { promises as fsp, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'editls-buffers-';
/** A copy older than this whose process is gone is litter (a search's copies live milliseconds to seconds). */
const STALE_MS = 60_000;

/** Copies of this process not yet removed. */
const live = new Set<string>();

/** A new private folder for one run's copies; `done` removes it. */
export async function makeBufferCopies(): Promise<{ dir: string; done(): Promise<void> }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
  live.add(dir);
  return {
    dir,
    done: async () => {
      await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
      live.delete(dir);
    },
  };
}

/** Removes this process's copies at once (synchronous: runs on exit). */
export function removeBufferCopies(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone, or not removable: the next start's sweep tries again
    }
  }
  live.clear();
}

/**
 * Removes copies left by editls processes that were killed (kill -9 gives no exit to clean up on):
 * folders named for a dead pid and older than STALE_MS, owned by this user. Returns how many went.
 */
export async function sweepBufferCopies(isAlive: (pid: number) => boolean, tmp = os.tmpdir(), now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(tmp);
  } catch {
    return 0;
  }
  let removed = 0;
  const uid = process.getuid?.();
  for (const name of names) {
    const m = /^editls-buffers-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!m || Number(m[1]) === process.pid || isAlive(Number(m[1]))) continue;
    const dir = path.join(tmp, name);
    try {
      const st = await fsp.stat(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || now - st.mtimeMs < STALE_MS) continue;
      await fsp.rm(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return removed;
}
