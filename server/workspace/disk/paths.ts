// Turns a path argument (relative, absolute or file:// URI) into a real, symlink-free absolute path
// and confines it to the workspace folders before any file is read or written.

import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fail, type Result } from '../../core/result.js';
import { folderChange, folderChangedMessage } from './folders.js';
import { errnoCode } from '../../core/errno.js';
import { isAtOrInside, isInside } from '../../core/containment.js';
import type { ResolvedPath } from '../../commands/ports/files.js';

/** A URI scheme of two or more characters, so that a Windows drive letter (`C:`) is not taken for one. */
const URI_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]+):/;

/**
 * The longest path the system opens (PATH_MAX: 4096 bytes on Linux, 1024 on macOS); a longer one is
 * refused before any look at the disk, so no path costs more than a few thousand bytes per step.
 */
const PATH_MAX = process.platform === 'darwin' ? 1024 : process.platform === 'win32' ? 32767 : 4096;

/** Symlink hops followed through dangling links before giving up (the kernel's own limit is 40). */
const MAX_SYMLINK_HOPS = 40;

let procFd: boolean | undefined;

/**
 * /proc/self/fd/N names where an open descriptor leads, and reaches an open folder (Linux): a
 * confined read checks the first (fileCodec.ts openedAt), a pinned folder uses both
 * (pinnedFolder.ts); elsewhere paths are checked again with realpath. Looked at on first use.
 */
