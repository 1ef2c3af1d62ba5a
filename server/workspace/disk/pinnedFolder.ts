// Holds a file's folder open by a verified real path, so that the temp file, the rename and any
// folders a create makes go into that very folder: on Linux every path goes through /proc/self/fd/N
// (openat/renameat in effect), so a folder swapped for a symlink afterwards cannot redirect them.
import { closeSync, constants, fsync, lstatSync, mkdirSync, openSync, promises as fsp, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fail, type Failure, type Result } from '../../core/result.js';
import { errnoCode } from '../../core/errno.js';
import { descriptorsNamePaths } from './paths.js';

/** /proc/self/fd/N reaches an open folder (Linux); elsewhere paths are re-checked with realpath. */
const PROC_FD = descriptorsNamePaths();

export interface PinnedFolder {
  /** The folder's real path when it was pinned (the expected one). */
  readonly realPath: string;
  /** Joins a name in the pinned folder: /proc/self/fd/N/name on Linux, else realPath/name. */
  at(name: string): string;
  /** The pinned folder is still reachable at realPath (not moved, renamed or swapped). */
  stillAt(): boolean;
  /** Folders made while pinning (outermost first), for removal after a failed create. */
  readonly created: readonly string[];
  /** fsync of the folder (durable rename); best effort. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface PinOptions {
  /** Make missing folders, one level at a time from `within`, never through a symlink. */
  mkdirs?: boolean;
  /** The real workspace folder `dir` lies in; where folder creation starts. Default: the nearest existing ancestor. */
  within?: string;
  /** Names the file in messages. */
  displayPath: string;
}

/**
 * Opens `dir` (a real, symlink-free absolute path) and checks that what was opened really is at that
 * path. With `mkdirs`, missing folders are made level by level, each opened without following links.
 */
export async function pinFolder(dir: string, options: PinOptions): Promise<Result<{ folder: PinnedFolder }>> {
  if (!options.mkdirs) {
    const pinned = pinFolderSync(dir);
    if (pinned === 'moved') return moved(dir, options.displayPath);
    if (!(pinned instanceof Error)) return { ok: true, folder: pinned };
    return folderFailure(dir, dir, pinned, options.displayPath);
  }

  const start = options.within ?? nearestExistingAncestor(dir);
  const rel = path.relative(start, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return fail('outside_workspace', `${options.displayPath} is outside the workspace; nothing written`, { path: options.displayPath });
  const root = await pinFolder(start, { displayPath: options.displayPath });
  if (!root.ok) return root;
  let current = root.folder;
  let currentPath = start;
  const created: string[] = [];
  for (const segment of rel === '' ? [] : rel.split(path.sep)) {
    const nextPath = path.join(currentPath, segment);
    let handle: number | undefined;
    try {
      handle = openChild(current, segment);
      if (handle === undefined) {
        mkdirSync(current.at(segment));
        created.push(nextPath);
        handle = openChild(current, segment);
      }
    } catch (err) {
      const failure = await folderFailure(nextPath, dir, err, options.displayPath, current.at(segment));
      await current.close();
      await removeFolders(created);
      return failure;
    }
    await current.close();
    if (handle === undefined) {
      await removeFolders(created);
      return moved(nextPath, options.displayPath);
    }
    current = makePinned(handle, nextPath, created);
    currentPath = nextPath;
  }
  if (!current.stillAt()) {
    await current.close();
    await removeFolders(created);
    return moved(dir, options.displayPath);
  }
  return { ok: true, folder: current };
}

/**
 * pinFolder without folder creation, in synchronous calls (a batch pins many folders): the pinned
 * folder, 'moved' when what was opened is not at `dir`, or the error of the open.
 */
export function pinFolderSync(dir: string): PinnedFolder | 'moved' | Error {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  const pinned = makePinned(fd, dir, []);
  if (!pinned.stillAt()) {
    closeQuietly(fd);
    return 'moved';
  }
  return pinned;
}

/**
 * The open file (a descriptor) is at `realPath` now (Linux, through /proc/self/fd); elsewhere: true
 * (nothing to ask). A Buffer is a path as bytes (a name that is not UTF-8), compared as bytes.
 */
export function openedAt(fd: number, realPath: string | Buffer): boolean {
  return !PROC_FD || fdAt(fd, realPath);
}

/**
 * Whether the open file `fd` is at `realPath` now: the kernel names an open file's current place in
 * its /proc/self/fd link, built from the directories it is really in (a moved file or folder shows its
 * new place, a deleted one " (deleted)"), so one readlink answers what realpath would (which resolves
 * that link and then every folder on the answer again, one readlink each).
 */
function fdAt(fd: number, realPath: string | Buffer): boolean {
  try {
    if (typeof realPath === 'string') return readlinkSync(`/proc/self/fd/${fd}`) === realPath;
    return readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' }).equals(realPath);
  } catch {
    return false;
  }
}

/** Removes folders a failed create made (innermost first); a folder something else filled meanwhile stays. */
export async function removeFolders(created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) await fsp.rmdir(dir).catch(() => undefined);
}

