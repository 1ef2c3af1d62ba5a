// Crash-safe file writes: data goes to a temporary file in the target's (pinned) folder, is fsynced,
// then renamed (or hard-linked, for exclusive creation) over the target, so readers see old or new,
// never half; the file and its folder are checked again right before the rename, and after it.
// The short steps are synchronous calls (a threadpool round trip costs ~10x the call); what waits on
// the disk goes through the threadpool: the fsyncs, and in a batch of 64 files or more the temp
// files' creation and writing too (creating a file costs the file system ~0.1-0.2 ms: thousands of
// them would hold the main thread), 64 at a time.

import { accessSync, type BigIntStats, close, closeSync, constants, fchmodSync, fchownSync, fstatSync, fsync, lstatSync, open as openFile, openSync, promises as fsp, readdirSync, readFileSync, renameSync, statSync, unlinkSync, write, writeSync } from 'node:fs';
import path from 'node:path';
import { fail, type Failure, type Result } from '../../core/result.js';
import { fileStamp, readWholeSync } from './fileCodec.js';
import { pinFolder, removeFolders, type PinnedFolder } from './pinnedFolder.js';
import { eachLimited, mapLimited } from '../limited.js';
import { breathe } from '../timeSlice.js';
import { errnoCode } from '../../core/errno.js';

export interface AtomicWriteOptions {
  /** Permission bits of the written file; default: the existing file's mode, else 0o666 minus umask. */
  mode?: number;
  /** Fail with 'already_exists' if the target exists (for new files); never clobbers a concurrent creation. */
  exclusive?: boolean;
  /** Create missing parent folders (one level at a time, never through a symlink; removed again on failure). */
  mkdirs?: boolean;
  /** The real workspace folder the file lies in: where folder creation starts. */
  within?: string;
  /**
   * The file as it was read (`fileStamp` of its stat): checked right before the rename, and the
   * replaced file once more right after it, so that no other program's write is silently dropped.
   * The bytes it held (what a failed batch puts back, and what tells an append by another program
   * apart) are either kept (`bytes`) or worked out from the new bytes this write left (`restore`,
   * for a change that let its old text go: see bytesAsRead).
   */
  expect?: { stamp: string; bytes: () => Buffer; restore?: never } | { stamp: string; bytes?: never; restore: (written: Buffer) => Buffer | undefined };
}

export interface AtomicWriteOutcome {
  /** Things the user should know although the write succeeded (hard links split, appends carried over). */
  notes: string[];
}

export const TEMP_PREFIX = '.editls-tmp-';

/** editls's exact temp-file name: prefix, writer pid, '-', up to 40 characters of the target's name, '.', 12 hex digits. */
export const TEMP_NAME = /^\.editls-tmp-(\d+)-[^/]{1,40}\.[0-9a-f]{12}$/u;

/** Temp files this process is writing right now; removeStrayTemps leaves them alone. */
const inFlight = new Set<string>();

/** Errors from link() that mean "this filesystem has no hard links" rather than a real failure. */
const NO_HARDLINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Writes `data` to `absPath` (a real path) atomically; `displayPath` names the file in messages. */
export async function writeFileAtomic(
  absPath: string,
  data: Buffer,
  displayPath: string,
  options: AtomicWriteOptions = {},
): Promise<Result<AtomicWriteOutcome>> {
  const dir = path.dirname(absPath);
  const name = path.basename(absPath);
  const pinned = await pinFolder(dir, { mkdirs: options.mkdirs ?? false, ...(options.within ? { within: options.within } : {}), displayPath });
  if (!pinned.ok) return pinned;
  const folder = pinned.folder;
  let succeeded = false;
  try {
    const result = await writeInFolder(folder, name, data, displayPath, options);
    succeeded = result.ok;
    return result;
  } finally {
    if (succeeded && options.exclusive) await folder.sync();
    await folder.close();
    if (!succeeded) await removeFolders(folder.created);
  }
}

async function writeInFolder(folder: PinnedFolder, name: string, data: Buffer, displayPath: string, options: AtomicWriteOptions): Promise<Result<AtomicWriteOutcome>> {
  const staged = stage(folder, name, data, displayPath, options);
  if (!staged.ok) return staged;
  const s = staged.staged;
  try {
    const synced = await syncStaged(s);
    if (!synced.ok) return synced;
    if (options.exclusive) {
      const linked = await publishExclusive(s);
      return linked.ok ? { ok: true, notes: s.notes } : linked;
    }
    const published = publish(s);
    if (!published.ok) return published;
    await s.folder.sync();
    return await verifyReplaced(s, published.original, published.before);
  } catch (err) {
    return ioError(`cannot write ${displayPath}`, displayPath, err);
  } finally {
    discard(s);
  }
}

/** A temp file written and fsynced beside its target, waiting to be published. */
export interface Staged {
  folder: PinnedFolder;
  name: string;
  displayPath: string;
  options: AtomicWriteOptions;
  existing: BigIntStats | undefined;
  tempPath: string;
  tempReal: string;
  tempCreated: boolean;
  /** The temp file's descriptor, still open for its fsync (syncStaged closes it). */
  fd?: number | undefined;
  /** The bytes written to the temp file. */
  bytes: number;
  /** The temp file as it was once written (its mode checked against the one wanted; closeStaged remembers it as editls's own write). */
  written?: BigIntStats;
  notes: string[];
}

