// Crash-safe file writes: data goes to a temporary file in the target's folder, is fsynced, then
// renamed (or hard-linked, for exclusive creation) over the target, so readers see old or new, never half.

import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rename, stat, unlink, constants } from 'node:fs/promises';
import path from 'node:path';
import { fail, type Result } from '../core/result.js';

export interface AtomicWriteOptions {
  /** Permission bits of the written file; default: the existing file's mode, else 0o666 minus umask. */
  mode?: number;
  /** Fail with 'already_exists' if the target exists (for new files); never clobbers a concurrent creation. */
  exclusive?: boolean;
  /** Create missing parent folders. */
  mkdirs?: boolean;
}

export const TEMP_PREFIX = '.editls-tmp-';

/** Temp files this process is writing right now; removeStrayTemps leaves them alone. */
const inFlight = new Set<string>();

/** Errors from link() that mean "this filesystem has no hard links" rather than a real failure. */
const NO_HARDLINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Writes `data` to `absPath` atomically; `displayPath` names the file in messages. */
export async function writeFileAtomic(
  absPath: string,
  data: Buffer,
  displayPath: string,
  options: AtomicWriteOptions = {},
): Promise<Result<{}>> {
  const dir = path.dirname(absPath);

  if (options.mkdirs) {
    try {
      await mkdir(dir, { recursive: true });
    } catch (err) {
      return ioError(`cannot create the folder of ${displayPath}`, displayPath, err);
    }
  }

  let existing: Stats | undefined;
  try {
    existing = await stat(absPath);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') existing = undefined;
    else if (code === 'ENOTDIR') return ioError(`cannot write ${displayPath}: a parent of it is a file`, displayPath, err);
    else return ioError(`cannot write ${displayPath}`, displayPath, err);
  }
  if (existing?.isDirectory()) return fail('io_error', `cannot write ${displayPath}: it is a directory`, { path: displayPath });
  if (existing && options.exclusive) return alreadyExists(displayPath);

  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  // The writer's pid is part of the name so a sweep at start can tell a crashed writer's leftovers
  // from a live editls (another editor window) still writing.
  const tempPath = path.join(dir, `${TEMP_PREFIX}${process.pid}-${[...path.basename(absPath)].slice(0, 40).join('')}.${randomBytes(6).toString('hex')}`);

  inFlight.add(tempPath);
  let tempCreated = false;
  try {
    const handle = await open(tempPath, 'wx', mode ?? 0o666);
    tempCreated = true;
    try {
      await handle.writeFile(data);
      // Keep the owner of a file we replace when allowed to (root editing someone else's file).
      // chown before chmod: chown clears the setuid/setgid bits.
      if (existing && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())) {
        await handle.chown(existing.uid, existing.gid).catch(() => undefined);
      }
      // open() applied the umask; set the exact mode explicitly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }

    if (options.exclusive) {
      const linked = await linkExclusive(tempPath, absPath);
      if (linked === 'exists') return alreadyExists(displayPath);
      await unlink(tempPath).catch(() => undefined);
      tempCreated = false;
    } else {
      await rename(tempPath, absPath);
      tempCreated = false;
    }
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' && !tempCreated) {
      return ioError(`cannot write ${displayPath}: its folder does not exist`, displayPath, err);
    }
    return ioError(`cannot write ${displayPath}`, displayPath, err);
  } finally {
    if (tempCreated) await unlink(tempPath).catch(() => undefined);
    inFlight.delete(tempPath);
  }

  await fsyncDir(dir);
  return { ok: true };
}

/**
 * Deletes leftover temp files (TEMP_PREFIX...) directly in `folder`, e.g. after a crash, skipping any
 * this process is still writing. Returns how many were removed; errors are ignored.
 */
export async function removeStrayTemps(folder: string, isAlive: (pid: number) => boolean = () => false): Promise<number> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.startsWith(TEMP_PREFIX)) continue;
    const full = path.join(folder, entry.name);
    if (inFlight.has(full) || writerAlive(entry.name, isAlive)) continue;
    try {
      await unlink(full);
      removed++;
    } catch {
      // already gone or not ours to delete
    }
  }
  return removed;
}

/** The pid in a temp file name (TEMP_PREFIX + pid + '-'), if any. */
export function tempWriterPid(name: string): number | undefined {
  const m = /^\.editls-tmp-(\d+)-/.exec(name);
  return m ? Number(m[1]) : undefined;
}

function writerAlive(name: string, isAlive: (pid: number) => boolean): boolean {
  const pid = tempWriterPid(name);
  return pid !== undefined && pid !== process.pid && isAlive(pid);
}

/**
 * Publishes the temp file under `target` only if `target` does not exist: link() fails with EEXIST
 * instead of replacing. Filesystems without hard links fall back to an exclusive copy.
 */
async function linkExclusive(tempPath: string, target: string): Promise<'linked' | 'exists'> {
  try {
    await link(tempPath, target);
    return 'linked';
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EEXIST') return 'exists';
    if (code === undefined || !NO_HARDLINKS.has(code)) throw err;
  }
  try {
    await copyFile(tempPath, target, constants.COPYFILE_EXCL);
    return 'linked';
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return 'exists';
    throw err;
  }
}

/** Makes the rename durable. Best effort: the new content is already in place, so errors are ignored. */
async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // EISDIR/EINVAL/EPERM on platforms or filesystems that cannot fsync a directory
  }
}

function alreadyExists(displayPath: string) {
  return fail('already_exists', `${displayPath} already exists; edit it with a non-empty old_string instead of creating it`, {
    path: displayPath,
  });
}

function ioError(what: string, displayPath: string, err: unknown) {
  const code = errnoCode(err);
  return fail('io_error', `${what}: ${describeError(err)}`, { path: displayPath, code });
}

/** "EACCES: permission denied" from a Node fs error, without the absolute paths Node appends. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const comma = err.message.indexOf(', ');
  return comma > 0 ? err.message.slice(0, comma) : err.message;
}

function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