/** Opens a child folder of `parent` without following a symlink; undefined when it does not exist. */
function openChild(parent: PinnedFolder, name: string): number | undefined {
  try {
    return openSync(parent.at(name), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function makePinned(fd: number, realPath: string, created: readonly string[]): PinnedFolder {
  const base = PROC_FD ? `/proc/self/fd/${fd}` : realPath;
  let open = true;
  return {
    realPath,
    created,
    at: (name) => path.join(base, name),
    // On Linux the fd link is where the opened folder is now; elsewhere, where the path leads now.
    stillAt: () => {
      if (PROC_FD) return open && fdAt(fd, realPath);
      try {
        return realpathSync.native(base) === realPath;
      } catch {
        return false;
      }
    },
    // fsync waits on the disk: through the threadpool, never on the main thread.
    sync: () => new Promise<void>((resolve) => (open ? fsync(fd, () => resolve()) : resolve())),
    close: async () => {
      if (open) closeQuietly(fd);
      open = false;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** A folder on the path that is not a folder any more (a file, a symlink) or cannot be opened. */
async function folderFailure(where: string, dir: string, err: unknown, displayPath: string, probe = where): Promise<Failure> {
  const code = errnoCode(err);
  const shown = shownFolder(where, dir, displayPath);
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'ELOOP') {
    const st = await fsp.lstat(probe).catch(() => undefined);
    if (st?.isSymbolicLink()) {
      return fail('outside_workspace', `cannot write ${displayPath}: ${shown} became a symbolic link after the path was checked; nothing written`, { path: displayPath });
    }
    if (st && !st.isDirectory()) {
      return fail('io_error', `cannot create ${displayPath}: ${shown} is a file, not a folder`, { path: displayPath, code });
    }
  }
  if (code === 'ENOENT') return fail('io_error', `cannot write ${displayPath}: its folder does not exist`, { path: displayPath, code });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return fail('io_error', `cannot create ${displayPath}: folder ${shown} is read-only (${code}); nothing written`, { path: displayPath, code });
  }
  return fail('io_error', `cannot write ${displayPath}: ${shown}: ${code ?? String(err)}`, { path: displayPath, code });
}

function moved(dir: string, displayPath: string): Failure {
  return fail('stale', `the folder of ${displayPath} was moved or replaced (e.g. by a symbolic link) while the command waited; nothing written, run the command again`, {
    path: displayPath,
    folder: dir,
  });
}

/** `where` named relative to the file's display path ("a" for where=/ws/a, dir=/ws/a/b, display a/b/c.ts). */
function shownFolder(where: string, dir: string, displayPath: string): string {
  const displayDir = path.posix.dirname(displayPath.split(path.sep).join('/'));
  const up = path.relative(where, dir).split(path.sep).filter((s) => s !== '').length;
  const parts = displayDir === '.' ? [] : displayDir.split('/');
  const kept = parts.slice(0, Math.max(0, parts.length - up));
  return kept.length > 0 && up <= parts.length ? kept.join('/') : path.basename(where);
}

function nearestExistingAncestor(dir: string): string {
  let p = dir;
  while (!isDir(p)) {
    const parent = path.dirname(p);
    if (parent === p) return p;
    p = parent;
  }
  return p;
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