/** Checks the target and writes the data to a temp file beside it (nothing visible changes); syncStaged makes it durable. */
function stage(folder: PinnedFolder, name: string, data: Buffer, displayPath: string, options: AtomicWriteOptions): Result<{ staged: Staged }> {
  const prepared = prepareStage(folder, name, displayPath, options);
  if (!prepared.ok) return prepared;
  const { staged: s, mode } = prepared;
  let fd: number;
  try {
    fd = openSync(s.tempPath, 'wx', mode ?? 0o666);
  } catch (err) {
    return notCreated(s, err);
  }
  s.tempCreated = true;
  s.bytes = data.length;
  try {
    writeAll(fd, data);
    s.written = fstatSync(fd, { bigint: true });
    keepOwnerAndMode(fd, s.existing, mode, s.written);
  } catch (err) {
    return notWritten(s, fd, err);
  }
  s.fd = fd;
  return { ok: true, staged: s };
}

/**
 * stage with the temp file created and written through the threadpool: creating a file costs the
 * file system ~0.1-0.2 ms (its journal), which a batch of thousands would spend on the main thread.
 * The checks are the same synchronous calls; the target is checked again right before its rename.
 */
async function stageInPool(folder: PinnedFolder, name: string, data: Buffer, displayPath: string, options: AtomicWriteOptions): Promise<Result<{ staged: Staged }>> {
  const prepared = prepareStage(folder, name, displayPath, options);
  if (!prepared.ok) return prepared;
  const { staged: s, mode } = prepared;
  const fd = await new Promise<number | Failure>((resolve) => openFile(s.tempPath, 'wx', mode ?? 0o666, (err, opened) => resolve(err ? notCreated(s, err) : opened)));
  if (typeof fd !== 'number') return fd;
  s.tempCreated = true;
  s.bytes = data.length;
  try {
    for (let done = 0; done < data.length; ) {
      done += await new Promise<number>((resolve, reject) => write(fd, data, done, data.length - done, done, (err, n) => (err ? reject(err) : resolve(n))));
    }
    s.written = fstatSync(fd, { bigint: true });
    keepOwnerAndMode(fd, s.existing, mode, s.written);
  } catch (err) {
    return notWritten(s, fd, err);
  }
  s.fd = fd;
  return { ok: true, staged: s };
}

/** A temp file that could not be created: nothing of it is left. */
function notCreated(s: Staged, err: unknown): Failure {
  discard(s);
  return tempFailure(err, s.displayPath, s.existing !== undefined);
}

/** A temp file that could not be written: closed and removed. */
function notWritten(s: Staged, fd: number, err: unknown): Failure {
  closeQuietly(fd);
  discard(s);
  return ioError(`cannot write ${s.displayPath}`, s.displayPath, err);
}

/** Random bytes for temp names, never reused, drawn from a pool refilled 4 KiB at a time: one call to the system's generator per ~680 names (a batch of 4,000 files made 4,000 calls, ~12 µs each). */
let randomPool = Buffer.alloc(0);
let randomAt = 0;
function randomHex(bytes: number): string {
  if (randomAt + bytes > randomPool.length) {
    randomPool = process.getBuiltinModule('node:crypto').randomBytes(4096);
    randomAt = 0;
  }
  randomAt += bytes;
  return randomPool.toString('hex', randomAt - bytes, randomAt);
}

/** The checks before a temp file is written (the target is still a regular file, unchanged, writable) and its name; nothing is created. */
function prepareStage(folder: PinnedFolder, name: string, displayPath: string, options: AtomicWriteOptions): Result<{ staged: Staged; mode: number | undefined }> {
  const target = folder.at(name);
  let existing: BigIntStats | undefined;
  try {
    existing = lstatSync(target, { bigint: true });
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT') return ioError(`cannot write ${displayPath}`, displayPath, err);
  }
  if (existing?.isSymbolicLink()) {
    return fail('outside_workspace', `cannot write ${displayPath}: it became a symbolic link after the path was checked; nothing written`, { path: displayPath });
  }
  if (existing?.isDirectory()) return fail('io_error', `cannot write ${displayPath}: it is a directory`, { path: displayPath });
  if (existing && options.exclusive) return alreadyExists(displayPath);
  if (existing && !existing.isFile()) return fail('io_error', `cannot write ${displayPath}: it is not a regular file`, { path: displayPath });
  if (options.expect && (!existing || fileStamp(existing) !== options.expect.stamp)) return changedOnDisk(displayPath, existing === undefined);
  if (existing) {
    const refused = permissionProblem(target, existing, displayPath);
    if (refused) return refused;
  }
  const mode = options.mode ?? (existing ? Number(existing.mode) & 0o7777 : undefined);
  // The writer's pid is part of the name so a sweep at start can tell a crashed writer's leftovers
  // from a live editls (another editor window) still writing.
  const tempName = `${TEMP_PREFIX}${process.pid}-${[...name].slice(0, 40).join('')}.${randomHex(6)}`;
  const s: Staged = { folder, name, displayPath, options, existing, tempPath: folder.at(tempName), tempReal: path.join(folder.realPath, tempName), tempCreated: false, bytes: 0, notes: [] };
  inFlight.add(s.tempReal);
  return { ok: true, staged: s, mode };
}

/**
 * The owner of a file we replace is kept (root editing someone else's file; permissionProblem refused
 * the case where it cannot be kept), and its group (a temp file in a setgid folder takes the folder's),
 * then the exact mode (open() applied the umask). chown before chmod: chown clears setuid/setgid.
 * `created`: the temp file's fstat after it was written, with the owner and group it was given; its
 * mode already the one wanted (the umask took nothing from it) and no chown, there is nothing to set
 * (one system call less a file of a batch, on the main thread).
 */
function keepOwnerAndMode(fd: number, existing: BigIntStats | undefined, mode: number | undefined, created: BigIntStats): void {
  let chowned = false;
  if (existing && (existing.uid !== created.uid || existing.gid !== created.gid)) {
    try {
      fchownSync(fd, Number(existing.uid), Number(existing.gid));
      chowned = true;
    } catch {
      // best effort, as before
    }
  }
  if (mode !== undefined && (chowned || (Number(created.mode) & 0o7777) !== mode)) fchmodSync(fd, mode);
}