export function descriptorsNamePaths(): boolean {
  if (procFd === undefined) {
    try {
      procFd = process.platform === 'linux' && lstatSync('/proc/self/fd').isDirectory();
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

/** resolveWorkspacePath's options past `directories`. */
export interface ResolveOptions {
  /** A folder (the workspace folder itself too) is allowed: a search scope. */
  directories?: boolean;
  /**
   * `input` is an absolute path ripgrep listed under a real scope: ripgrep follows no symbolic link,
   * so it was real when listed, and on Linux it is not resolved again (realpath walks every
   * component: ~30 µs a file, 140 ms for the 5,000 files of a 20,000-file replace). Every read of it
   * is confined (fileCodec.ts `openedAt`: where its descriptor leads must be this path), so a folder
   * on its path swapped for a link since is refused there; every write goes through a pinned folder.
   */
  listed?: boolean;
  /** folderChange, or a memo of it over one batch of paths (folders.ts folderChangeMemo). */
  folderChange?: (folder: string) => string | undefined;
}

/**
 * Resolves `input` against the workspace folders (real paths, fixed when the client named them) and checks that it lies strictly inside one of them
 * after symlinks are resolved. Fails with invalid_args, outside_workspace or io_error (a directory).
 */
export async function resolveWorkspacePath(input: string, folders: readonly string[], options: ResolveOptions = {}): Promise<Result<ResolvedPath>> {
  if (typeof input !== 'string' || input.trim() === '') {
    return fail('invalid_args', 'the path is empty; pass a file path relative to the workspace folder, an absolute path or a file:// URI', {
      path: input,
    });
  }
  if (input.includes('\0')) {
    return fail('invalid_args', `the path ${JSON.stringify(input)} contains a NUL character; pass a plain file path`, { path: input });
  }

  let candidate: string | undefined;
  const scheme = URI_SCHEME.exec(input)?.[1];
  if (scheme !== undefined) {
    if (scheme.toLowerCase() !== 'file') {
      return fail('invalid_args', `${input} is a ${scheme}: URI; editls only edits files on disk, pass a path or a file:// URI`, {
        path: input,
      });
    }
    candidate = uriToPath(input);
    if (candidate === undefined || candidate.includes('\0')) {
      return fail('invalid_args', `${input} is not a valid local file:// URI; pass a path or a URI like file:///home/me/project/a.ts`, {
        path: input,
      });
    }
  }

  if (folders.length === 0) {
    return fail('outside_workspace', `cannot resolve ${input}: no workspace folder is open; open a folder (workspaceFolders or rootUri) first`, {
      path: input,
      folders: [],
    });
  }

  // The folders are the real paths fixed when the client named them (a workspace opened through a
  // symlink is fixed to its target then). They are not resolved again: a folder whose real path
  // changed since (replaced by a symlink, removed) is refused, never followed to where it now leads.
  const first = folders[0] as string;
  if (candidate === undefined) candidate = path.isAbsolute(input) ? path.resolve(input) : path.resolve(first, input);
  const bytes = Buffer.byteLength(candidate);
  if (bytes > PATH_MAX) {
    return fail('invalid_args', `the path is ${bytes} bytes long, over the system's limit of ${PATH_MAX} bytes for a path (PATH_MAX); no such file can be opened, pass a shorter path`, { path: input.slice(0, 200) });
  }
  const realFolders: string[] = [];
  for (const f of folders) {
    const reason = (options.folderChange ?? folderChange)(f);
    if (reason === undefined) {
      realFolders.push(f);
    } else if (isAtOrInside(candidate, f)) {
      return fail('outside_workspace', folderChangedMessage(input, f, reason), { path: input, folder: f, reason: 'folder_changed' });
    }
  }
  const absPath = options.listed && descriptorsNamePaths() && path.isAbsolute(input) ? candidate : realpathOrSelf(candidate);

  // Innermost containing folder wins when workspace folders nest.
  let folder: string | undefined;
  for (const f of realFolders) {
    if (isInside(absPath, f) && (folder === undefined || f.length > folder.length)) folder = f;
  }

  if (folder === undefined) {
    if (realFolders.includes(absPath) && options.directories) {
      return { ok: true, absPath, uri: fileUri(absPath), relPath: path.relative(first, absPath).split(path.sep).join('/') || '.', exists: true, folder: absPath, directory: true };
    }
    if (realFolders.includes(absPath)) {
      return fail('io_error', `${input} is a directory (the workspace folder itself); pass the path of a file inside it`, {
        path: input,
        absPath,
      });
    }
    const resolvedNote = absPath === path.resolve(candidate) ? '' : ` (it resolves to ${absPath})`;
    const list = realFolders.join(', ');
    return fail(
      'outside_workspace',
      `${input} is outside the workspace${resolvedNote}; editls only touches files inside the workspace folder${realFolders.length > 1 ? 's' : ''} ${list}`,
      { path: input, absPath, folders: realFolders },
    );
  }

  let exists = false;
  try {
    const st = statSync(absPath);
    if (st.isDirectory() && options.directories) {
      return { ok: true, absPath, uri: fileUri(absPath), relPath: path.relative(first, absPath).split(path.sep).join('/'), exists: true, folder, directory: true };
    }
    if (st.isDirectory()) {
      return fail('io_error', `${input} is a directory; pass the path of a file`, { path: input, absPath });
    }
    if (!st.isFile()) {
      return fail('io_error', `${input} is not a regular file (a device, socket or pipe); editls only edits regular files`, {
        path: input,
        absPath,
      });
    }
    exists = true;
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      return fail('io_error', `cannot access ${input}: ${code ?? String(err)}`, { path: input, absPath, code });
    }
  }

  return {
    ok: true,
    absPath,
    uri: fileUri(absPath),
    relPath: path.relative(first, absPath).split(path.sep).join('/'),
    exists,
    folder,
  };
}

/**
 * `file://` URI of a normalised absolute path, exactly as pathToFileURL spells it: a path of only
 * characters that URL never escapes is used as it is (pathToFileURL takes ~20 µs a call, and a search
 * or an index build asks for one per file).
 */
export function fileUri(abs: string): string {
  return /^\/[A-Za-z0-9/._+-]*$/.test(abs) ? `file://${abs}` : pathToFileURL(abs).href;
}

/**
 * path.relative(dir, abs) with '/' separators, for a normalised `abs` (path.resolve's output) and a
 * normalised `dir`: a path inside `dir` is sliced rather than resolved again.
 */
export function slashedRelative(dir: string, abs: string): string {
  if (path.sep === '/' && abs.length > dir.length + 1 && abs.charCodeAt(dir.length) === 0x2f && abs.startsWith(dir)) return abs.slice(dir.length + 1);
  const rel = path.relative(dir, abs);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** file:// URI to a filesystem path (percent-decoded); undefined for other schemes or a malformed/remote URI. */
export function uriToPath(uri: string): string | undefined {
  if (!/^file:/i.test(uri)) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined; // malformed, a remote host, or an encoded '/' in a segment
  }
}

/**
 * Synchronous realpath: the real path of an existing path; for a missing one, the real path of its
 * nearest existing ancestor plus the remaining segments. Dangling symlinks along the way are followed
 * to where they point, so a link to a missing file outside the workspace resolves outside. Iterative:
 * a path of any depth costs one walk up to its existing part and one walk down the rest.
 */
export function realpathOrSelf(p: string): string {
  let current = path.resolve(p);
  // Longer than the system opens: nothing is reachable by it, so nothing is looked up.
  if (Buffer.byteLength(current) > PATH_MAX) return current;
  for (let hops = 0; ; hops++) {
    // Up: the nearest ancestor that exists (or cannot be looked at any further).
    const missing: string[] = [];
    let real: string | undefined;
    for (let at = current; real === undefined; ) {
      const found = realpathIfKnowable(at);
      if (found !== undefined) real = found;
      else {
        const parent = path.dirname(at);
        if (parent === at) real = at;
        else {
          missing.push(path.basename(at));
          at = parent;
        }
      }
    }
    // Down: the missing segments, each under the real path of the one above; a dangling link among
    // them is followed (a relative target is relative to the directory that really holds the link).
    let next: string | undefined;
    for (let i = missing.length - 1; i >= 0; i--) {
      const here = path.join(real, missing[i]!);
      const target = hops < MAX_SYMLINK_HOPS ? danglingLinkTarget(here) : undefined;
      if (target !== undefined) {
        next = path.join(path.resolve(real, target), ...missing.slice(0, i).reverse());
        break;
      }
      real = here;
    }
    if (next === undefined) return real;
    current = next;
  }
}

/** realpath of `p`; `p` itself when realpath fails for a reason other than a missing part (ELOOP, EACCES: the later read or write reports it); undefined when a part is missing. */
function realpathIfKnowable(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch (err) {
    const code = errnoCode(err);
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : p;
  }
}

/** The target of `p` when `p` itself is a symlink (that realpath could not follow), else undefined. */
function danglingLinkTarget(p: string): string | undefined {
  try {
    return lstatSync(p).isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}


