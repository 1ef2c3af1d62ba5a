// The files that announce editls's IDE servers to agent CLIs (Claude Code's lock file, Gemini CLI's
// discovery file): a private folder (created 0700; refused when it is a symbolic link, not a folder
// or someone else's; narrowed to 0700 when it is ours and open to others, since what it holds are
// tokens), each file written whole with mode 0600 and renamed into place, removed at exit; files of
// processes that are gone are swept when a server starts.
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Why `dir` cannot hold tokens, or undefined once it is a private folder of ours (created when missing). */
export function privateFolder(dir: string, uid: number): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `cannot create ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  let st;
  try {
    st = lstatSync(dir);
  } catch (error) {
    return `cannot read ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  if (uid < 0) return undefined; // no owners on this platform (Windows)
  if (st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to this user (${uid})`;
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch (error) {
      return `${dir} has mode ${(st.mode & 0o777).toString(8)} and cannot be made private: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    }
  }
  return undefined;
}

/** Writes `value` as JSON to `file` (mode 0600) through a temporary file renamed over it. */
export function writeDiscoveryFile(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export function removeDiscoveryFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // gone already, or its folder went: nothing to clean up
  }
}

/**
 * Removes the files in `dir` whose names match `pattern` and whose process is gone (`pidOf` reads
 * the pid from the file's name or JSON); answers how many went. Files of live processes, and files
 * that cannot be read as ours, are left alone.
 */
export function sweepStale(dir: string, pattern: RegExp, pidOf: (name: string, json: unknown) => number | undefined, isAlive: (pid: number) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!pattern.test(name)) continue;
    const file = path.join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      json = undefined;
    }
    const pid = pidOf(name, json);
    if (pid === undefined || isAlive(pid)) continue;
    removeDiscoveryFile(file);
    removed++;
  }
  return removed;
}