/** All of `data` at the descriptor's start (write may take less than asked). */
function writeAll(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done, done);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** fsync waits on the disk: through the threadpool, never on the main thread. */
function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** fsync of a staged temp file (through a new descriptor: fsync flushes the file, whoever wrote it). */
async function syncStaged(s: Staged): Promise<Result<{}>> {
  try {
    const fd = s.fd ?? openSync(s.tempPath, constants.O_RDONLY | constants.O_NOFOLLOW);
    s.fd = undefined;
    try {
      await fsyncAsync(fd);
      rememberOwnWrite(fstatSync(fd, { bigint: true }));
    } finally {
      closeSync(fd);
    }
    return { ok: true };
  } catch (err) {
    return ioError(`cannot write ${s.displayPath}`, s.displayPath, err);
  }
}

/** An item's temp file created and written through the threadpool, then closed: made durable later, with the batch's others (syncTogether). */
async function stageClosed(folder: PinnedFolder, item: BatchWrite): Promise<Result<{ staged: Staged }>> {
  const r = await stageInPool(folder, path.basename(item.absPath), bytesOf(item), item.displayPath, item.options);
  if (!r.ok) return r;
  const closed = closeStaged(r.staged);
  if (closed.ok) return r;
  discard(r.staged);
  return closed;
}

/** A staged temp file written in full: closed (syncTogether makes it durable), remembered as editls's own write. */
function closeStaged(s: Staged): Result<{}> {
  const fd = s.fd!;
  s.fd = undefined;
  try {
    rememberOwnWrite(s.written ?? fstatSync(fd, { bigint: true }));
    closeSync(fd);
    return { ok: true };
  } catch (err) {
    closeQuietly(fd);
    return ioError(`cannot write ${s.displayPath}`, s.displayPath, err);
  }
}

/**
 * Makes a batch's closed temp files durable: one syncfs of their folders' file systems (a folder for
 * each), which must still be where they were pinned afterwards (else it may have synced another file
 * system); when it is not used or fails, an fsync of each file (which reports the error, if any).
 */
async function syncTogether(
  staged: readonly Staged[],
  folders: readonly PinnedFolder[],
  ownBytes: number,
  syncFileSystems: SyncFileSystems,
  openMax: number,
): Promise<{ failed: Failure | undefined; synced: readonly PinnedFolder[] }> {
  const chosen = onePerFileSystem(folders);
  if (chosen.length > 0 && (await syncedAt(chosen, ownBytes, syncFileSystems))) return { failed: undefined, synced: chosen };
  return { failed: (await mapLimited(staged, openMax, (s) => syncStaged(s))).find((r): r is Failure => !r.ok), synced: [] };
}

/** One of `folders` for each file system they are on (none when one cannot be looked at). */
function onePerFileSystem(folders: readonly PinnedFolder[]): PinnedFolder[] {
  const perDevice = new Map<string, PinnedFolder>();
  for (const folder of folders) {
    try {
      const dev = String(statSync(folder.at('.')).dev);
      if (!perDevice.has(dev)) perDevice.set(dev, folder);
    } catch {
      return [];
    }
  }
  return [...perDevice.values()];
}

/** syncfs of the file systems of `chosen`, which must still be where they were pinned afterwards (else it may have synced another file system). */
async function syncedAt(chosen: readonly PinnedFolder[], ownBytes: number, syncFileSystems: SyncFileSystems): Promise<boolean> {
  return (await syncFileSystems(chosen.map((f) => f.realPath), ownBytes)) && chosen.every((f) => f.stillAt());
}

/**
 * Publishes a staged temp file: for a new file, a link that never replaces; else, after the last
 * checks (the file is still the one that was read, the folder still where it was checked), the
 * rename, in synchronous calls (nothing runs between the check and the rename). The replaced file is
 * returned open, for the look after (verifyReplaced); the caller fsyncs the folder (durability) before
 * that look, so a writer that opened the file just before the rename has that long to land its write.
 */
function publish(s: Staged): Result<{ original?: number; before?: BigIntStats; stamp: string }> {
  const target = s.folder.at(s.name);
  let original: number | undefined;
  if (s.existing) {
    try {
      original = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      return errnoCode(err) === 'ENOENT' ? changedOnDisk(s.displayPath, true) : ioError(`cannot write ${s.displayPath}`, s.displayPath, err);
    }
  }
  try {
    const before = original !== undefined ? fstatSync(original, { bigint: true }) : undefined;
    if (before && s.options.expect && fileStamp(before) !== s.options.expect.stamp) {
      if (original !== undefined) closeQuietly(original);
      return changedOnDisk(s.displayPath, false);
    }
    if (!s.folder.stillAt()) {
      if (original !== undefined) closeQuietly(original);
      return movedFolder(s.displayPath);
    }
    renameSync(s.tempPath, target);
    s.tempCreated = false;
    // The file as the rename left it (the rename changes its ctime): a rollback replaces only this.
    const stamp = fileStamp(lstatSync(target, { bigint: true }));
    return { ok: true, ...(original !== undefined ? { original } : {}), ...(before ? { before } : {}), stamp };
  } catch (err) {
    if (original !== undefined) closeQuietly(original);
    throw err;
  }
}

/** publish, with a thrown error (the rename refused) as a failure naming the file. */
function publishOrFail(s: Staged, what: 'write' | 'restore'): Result<{ original?: number; before?: BigIntStats; stamp: string }> {
  try {
    return publish(s);
  } catch (err) {
    return ioError(`cannot ${what} ${s.displayPath}`, s.displayPath, err);
  }
}

/** Publishes a new file's staged temp file under its name with a link, which never replaces. */
async function publishExclusive(s: Staged): Promise<Result<{}>> {
  if (!s.folder.stillAt()) return movedFolder(s.displayPath);
  const linked = await linkExclusive(s.tempPath, s.folder.at(s.name));
  if (linked === 'exists') return alreadyExists(s.displayPath);
  return { ok: true };
}

