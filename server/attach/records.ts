// Discovery records: `<pid>.json` (mode 0600) in the runtime folder, one per editor-started editls —
// pid, workspace folders (real paths), the editor's name, start time, the socket and the token.
// Written atomically; records of dead processes are removed (with their sockets) when listed.
import { randomBytes } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const recordSchema = z.object({
  pid: z.number().int().positive(),
  folders: z.array(z.string()),
  clientName: z.string(),
  startedAt: z.number(),
  endpoint: z.string().min(1),
  token: z.string().regex(/^[0-9a-f]{32}$/),
  version: z.string(),
});
export type DiscoveryRecord = z.infer<typeof recordSchema>;

export function recordPath(dir: string, pid: number): string {
  return path.join(dir, `${pid}.json`);
}

/** The local endpoint for `pid`: a Unix-domain socket in the folder, or a named pipe on Windows. */
export function endpointPath(dir: string, pid: number, windows: boolean): string {
  return windows ? `\\\\.\\pipe\\editls-${pid}-${randomBytes(8).toString('hex')}` : path.join(dir, `${pid}.sock`);
}

export function newToken(): string {
  return randomBytes(16).toString('hex');
}

/** Writes the record through a temporary file (mode 0600) and a rename, so a reader never sees half of it. */
export function writeRecord(dir: string, record: DiscoveryRecord): void {
  const target = recordPath(dir, record.pid);
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
  chmodSync(temp, 0o600);
  renameSync(temp, target);
}

export function removeRecord(dir: string, pid: number, endpoint: string | undefined): void {
  rmSync(recordPath(dir, pid), { force: true });
  if (endpoint !== undefined && !endpoint.startsWith('\\\\')) rmSync(endpoint, { force: true });
}

/**
 * The records of live processes, newest first. A record whose pid is dead is removed with its socket
 * (a kill -9 leaves both behind); unreadable or malformed records are skipped.
 */
export function liveRecords(dir: string, isAlive: (pid: number) => boolean): DiscoveryRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: DiscoveryRecord[] = [];
  for (const name of names) {
    const m = /^(\d+)\.json$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (!isAlive(pid)) {
      removeRecord(dir, pid, path.join(dir, `${pid}.sock`));
      continue;
    }
    try {
      const parsed = recordSchema.safeParse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
      if (parsed.success && parsed.data.pid === pid) out.push(parsed.data);
    } catch {
      /* being written or not ours to read: skip */
    }
  }
  // A socket whose record is gone (a crash between the two removals) is litter too.
  for (const name of names) {
    const m = /^(\d+)\.sock$/.exec(name);
    if (m && !isAlive(Number(m[1]))) rmSync(path.join(dir, name), { force: true });
  }
  return out.sort((a, b) => b.startedAt - a.startedAt);
}

/** Whether `dir` (a real path) is `folder` or inside it. */
export function isInside(dir: string, folder: string): boolean {
  if (dir === folder) return true;
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  return dir.startsWith(prefix);
}
