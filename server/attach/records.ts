// Discovery records: `<pid>.json` (mode 0600) in the runtime folder, one per editor-started editls —
// pid, workspace folders (real paths), the editor's name, start time, the socket and the token.
// Written atomically; records of editls processes proven gone (their socket refuses connections)
// are removed with their sockets when listed. A pid check alone proves nothing: across pid namespaces
// (a sandboxed agent sharing the runtime folder) a live editor's pid looks dead.
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** node:crypto, loaded on first use rather than at start-up (docs/performance.md, "Start-up"). */
const crypto = () => process.getBuiltinModule('node:crypto');

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
  return windows ? `\\\\.\\pipe\\editls-${pid}-${crypto().randomBytes(8).toString('hex')}` : path.join(dir, `${pid}.sock`);
}

export function newToken(): string {
  return crypto().randomBytes(16).toString('hex');
}

function digest(s: string): Buffer {
  return crypto().createHash('sha256').update(s).digest();
}

/** Whether `given` is the token (also the IDE servers' check, server/ide/). */
export function tokenMatches(expected: string, given: unknown): boolean {
  // Digests have one length, so the compare is constant-time whatever the agent sent.
  return crypto().timingSafeEqual(digest(expected), digest(typeof given === 'string' ? given : ''));
}

/** Writes the record through a temporary file (mode 0600) and a rename, so a reader never sees half of it. */
export function writeRecord(dir: string, record: DiscoveryRecord): void {
  const target = recordPath(dir, record.pid);
  const temp = `${target}.${crypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
  chmodSync(temp, 0o600);
  renameSync(temp, target);
}

export function removeRecord(dir: string, pid: number, endpoint: string | undefined): void {
  rmSync(recordPath(dir, pid), { force: true });
  if (endpoint !== undefined && !endpoint.startsWith('\\\\')) rmSync(endpoint, { force: true });
}

/** How long a look at a record's socket may take: a live editls answers a connect at once, even busy (the kernel accepts it). */
const PROBE_MS = 1000;

/**
 * Whether an editls listens on `endpoint`: 'alive' when a connection is accepted, 'gone' when the
 * socket refuses it (no listener: the process that made it has exited), 'unknown' otherwise (no
 * socket file, a timeout, no permission): nothing is proven then.
 */
export function probeEndpoint(endpoint: string): Promise<'alive' | 'gone' | 'unknown'> {
  return new Promise((resolve) => {
    const socket = net.connect(endpoint);
    const done = (answer: 'alive' | 'gone' | 'unknown') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done('unknown'), PROBE_MS);
    socket.once('connect', () => done('alive'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'gone' : 'unknown'));
  });
}

/**
 * The records whose editls still listens, newest first. A record is removed (with its socket) only
 * when its editls is proven gone: its socket refuses connections (a kill -9 leaves both behind), or,
 * with no socket left to ask, its pid is dead too and the socket file is missing. A record that
 * cannot be reached but is not proven gone is skipped and kept. Unreadable or malformed records are
 * skipped; a socket whose record is gone is removed once it refuses connections.
 */
export async function liveRecords(dir: string, isAlive: (pid: number) => boolean): Promise<DiscoveryRecord[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const looks: Promise<DiscoveryRecord | undefined>[] = [];
  for (const name of names) {
    const m = /^(\d+)\.json$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    let record: DiscoveryRecord | undefined;
    try {
      const parsed = recordSchema.safeParse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
      if (parsed.success && parsed.data.pid === pid) record = parsed.data;
    } catch {
      /* being written or not ours to read: skip */
    }
    const endpoint = record?.endpoint ?? path.join(dir, `${pid}.sock`);
    looks.push(
      (endpoint.startsWith('\\\\') ? Promise.resolve(isAlive(pid) ? 'alive' : 'gone') : probeEndpoint(endpoint)).then((state) => {
        const socketMissing = !endpoint.startsWith('\\\\') && !names.includes(path.basename(endpoint));
        if (state === 'gone' || (state === 'unknown' && socketMissing && record !== undefined && !isAlive(pid))) {
          removeRecord(dir, pid, endpoint);
          return undefined;
        }
        return state === 'alive' ? record : undefined;
      }),
    );
  }
  // A socket whose record is gone (a crash between the two removals) is litter once nobody listens.
  for (const name of names) {
    const m = /^(\d+)\.sock$/.exec(name);
    if (!m || names.includes(`${m[1]}.json`)) continue;
    const socket = path.join(dir, name);
    looks.push(probeEndpoint(socket).then((state) => (state === 'gone' && rmSync(socket, { force: true }), undefined)));
  }
  const out = (await Promise.all(looks)).filter((r): r is DiscoveryRecord => r !== undefined);
  return out.sort((a, b) => b.startedAt - a.startedAt);
}