/** The look at the replaced file after the rename: appends carried over, other changes reported; closes it. */
async function verifyReplaced(s: Staged, original: number | undefined, before: BigIntStats | undefined, held?: HeldOpen): Promise<Result<AtomicWriteOutcome>> {
  const notes = s.notes;
  if (original === undefined || !before) return { ok: true, notes };
  try {
    // Writes through a descriptor opened before the rename land in the replaced file: look once more.
    // (Not the ctime: the rename itself changes it, by unlinking that file.) A file another program
    // wrote moments before is being written right now: give a writer that opened it just before the
    // rename (and was then descheduled) a little longer to land its write where the look sees it.
    // (editls's own last write to it, e.g. the previous command of an agent, does not count.)
    const recent = BigInt(Date.now()) * 1_000_000n - before.mtimeNs < ACTIVE_WRITER_NS;
    if (recent && !ownWrites.has(contentStamp(before))) await new Promise((r) => setTimeout(r, ACTIVE_WRITER_GRACE_MS));
    const after = fstatSync(original, { bigint: true });
    if (after.size !== before.size || after.mtimeNs !== before.mtimeNs) {
      const carried = await carryOverAppend(original, after, bytesAsRead(s.options.expect, s.folder.at(s.name)), s.folder.at(s.name));
      if (!carried.ok) {
        return fail('stale', `${s.displayPath} was changed by another program while editls replaced it: the edit is on disk, but that change went to the replaced copy (its text is in data.replacedText); merge it by hand`, {
          path: s.displayPath,
          replacedText: carried.replacedText,
        });
      }
      notes.push(`another program appended ${carried.bytes} bytes to ${s.displayPath} while editls replaced it; they were appended again after the edit`);
    }
    if (before.nlink > 1n) {
      notes.push(`${s.displayPath} had ${before.nlink} hard links; the atomic write replaced this name only (the other links keep the old text)`);
    }
    return { ok: true, notes };
  } finally {
    // The last descriptor of the replaced file: closing it frees the file (its blocks), which takes
    // the file system a while; the threadpool does it, many at once.
    if (held) held.close(original);
    else close(original, () => undefined);
  }
}

/**
 * The replaced files a batch holds open, each counted until the threadpool has closed it (closing
 * the last descriptor frees the file, which takes the file system a while): a window of renames
 * starts only while at most half of the batch's budget is held, and opens at most what is left.
 */
class HeldOpen {
  private count = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly budget: number) {}

  /**
   * How many replaced files the next window may open, `left` still to rename: waits until the budget
   * has room for all of them, or for half of it when more are left. (Waiting for half of it whatever
   * was left held the last 19 of 4,115 files ~175 ms, while the threadpool closed 2,000 replaced files.)
   */
  async room(left: number): Promise<number> {
    const wanted = Math.min(left, Math.ceil(this.budget / 2));
    while (this.budget - this.count < wanted) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.budget - this.count;
  }

  opened(): void {
    this.count++;
  }

  close(fd: number): void {
    close(fd, () => {
      this.count--;
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    });
  }
}

/** Removes a staged temp file that was not published. */
function discard(s: Staged): void {
  if (s.fd !== undefined) closeQuietly(s.fd);
  s.fd = undefined;
  if (s.tempCreated) {
    try {
      unlinkSync(s.tempPath);
    } catch {
      // already gone
    }
  }
  s.tempCreated = false;
  inFlight.delete(s.tempReal);
}

/**
 * Where a batch's time went (ms): temp files checked, written and fsynced (one step: each file's
 * fsync follows its write), then renamed, folders fsynced and replaced files looked at.
 */
export interface BatchTimings {
  writeMs: number;
  renameMs: number;
}

export interface BatchWrite {
  absPath: string;
  /**
   * The new bytes, or how to make them: made right before the file's temp file is written and let go
   * after, so a batch never holds every file's bytes at once (20,000 files: the changed text again).
   */
  data: Buffer | (() => Buffer);
  displayPath: string;
  options: Pick<AtomicWriteOptions, 'mode' | 'within' | 'expect'>;
  /** Its temp file, already written (StagingAhead): the batch takes it rather than write one. */
  ahead?: AheadStage;
}

/** Makes everything written to the file systems of these folders durable (syncfs: search/fileSystemSync.ts); false when it did not. */
export type SyncFileSystems = (folders: readonly string[], ownBytes: number) => Promise<boolean>;

/** SyncFileSystems telling a failed sync from one not tried (search/fileSystemSync.ts syncOutcome): StagingAhead's writeback. */
export type Writeback = (folders: readonly string[], ownBytes: number) => Promise<'synced' | 'skipped' | 'failed'>;

/** A temp file StagingAhead writes for a batch item before the batch runs (opaque outside this module). */
export interface AheadStage {
  readonly done: Promise<Result<{ staged: Staged }>>;
}

/** A batch item's new bytes. */
export function bytesOf(item: Pick<BatchWrite, 'data'>): Buffer {
  return typeof item.data === 'function' ? item.data() : item.data;
}

/** A replaced file modified less than this long before the rename counts as being written by another program (ns). */
const ACTIVE_WRITER_NS = 1_000_000_000n;
/** How long the look after the rename waits for such a file (ms). */
const ACTIVE_WRITER_GRACE_MS = 20;

/** Files editls itself wrote last (device, inode, size, mtime): their recent mtime is no other program's. */
const ownWrites = new Set<string>();
const OWN_WRITES_MAX = 4096;

function contentStamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

function rememberOwnWrite(st: BigIntStats): void {
  ownWrites.add(contentStamp(st));
  if (ownWrites.size > OWN_WRITES_MAX) ownWrites.delete(ownWrites.values().next().value as string);
}

