// syncfs(2) for a large batch of disk writes (disk/atomicWrite.ts's writeFilesAtomic): one `sync -f`
// (coreutils) over the file systems of the batch's folders in place of an fsync per temp file,
// spawned by ripgrep's helper process (a fork of the large server costs its page faults). On the
// bench machine (ext4) it made 426 temp files durable in ~10 ms against 21-46 ms of fsyncs through
// the threadpool, 4,000 in ~57 ms against 174-627 ms. It also waits for every other program's
// unwritten data on those file systems, so it is used only while there is little of it (/proc/meminfo).
// Linux only. `false` when it was not used or did not succeed: the batch then fsyncs each file.
import { readFileSync } from 'node:fs';
import { spawnRipgrep } from './ripgrepHelper.js';

/** Dirty and under-writeback data besides the batch's own above which the per-file fsyncs are used (bytes). */
export const FOREIGN_DIRTY_MAX = 32 * 1024 * 1024;
/** How long the sync may take before it is killed and the batch fsyncs each file instead. */
const SYNC_DEADLINE_MS = 30_000;

/** Data the kernel has yet to write (Dirty + Writeback of /proc/meminfo, bytes); undefined when unknown. */
export function unwrittenBytes(meminfo: string): number | undefined {
  const kb = (key: string) => /^(\d+) kB$/u.exec(new RegExp(`^${key}:\\s+(.*)$`, 'mu').exec(meminfo)?.[1]?.trim() ?? '')?.[1];
  const dirty = kb('Dirty');
  const writeback = kb('Writeback');
  if (dirty === undefined || writeback === undefined) return undefined;
  return (Number(dirty) + Number(writeback)) * 1024;
}

/** Whether one syncfs is the cheaper way to make `ownBytes` just written durable, given what the kernel has yet to write. */
export function syncfsWorthIt(unwritten: number | undefined, ownBytes: number): boolean {
  return unwritten !== undefined && unwritten - ownBytes <= FOREIGN_DIRTY_MAX;
}

/**
 * Makes everything written to the file systems holding `folders` durable (one folder per file system
 * is enough), if there is little else to write: true when `sync -f` did so, false when it was not
 * tried (elsewhere than Linux, too much other data waiting) or failed (no `sync`, an I/O error, past
 * the deadline).
 */
export function syncFileSystems(folders: readonly string[], ownBytes: number): Promise<boolean> {
  return syncOutcome(folders, ownBytes).then((outcome) => outcome === 'synced');
}

/**
 * syncFileSystems, telling a sync that failed (`sync` exited with an error, could not start, or was
 * killed at the deadline) from one not tried (`skipped`). A background writeback (disk/atomicWrite.ts
 * StagingAhead) needs the difference: syncfs reports a write-back error once, to the sync that saw it,
 * so a later sync of the same data says nothing of it.
 */
export function syncOutcome(folders: readonly string[], ownBytes: number): Promise<'synced' | 'skipped' | 'failed'> {
  if (process.platform !== 'linux' || folders.length === 0) return Promise.resolve('skipped');
  let meminfo: string;
  try {
    meminfo = readFileSync('/proc/meminfo', 'utf8');
  } catch {
    return Promise.resolve('skipped');
  }
  if (!syncfsWorthIt(unwrittenBytes(meminfo), ownBytes)) return Promise.resolve('skipped');
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawnRipgrep>;
    try {
      child = spawnRipgrep('sync', ['-f', '--', ...folders], undefined, false);
    } catch {
      resolve('failed');
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('failed');
    }, SYNC_DEADLINE_MS);
    // Its output (none) is read to its end: the run is over once the pipe has closed and sync exited.
    child.stdout.on('data', () => undefined);
    child.on('error', () => {
      clearTimeout(timer);
      resolve('failed');
    });
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      resolve(code === 0 ? 'synced' : 'failed');
    });
  });
}
