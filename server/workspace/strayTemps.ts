// Sweeps the workspace for temporary files a crashed editls left behind (atomic writes put them
// beside their target, anywhere in the tree): found with one `rg --files` pass, once the symbol
// index build is done and no request came for a second (server.ts; a minute after start at the
// latest), removed unless their writer (pid in the name) is still alive.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { removeStrayTemps, TEMP_PREFIX } from './disk/atomicWrite.js';
import { ripgrepPath } from './search/ripgrep.js';
import { intactFolders } from './disk/folders.js';
import { isAtOrInside } from '../core/containment.js';
import { realpathOrSelf } from './disk/paths.js';

/** The longest the sweep waits for `after` by default (the index build and a quiet moment, which its walk would slow down). */
export const SWEEP_WAIT_MS = 60_000;

export interface SweepOptions {
  /** Start once this settles (or after `latestMs`, whichever comes first). */
  after?: Promise<unknown>;
  /** The longest to wait for `after` (default SWEEP_WAIT_MS). */
  latestMs?: number;
  /** Where a sweep that cannot run (no ripgrep binary) says so. */
  log?: (message: string) => void;
}

/**
 * `folders`: the workspace folders, or a function giving those still intact when the sweep starts
 * (workspace/disk/folders.ts: a folder replaced by a symlink is not swept, so no file elsewhere is removed).
 */
export async function sweepStrayTemps(
  folderList: readonly string[] | (() => readonly string[]),
  isAlive: (pid: number) => boolean,
  options: SweepOptions = {},
): Promise<number> {
  const current = () => (typeof folderList === 'function' ? folderList() : intactFolders(folderList));
  if (current().length === 0) return 0;
  if (options.after) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Unref'd: a server on its way out does not wait for it.
    await Promise.race([options.after.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, options.latestMs ?? SWEEP_WAIT_MS).unref()))]);
    clearTimeout(timer);
  }
  let rg: string;
  try {
    // Imported on first use (as ripgrep.ts does): a missing platform package must not stop the server.
    rg = await ripgrepPath();
  } catch (error) {
    options.log?.(`stray temporary files not swept: ${error instanceof Error ? error.message : String(error)}`);
    return 0;
  }
  const folders = current();
  if (folders.length === 0) return 0;
  const found = await listTemps(rg, folders);
  let removed = 0;
  for (const dir of new Set(found.map((f) => path.dirname(f)))) {
    // Checked again just before removing: a folder swapped for a link during the listing is skipped.
    if (realpathOrSelf(dir) !== dir || !intactFolders(folders).some((f) => isAtOrInside(dir, f))) continue;
    removed += await removeStrayTemps(dir, isAlive);
  }
  return removed;
}

function listTemps(rg: string, folders: readonly string[]): Promise<string[]> {
  return new Promise((resolve) => {
    const child = spawn(rg, ['--files', '--hidden', '--no-ignore', '--no-messages', '--glob', `${TEMP_PREFIX}*`, '--', ...folders], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', () => resolve([]));
    child.on('close', () => resolve(out.split('\n').filter((l) => l !== '')));
  });
}