/**
 * Files renamed before their folders are fsynced (or their file systems synced) and the replaced
 * files looked at (which closes them): a batch holds at most this many replaced files open, whatever
 * its size (a batch of 20,000 held them all, and ran out of descriptors at the usual limit of 1,024);
 * fewer when the descriptor limit is low (descriptorBudget: Node raises its soft limit to the hard
 * one, often 524,288). A file counts until the threadpool has closed it (HeldOpen): the closes of one
 * window still running once held 421 descriptors in a batch of 2,000 (windows of 256 then). Each
 * window costs a sync of 5-9 ms here: windows of 256 took 426 files' renames 50-63 ms, one of 1,024
 * 28-34 ms (replaceInFilesBench at 2,000 files). At 20,000 files (4,115 renamed) windows of 1,024
 * ran as one of 1,024 and then of 512 (half the budget still held while the threadpool closed the
 * last window's files), each ~19 ms of renames, ~17 ms of sync and ~20 ms of that wait: the rename
 * step took 497-523 ms, with windows of 4,096 436-462 ms (alternating runs).
 */
export const PUBLISH_WINDOW = 4096;

/** fsyncs (and folder fsyncs, looks after the rename) in flight at once in a batch: each temp file stays open from its write to its fsync. */
const FSYNC_CONCURRENCY = 64;

/** Batches of at least this many files create and write their temp files through the threadpool. */
const POOL_STAGING_MIN = 64;

/**
 * How many descriptors a batch may hold at once: half of what the process may still open (its soft
 * RLIMIT_NOFILE, read from /proc/self/limits, less what is open now), at most PUBLISH_WINDOW and at least 8.
 * Elsewhere than Linux: PUBLISH_WINDOW.
 */
function descriptorBudget(): number {
  if (process.platform !== 'linux') return PUBLISH_WINDOW;
  try {
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit === undefined) return PUBLISH_WINDOW;
    const free = Number(limit) - readdirSync('/proc/self/fd').length;
    return Math.max(8, Math.min(PUBLISH_WINDOW, Math.floor(free / 2)));
  } catch {
    return PUBLISH_WINDOW;
  }
}

/**
 * Temp files written ahead at once (StagingAhead), through the threadpool (at most a quarter of the
 * descriptors left). Each takes two round trips (open, write), and the main thread, busy reading and
 * matching the command's next files, takes their completions once per turn of its event loop (every
 * ~8-16 ms): at 32 the temp files of 4,000 changes were mostly written after the last was matched
 * (the write step then waited ~700 ms, every changed file's text held meanwhile); at 128, ~200 ms.
 */
const AHEAD_CONCURRENCY = 128;

/** Temp-file bytes written ahead between two background writebacks (StagingAhead). */
export const WRITEBACK_BYTES = 16 * 1024 * 1024;

/**
 * Temp files written for a batch before it runs, while the caller still works out the rest of it (a
 * replaceInFiles reading and matching its next files): each is checked (prepareStage), created and
 * written through the threadpool and closed, not yet fsynced; writeFilesAtomic takes them
 * (`BatchWrite.ahead`), makes them durable with the rest and publishes them after the same last
 * checks. `close()`, once the batch is over or will not run, removes every temp file not published
 * and closes the folders pinned for them.
 */
export class StagingAhead {
  private readonly folders = new Map<string, Promise<Result<{ folder: PinnedFolder }>>>();
  private readonly stages: Promise<Result<{ staged: Staged }>>[] = [];
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private closed = false;
  private readonly concurrency = Math.min(AHEAD_CONCURRENCY, Math.max(8, Math.floor(descriptorBudget() / 4)));
  /** Bytes written to temp files since the last writeback was started; the one running; whether one failed; whether the batch took over. */
  private unflushed = 0;
  private flushing: Promise<unknown> | undefined;
  private writebackFailed = false;
  private settled = false;

  /**
   * `writeback`: a sync of the file system (search/fileSystemSync.ts syncOutcome), started in the
   * background after every WRITEBACK_BYTES written, so that the disk takes the temp files' data while
   * the caller still works out the rest (the batch's own sync then has little left). Its outcome
   * counts: syncfs reports a write-back error once, to the sync that saw it, so when one failed the
   * batch fsyncs each temp file instead (an fsync reports its file's error: settleWriteback).
   */
  constructor(private readonly writeback?: Writeback) {}

  /** Starts writing `item`'s temp file; its outcome (a failure too) is the batch's when it takes it. */
  stage(item: BatchWrite): AheadStage {
    const done = this.limited(async (): Promise<Result<{ staged: Staged }>> => {
      if (this.closed) return fail('cancelled', `the batch writing ${item.displayPath} is over`);
      const dir = path.dirname(item.absPath);
      let pinning = this.folders.get(dir);
      if (!pinning) {
        pinning = pinFolder(dir, { mkdirs: false, ...(item.options.within ? { within: item.options.within } : {}), displayPath: item.displayPath });
        this.folders.set(dir, pinning);
      }
      const pinned = await pinning;
      if (!pinned.ok) return pinned;
      const staged = await stageClosed(pinned.folder, item);
      if (staged.ok) this.written(pinned.folder, staged.staged.bytes);
      return staged;
    });
    this.stages.push(done);
    return { done };
  }

  /** Counts a temp file written, and starts a writeback (of its folder's file system) once WRITEBACK_BYTES were written since the last. */
  private written(folder: PinnedFolder, bytes: number): void {
    this.unflushed += bytes;
    if (!this.writeback || this.flushing || this.closed || this.settled || this.unflushed < WRITEBACK_BYTES) return;
    const own = this.unflushed;
    this.unflushed = 0;
    const running = this.writeback([folder.realPath], own)
      .catch(() => 'failed' as const)
      .then((outcome) => {
        if (outcome === 'failed') this.writebackFailed = true;
        this.flushing = undefined;
      });
    this.flushing = running;
  }

