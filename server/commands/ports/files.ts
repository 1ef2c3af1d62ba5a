// The files port: paths resolved and confined to the requester's folders, the text a command computes
// on (the open buffer, else the disk copy), the per-file lock, and removing a file editls created.
// Implemented by server/workspace/ (disk/paths.ts, disk/fileCodec.ts, context.ts).
import type { Result } from '../../core/result.js';
import type { JournalFile } from './review.js';

export interface ResolvedPath {
  /** Absolute, symlinks resolved (for a missing file: its nearest existing ancestor, resolved, plus the rest). */
  absPath: string;
  /** file:// URI of absPath. */
  uri: string;
  /** Relative to the first workspace folder, '/'-separated (starts with ../ for a file in another folder). */
  relPath: string;
  /** A regular file exists at absPath. */
  exists: boolean;
  /** The (realpath'd) workspace folder that contains absPath; the innermost one when folders nest. */
  folder: string;
  /** A folder rather than a file (only with `{ directories: true }`, e.g. a searchFiles scope). */
  directory?: boolean;
}

export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** A file's text as read from disk, with what it takes to write it back the same way. */
export interface DiskText {
  /** BOM-less text, line endings untouched. */
  text: string;
  encoding: FileEncoding;
  bom: boolean;
  /** Permission bits (mode & 0o7777). */
  mode: number;
  /** Size in bytes of what was read. */
  size: number;
  mtimeMs: number;
  /** fileStamp of the file read (device, inode, size, mtime, ctime), checked again before it is replaced. */
  stamp: string;
}

/** What a command computes on: the open buffer when the editor has the file open, else the disk copy. */
export interface Snapshot {
  resolved: ResolvedPath;
  source: 'editor' | 'disk' | 'missing';
  /** The text to edit: the buffer as the editor holds it, or the decoded disk text without its BOM. */
  text: string;
  /** The editor's version of an open document; null otherwise. */
  version: number | null;
  /** The editor's own URI for an open document, else the resolved file URI. */
  uri: string;
  disk?: DiskText;
}

export interface FilesPort {
  /** A path argument (relative to the first folder, absolute, or a file URI), resolved and confined. */
  resolvePath(input: string): Promise<Result<ResolvedPath>>;
  snapshot(resolved: ResolvedPath): Promise<Result<Snapshot>>;
  /**
   * Whether a snapshot taken earlier is still what `snapshot` would give now: the same open buffer at
   * the same version, or, for a closed file, still closed and the file on disk untouched (its stamp) or
   * still missing. For a command that read files before taking their locks.
   */
  unchangedSince(snapshot: Snapshot): boolean;
  /** Serialises commands touching the same files (keys are absolute paths). */
  withFiles<T>(absPaths: readonly string[], fn: () => Promise<T>): Promise<T>;
  /** Deletes a file editls created, if it is closed and still holds exactly what editls wrote (editls.undo of a create). */
  removeCreatedFile(resolved: ResolvedPath, file: JournalFile): Promise<Result<{}>>;
}
