// The private folder that holds discovery records and sockets: `$XDG_RUNTIME_DIR/editls/` when that
// variable is set, else `<tmpdir>/editls-<uid>/`; created with mode 0700 and refused when it is a
// symlink, not a folder, owned by someone else, or open to group or others. An editor whose folder is
// under $XDG_RUNTIME_DIR also puts a copy of its record in `<tmpdir>/editls-<uid>/`, and agents look
// in every place a record may be (discoveryDirs): an agent started without XDG_RUNTIME_DIR (Codex
// starts MCP servers with a fixed environment) still finds the editor.
import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface RuntimeDirInputs {
  /** $XDG_RUNTIME_DIR, if set. */
  xdgRuntimeDir: string | undefined;
  tmpdir: string;
  uid: number;
}

export function runtimeDirPath(inputs: RuntimeDirInputs): string {
  return inputs.xdgRuntimeDir ? path.join(inputs.xdgRuntimeDir, 'editls') : path.join(inputs.tmpdir, `editls-${inputs.uid}`);
}

/**
 * The second place an editor's record goes: `<tmpdir>/editls-<uid>/`, when the first is under
 * $XDG_RUNTIME_DIR; none otherwise.
 */
export function mirrorDirPath(inputs: RuntimeDirInputs): string | undefined {
  return inputs.xdgRuntimeDir ? path.join(inputs.tmpdir, `editls-${inputs.uid}`) : undefined;
}

/**
 * Every folder an agent looks in for records, first the one its own environment names: its
 * $XDG_RUNTIME_DIR, the systemd default `/run/user/<uid>` (set on desktops, absent from some agents'
 * environments), its temp folder and /tmp.
 */
export function discoveryDirs(inputs: RuntimeDirInputs): string[] {
  const dirs = [
    runtimeDirPath(inputs),
    ...(inputs.uid >= 0 && path.sep === '/' ? [`/run/user/${inputs.uid}/editls`] : []),
    path.join(inputs.tmpdir, `editls-${inputs.uid}`),
    ...(path.sep === '/' ? [`/tmp/editls-${inputs.uid}`] : []),
  ];
  return [...new Set(dirs)];
}

/** Why `dir` is not safe to use, or undefined when it is (a real folder of ours with mode 0700 or narrower). */
export function unsafeReason(dir: string, uid: number): string | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch (error) {
    return `${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  // uid -1: a platform without owners (Windows); named pipes carry their own access control there.
  if (uid >= 0 && st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to this user (${uid})`;
  if (uid >= 0 && (st.mode & 0o077) !== 0) return `${dir} has mode ${(st.mode & 0o777).toString(8)}; it must be 700`;
  return undefined;
}

/** Creates the folder when missing (mode 0700) and checks it; `{ error }` says why it cannot be used. */
export function ensureRuntimeDir(inputs: RuntimeDirInputs): { dir: string } | { error: string } {
  const dir = runtimeDirPath(inputs);
  try {
    if (inputs.xdgRuntimeDir) mkdirSync(inputs.xdgRuntimeDir, { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { error: `cannot create ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  const reason = unsafeReason(dir, inputs.uid);
  return reason === undefined ? { dir } : { error: `refusing to use ${reason}` };
}