  /**
   * Before the batch syncs and renames these temp files: no writeback starts any more, and the one
   * running has ended. True when one failed (an error of the file system, `sync -f` missing or
   * refused, past its deadline): the batch must then fsync each temp file, not sync the file system
   * (which would not report an error that sync saw).
   */
  async settleWriteback(): Promise<boolean> {
    this.settled = true;
    await this.flushing;
    return this.writebackFailed;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Once the batch is over (or will not run): every temp file it did not publish removed, the folders closed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const r of await Promise.all(this.stages)) if (r.ok) discard(r.staged);
    for (const pinning of this.folders.values()) {
      const pinned = await pinning;
      if (pinned.ok) await pinned.folder.close();
    }
  }
}

/** A batch that failed: `holdingNew` lists the items (indices) whose file holds the new data, none when everything was rolled back. */
export type BatchFailure = Failure & { holdingNew: number[] };

/**
 * Writes many existing files, each atomically, as one step, all or nothing: every temp file is
 * written and fsynced (each fsync started as soon as its file is written) before any is published,
 * so a refusal found then (a file changed, read-only or immutable, a folder moved, a full disk)
 * writes nothing. Then each is renamed after its last check, in windows of at most PUBLISH_WINDOW
 * open replaced files (folders fsynced and replaced files looked at after each window). A failure
 * among the renames (a file changed or swapped in the microseconds before its
 * rename, a rename refused) rolls back every file already renamed to its exact bytes, mode and owner
 * (the bytes as read, `expect.bytes()`); a file that cannot be rolled back (changed again since,
 * or the disk refuses) is named in the message and in `holdingNew`.
 */
export async function writeFilesAtomic(
  items: readonly BatchWrite[],
  options: {
    /** The caller's CPU work, run once every temp file is written, while the last fsyncs wait on the disk (before any file is replaced). */
    whileSyncing?: () => void;
    /**
     * For a batch of POOL_STAGING_MIN files or more: makes everything written to the file systems of
     * these folders durable at once (syncfs: search/fileSystemSync.ts), in place of an fsync per temp
     * file; false when it did not (then each is fsynced).
     */
    syncFileSystems?: SyncFileSystems;
  } = {},
): Promise<({ ok: true } & AtomicWriteOutcome & { written: number; timings: BatchTimings }) | BatchFailure> {
  const started = performance.now();
  const folders = new Map<string, PinnedFolder>();
  const staged: (Staged | undefined)[] = new Array(items.length);
  const none = (f: Failure): BatchFailure => ({ ...f, holdingNew: [] });
  try {
    for (const item of items) {
      const dir = path.dirname(item.absPath);
      if (item.ahead || folders.has(dir)) continue;
      // Without folder creation pinFolder is synchronous calls (pinFolderSync) and a message on failure.
      const pinned = await pinFolder(dir, { mkdirs: false, ...(item.options.within ? { within: item.options.within } : {}), displayPath: item.displayPath });
      if (!pinned.ok) return none(pinned);
      folders.set(dir, pinned.folder);
    }
    // A large batch's temp files are created and written through the threadpool, `openMax` at a time,
    // each fsynced as soon as it is written (the main thread only checks; the pool waits on the
    // disk); a small one's in synchronous calls (cheaper than the threadpool's round trips), then
    // fsynced all at once. Once the last is written, the caller's CPU work runs while the last
    // fsyncs wait on the disk.
    const budget = descriptorBudget();
    const openMax = Math.min(FSYNC_CONCURRENCY, budget);
    const whileSyncing = () => {
      try {
        options.whileSyncing?.();
      } catch {
        // the caller's own work: it does it again (and sees the error) after the batch
      }
    };
    let failed: Failure | undefined;
    /** When the temp files were made durable by one syncfs: a folder for each file system (the renames are made durable the same way). */
    let syncedFolders: readonly PinnedFolder[] = [];
    // (A small batch holds every temp file open until its fsync: at most `budget` of them.)
    if (items.length < POOL_STAGING_MIN && items.length <= budget) {
      for (const [i, item] of items.entries()) {
        const r = item.ahead ? await item.ahead.done : stage(folders.get(path.dirname(item.absPath))!, path.basename(item.absPath), bytesOf(item), item.displayPath, item.options);
        if (!r.ok) return none(r);
        staged[i] = r.staged;
        await breathe();
      }
      const syncing = mapLimited(staged, openMax, (st) => syncStaged(st!));
      whileSyncing();
      failed = (await syncing).find((r): r is Failure => !r.ok);
    } else if (options.syncFileSystems) {
      // Temp files written (and closed) through the threadpool, then made durable together: one
      // syncfs, or an fsync each when it was not used or failed.
      await eachLimited(items.length, openMax, async (i) => {
        if (failed) return;
        const item = items[i]!;
        const r = item.ahead ? await item.ahead.done : await stageClosed(folders.get(path.dirname(item.absPath))!, item);
        if (r.ok) staged[i] = r.staged;
        else failed ??= r;
      });
      if (!failed) {
        const all = staged as Staged[];
        const bytes = all.reduce((n, s) => n + s.bytes, 0);
        const syncing = syncTogether(all, [...new Set(all.map((s) => s.folder))], bytes, options.syncFileSystems, openMax);
        whileSyncing();
        const together = await syncing;
        failed = together.failed;
        syncedFolders = together.synced;
      }
    } else {
      let written = 0;
      await eachLimited(items.length, openMax, async (i) => {
        if (failed) return;
        const item = items[i]!;
        const r = item.ahead ? await item.ahead.done : await stageInPool(folders.get(path.dirname(item.absPath))!, path.basename(item.absPath), bytesOf(item), item.displayPath, item.options);
        if (!r.ok) {
          failed ??= r;
          return;
        }
        staged[i] = r.staged;
        const syncing = syncStaged(r.staged);
        if (++written === items.length) whileSyncing();
        const synced = await syncing;
        if (!synced.ok) failed ??= synced;
      });
    }
    if (failed) return none(failed);
    // Every temp file is durable before any is published.
    const durable = performance.now();
    const published: Published[] = [];
    const notes: string[] = [];
    let stopped: Failure | undefined;
    let verifyFailure: Failure | undefined;
    const held = new HeldOpen(budget);
    for (let from = 0; from < staged.length && !stopped; ) {
      const window: { s: Staged; original?: number; before?: BigIntStats }[] = [];
      const end = Math.min(from + (await held.room(staged.length - from)), staged.length);
      for (let i = from; i < end; i++) {
        const s = staged[i]!;
        const r = publishOrFail(s, 'write');
        if (!r.ok) {
          stopped = r;
          break;
        }
        if (r.original !== undefined) held.opened();
        window.push({ s, ...(r.original !== undefined ? { original: r.original } : {}), ...(r.before ? { before: r.before } : {}) });
        published.push({ index: i, s, stamp: r.stamp });
        await breathe();
      }
      // The renames made durable (one syncfs again, or each folder fsynced), then the replaced files
      // looked at once more (and closed).
      const windowFolders = [...new Set(window.map((w) => w.s.folder))];
      if (!(syncedFolders.length > 0 && options.syncFileSystems && (await syncedAt(syncedFolders, 0, options.syncFileSystems)))) {
        await mapLimited(windowFolders, openMax, (folder) => folder.sync());
      }
      from = end;
      const verified = await mapLimited(window, openMax, (p) => verifyReplaced(p.s, p.original, p.before, held));
      for (const v of verified) {
        if (v.ok) notes.push(...v.notes);
        else verifyFailure ??= v;
      }
    }
    if (stopped) {
      if (published.length === 0) return none(stopped);
      const kept = await rollBack(published, items, [...new Set(published.map((p) => p.s.folder))]);
      const n = published.length;
      const message =
        kept.length === 0
          ? `${stopped.message}; the ${n} file${n === 1 ? '' : 's'} already replaced ${n === 1 ? 'was' : 'were'} restored to ${n === 1 ? 'its' : 'their'} exact bytes, so nothing changed`
          : `${stopped.message}; of the ${n} file${n === 1 ? '' : 's'} already replaced, ${kept.length} could not be restored and hold${kept.length === 1 ? 's' : ''} the new text: ${kept.map((k) => `${items[k.index]!.displayPath} (${k.why})`).join('; ')}; editls.undo reverts ${kept.length === 1 ? 'it' : 'them'}`;
      return { ...stopped, message, holdingNew: kept.map((k) => k.index) };
    }
    // The edit is on disk, but another program's change to a file went to the replaced copy: reported, all written.
    if (verifyFailure) return { ...verifyFailure, holdingNew: items.map((_, i) => i) };
    const done = performance.now();
    return {
      ok: true,
      notes,
      written: published.length,
      timings: { writeMs: durable - started, renameMs: done - durable },
    };
  } finally {
    for (const s of staged) if (s) discard(s);
    for (const folder of folders.values()) await folder.close();
  }
}

