// Workspace folders are fixed to their real paths when the client names them (initialize,
// didChangeWorkspaceFolders); this module owns the check every consumer runs before using one: a
// folder whose real path changed since (replaced by a symlink, removed, renamed away) is refused, never followed.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../../core/errno.js';

/**
 * Why the fixed folder `folder` (a real path) cannot be used any more, as the end of a sentence
 * ("... <reason>"), or undefined while it is still the same real path and a folder.
 */
export function folderChange(folder: string): string | undefined {
  let now: string;
  try {
    now = realpathSync.native(folder);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'no longer exists (removed or renamed away)';
    return `cannot be checked (${code ?? String(err)})`;
  }
  if (now !== folder) return `now resolves to ${now} (replaced by a symlink, or a parent folder was)`;
  try {
    if (!statSync(folder).isDirectory()) return 'is no longer a folder';
  } catch {
    return 'no longer exists (removed or renamed away)';
  }
  return undefined;
}

/**
 * folderChange remembered until the event loop next turns: a batch of paths resolved together (a
 * replace's thousands of listed files, between two breathe()s) checks each folder once a turn, not
 * once a path (a realpath and a stat: ~15 µs, 70 ms over 5,000 files). No message from the editor
 * is taken in before the next turn; a folder swapped by another program meanwhile is seen at the next
 * turn, and by the confined read (fileCodec.ts) of any path resolved through it before.
 */
export function folderChangeMemo(): (folder: string) => string | undefined {
  let memo: Map<string, string | undefined> | undefined;
  return (folder) => {
    if (memo === undefined) {
      memo = new Map();
      setImmediate(() => (memo = undefined));
    }
    if (!memo.has(folder)) memo.set(folder, folderChange(folder));
    return memo.get(folder);
  };
}

/** The folders that are still what they were when fixed, in order. */
export function intactFolders(folders: readonly string[]): string[] {
  return folders.filter((f) => folderChange(f) === undefined);
}

/** The one-line refusal for a path in a changed folder (also what is logged). */
export function folderChangedMessage(input: string, folder: string, reason: string): string {
  return `${input} is in the workspace folder ${folder}, which ${reason} since the session started; editls does not follow it: reopen the folder in the editor (or restart the server)`;
}

/**
 * Logs a folder's change once (and again if it changes differently), so that the symbol index and
 * other background consumers that skip a changed folder say so without repeating it on every use.
 */
export class FolderWatch {
  private readonly reported = new Map<string, string>();

  constructor(private readonly log: (message: string) => void) {}

  /** The intact folders of `folders`; a folder newly seen changed is logged. */
  intact(folders: readonly string[]): string[] {
    const out: string[] = [];
    for (const f of folders) {
      const reason = folderChange(f);
      if (reason === undefined) {
        this.reported.delete(f);
        out.push(f);
      } else if (this.reported.get(f) !== reason) {
        this.reported.set(f, reason);
        this.log(`workspace folder ${f} ${reason} since the session started; editls no longer reads, searches, indexes or writes it (reopen the folder to use it again)`);
      }
    }
    return out;
  }
}