/** A file the batch renamed into place: its item, and the stamp it had right after the rename. */
interface Published {
  index: number;
  s: Staged;
  stamp: string;
}

/**
 * Puts the bytes back that each published file held before (as read: `expect.bytes()`), with its
 * mode and owner, through the same atomic path: a temp file, fsynced, renamed over the file, but only
 * while the file still is exactly what the batch wrote (a later change by someone else is kept, and
 * reported). Returns the files that could not be restored, and why.
 */
async function rollBack(published: readonly Published[], items: readonly BatchWrite[], folders: readonly PinnedFolder[]): Promise<{ index: number; why: string }[]> {
  const kept: { index: number; why: string }[] = [];
  for (const p of [...published].reverse()) {
    const item = items[p.index]!;
    // A change that let its old text go: its new bytes read back (only while the file is exactly what
    // the batch left, by its stamp) and turned back.
    const written = item.options.expect?.restore ? readIfStamp(p.s.folder.at(p.s.name), p.stamp) : undefined;
    const bytes = written ? item.options.expect?.restore?.(written) : item.options.expect?.bytes?.();
    if (!bytes) {
      kept.push({ index: p.index, why: item.options.expect?.restore && !written ? 'it changed again since editls wrote it' : 'its old bytes were not kept' });
      continue;
    }
    const mode = p.s.existing ? Number(p.s.existing.mode) & 0o7777 : item.options.mode;
    const staged = stage(p.s.folder, p.s.name, bytes, item.displayPath, { ...(mode !== undefined ? { mode } : {}), expect: { stamp: p.stamp, bytes: () => written ?? bytesOf(item) } });
    if (!staged.ok) {
      kept.push({ index: p.index, why: staged.kind === 'stale' ? 'it changed again since editls wrote it' : staged.message });
      continue;
    }
    const back = staged.staged;
    // The original owner, which `stage` takes from the file it replaces (editls's own write, chowned to it).
    try {
      const synced = await syncStaged(back);
      if (!synced.ok) {
        kept.push({ index: p.index, why: synced.message });
        continue;
      }
      const r = publishOrFail(back, 'restore');
      if (!r.ok) {
        kept.push({ index: p.index, why: r.kind === 'stale' ? 'it changed again since editls wrote it' : r.message });
        continue;
      }
      if (r.original !== undefined) close(r.original, () => undefined);
    } finally {
      discard(back);
    }
  }
  await mapLimited(folders, FSYNC_CONCURRENCY, (folder) => folder.sync());
  return kept.reverse();
}

/** The process's effective user id, read once (editls never changes it): the owner of every file it creates. */
const EUID = process.geteuid?.();

/**
 * A file the user could not write in place is not replaced either (the folder being writable would
 * allow it), and a file whose owner could not be kept is refused rather than taken over.
 */
function permissionProblem(target: string, st: BigIntStats, displayPath: string): Failure | undefined {
  // Root may write any file, but not an immutable one (chattr +i): access() says EPERM then, to root too.
  const uid = EUID;
  try {
    accessSync(target, constants.W_OK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EPERM') {
      return fail('io_error', `cannot write ${displayPath}: it is immutable or append-only (EPERM; see lsattr); remove the attribute (chattr -i / -a) or edit it another way`, {
        path: displayPath,
        code,
        reason: 'immutable',
      });
    }
    if (code === 'EACCES' || code === 'EROFS') {
      return fail('io_error', `cannot write ${displayPath}: it is read-only for you (mode ${(Number(st.mode) & 0o7777).toString(8).padStart(4, '0')}, ${code}); make it writable (chmod u+w) or edit it another way`, {
        path: displayPath,
        code,
        reason: 'read-only',
      });
    }
  }
  if (uid !== undefined && uid !== 0 && BigInt(uid) !== st.uid) {
    return fail('io_error', `cannot write ${displayPath}: it belongs to uid ${st.uid}, and replacing it would make it yours (only root can keep another owner); edit it as its owner`, {
      path: displayPath,
      reason: 'owner',
    });
  }
  return undefined;
}

/**
 * The bytes a file held as it was read: kept (`expect.bytes`), or worked out (`expect.restore`) from
 * the new bytes now at `target` (a regular file, opened without following a link and never blocking:
 * a FIFO swapped in is not waited on); undefined when neither works.
 */
function bytesAsRead(expect: AtomicWriteOptions['expect'], target: string): Buffer | undefined {
  if (!expect) return undefined;
  if (expect.bytes) return expect.bytes();
  const written = readIfStamp(target);
  return written ? expect.restore(written) : undefined;
}

/** The bytes of the regular file at `target` (not followed if a link), if its stamp is `stamp` (any, without one). */
function readIfStamp(target: string, stamp?: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile() || (stamp !== undefined && fileStamp(st) !== stamp)) return undefined;
    return readWholeSync(fd, Number(st.size));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Bytes another program appended to the replaced file after the last check are appended to the new
 * file; any other change to it cannot be merged and is reported.
 */
async function carryOverAppend(
  original: number,
  after: BigIntStats,
  read: Buffer | undefined,
  target: string,
): Promise<{ ok: true; bytes: number } | { ok: false; replacedText: string }> {
  const now = readWholeSync(original, Number(after.size));
  if (read && now.length > read.length && now.subarray(0, read.length).equals(read)) {
    const tail = now.subarray(read.length);
    const handle = await fsp.open(target, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    try {
      await handle.writeFile(tail);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { ok: true, bytes: tail.length };
  }
  return { ok: false, replacedText: now.toString('utf8') };
}

function changedOnDisk(displayPath: string, deleted: boolean): Failure {
  return fail('stale', deleted ? `${displayPath} was deleted while the edit was written; nothing written` : `${displayPath} changed on disk while the edit was written; nothing written, run the command again`, {
    path: displayPath,
    changedOnDisk: true,
  });
}

function movedFolder(displayPath: string): Failure {
  return fail('stale', `the folder of ${displayPath} was moved or replaced (e.g. by a symbolic link) while the edit was written; nothing written, run the command again`, {
    path: displayPath,
  });
}

/** The temp file could not be made: for an existing writable file, the folder is what is read-only. */
function tempFailure(err: unknown, displayPath: string, replacing: boolean): Failure {
  const code = errnoCode(err);
  const folder = path.posix.dirname(displayPath.split(path.sep).join('/'));
  const shown = folder === '.' ? 'the workspace folder' : `folder ${folder}`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return replacing
      ? fail('io_error', `cannot write ${displayPath}: the file is writable but ${shown} is read-only (${code}), and editls replaces files through a temporary file beside them; make the folder writable`, {
          path: displayPath,
          code,
          reason: 'read-only folder',
        })
      : fail('io_error', `cannot create ${displayPath}: ${shown} is read-only (${code})`, { path: displayPath, code, reason: 'read-only folder' });
  }
  if (code === 'ENOENT') return ioError(`cannot write ${displayPath}: its folder does not exist`, displayPath, err);
  return ioError(`cannot write ${displayPath}`, displayPath, err);
}

/**
 * Deletes leftover temp files directly in `folder` (exactly editls's TEMP_NAME: a user file that
 * merely starts with the prefix stays), e.g. after a crash, skipping any a live writer (pid in the
 * name) or this process is still writing. Returns how many were removed; errors are ignored.
 */
export async function removeStrayTemps(folder: string, isAlive: (pid: number) => boolean = () => false): Promise<number> {
  let entries;
  try {
    entries = await fsp.readdir(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !TEMP_NAME.test(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (inFlight.has(full) || writerAlive(entry.name, isAlive)) continue;
    try {
      await fsp.unlink(full);
      removed++;
    } catch {
      // already gone or not ours to delete
    }
  }
  return removed;
}

/** The pid in an editls temp file name (TEMP_NAME), if it is one. */
export function tempWriterPid(name: string): number | undefined {
  const m = TEMP_NAME.exec(name);
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
    await fsp.link(tempPath, target);
    return 'linked';
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EEXIST') return 'exists';
    if (code === undefined || !NO_HARDLINKS.has(code)) throw err;
  }
  try {
    await fsp.copyFile(tempPath, target, constants.COPYFILE_EXCL);
    return 'linked';
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return 'exists';
    throw err;
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

