// The editor side of attach: publishes this editls's discovery record, listens on its private socket
// (mode 0600) and serves agent connections — each must first send `editls/attach {token, clientInfo}`
// (constant-time compare; a wrong token is refused and the socket closed) and its folder, then its
// executeCommand and workspace/symbol requests go to the same handlers as the editor's own, confined to
// that folder. The record and socket go on exit.
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, type CancellationToken } from 'vscode-languageserver/node';
import { FrameWriter } from '../protocol/frameWriter.js';
import { attachRefused, methodNotServed } from '../protocol/errors.js';
import { endpointPath, liveRecords, newToken, removeRecord, tokenMatches, writeRecord, type DiscoveryRecord } from './records.js';
import { isAtOrInside } from '../core/containment.js';

export const ATTACH_METHOD = 'editls/attach';
/** A connection that has not attached within this time is closed. */
const HANDSHAKE_MS = 5000;

export interface AttachListenerDeps {
  dir: string;
  /** Other private folders that get a copy of the record (same socket), for agents that look there (runtimeDir.ts). */
  mirrors?: string[];
  pid: number;
  windows: boolean;
  isProcessAlive: (pid: number) => boolean;
  folders: () => string[];
  clientName: () => string;
  version: string;
  log: (message: string) => void;
  /** Serves an attached agent's request (workspace/executeCommand or workspace/symbol). */
  serve: (agent: AttachedAgent, method: 'workspace/executeCommand' | 'workspace/symbol', params: unknown, token: CancellationToken) => Promise<unknown>;
}

/** An agent attached over the socket, as it introduced itself in `editls/attach`. */
export interface AttachedAgent {
  /** Its name and version, for the log and review prompts. */
  name: string;
  /**
   * Its folder (`editls mcp --root`, else its working directory; a real path it holds): its relative
   * paths resolve there and nothing outside it is served. Absent for a client that names none: the
   * editor's folders then.
   */
  root?: string;
  /** Who it is for the undo journal: stable across its reconnections (editls mcp picks it at start). */
  requester: string;
}

export interface AttachHandle {
  endpoint: string;
  /** Rewrites the record (the workspace folders changed). */
  republish(): void;
  /** Removes the record and the socket (synchronous: also runs on process exit). */
  close(): void;
  /** While an answer to an agent is still on its way out, a promise of the moment all have left (FrameWriter.pendingWrites). */
  pendingWrites(): Promise<void> | undefined;
}

export async function startAttachListener(deps: AttachListenerDeps): Promise<AttachHandle> {
  // Records of processes that died without cleaning up (kill -9) go first.
  const mirrors = deps.mirrors ?? [];
  for (const dir of [deps.dir, ...mirrors]) await liveRecords(dir, deps.isProcessAlive);
  const publish = () => {
    writeRecord(deps.dir, record());
    for (const dir of mirrors) {
      try {
        writeRecord(dir, record());
      } catch (error) {
        deps.log(`discovery record copy in ${dir} not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  const endpoint = endpointPath(deps.dir, deps.pid, deps.windows);
  const token = newToken();
  const startedAt = Date.now();
  const sockets = new Set<net.Socket>();
  const writers = new Set<FrameWriter>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const writer = new FrameWriter(socket);
    writers.add(writer);
    socket.on('close', () => {
      sockets.delete(socket);
      writers.delete(writer);
    });
    serveConnection(deps, token, socket, writer);
  });
  const record = (): DiscoveryRecord => ({ pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), startedAt, endpoint, token, version: deps.version });
  let closed = false;
  const handle: AttachHandle = {
    endpoint,
    republish: () => {
      if (!closed) publish();
    },
    close: () => {
      if (closed) return;
      closed = true;
      removeRecord(deps.dir, deps.pid, endpoint);
      for (const dir of mirrors) removeRecord(dir, deps.pid, undefined);
      for (const s of sockets) s.destroy();
      server.close();
    },
    pendingWrites: () => {
      const unsent = [...writers].flatMap((w) => w.pendingWrites() ?? []);
      return unsent.length === 0 ? undefined : Promise.all(unsent).then(() => undefined);
    },
  };
  return new Promise((resolve, reject) => {
    if (!deps.windows) rmSync(endpoint, { force: true });
    server.once('error', reject);
    server.listen(endpoint, () => {
      server.off('error', reject);
      server.on('error', (error) => deps.log(`agent socket error: ${error.message}`));
      server.unref();
      try {
        // The folder is 0700 already; the socket itself is narrowed too.
        if (!deps.windows) chmodSync(endpoint, 0o600);
        publish();
      } catch (error) {
        handle.close();
        reject(error);
        return;
      }
      resolve(handle);
    });
  });
}


function agentName(clientInfo: unknown): string {
  if (typeof clientInfo !== 'object' || clientInfo === null) return 'unknown agent';
  const { name, version } = clientInfo as { name?: unknown; version?: unknown };
  const n = typeof name === 'string' && name !== '' ? name.slice(0, 100) : 'unknown agent';
  return typeof version === 'string' && version !== '' ? `${n} ${version.slice(0, 50)}` : n;
}

/** The agent's folder from `editls/attach`: an absolute path without `.`/`..` parts, or an error. */
function agentRoot(root: unknown): { root?: string } | { error: string } {
  if (root === undefined || root === null) return {};
  if (typeof root !== 'string' || !path.isAbsolute(root) || root.includes('\0') || path.resolve(root) !== root) return { error: 'root must be the absolute real path of the agent\'s folder' };
  return { root };
}

let connections = 0;

function serveConnection(deps: AttachListenerDeps, token: string, socket: net.Socket, writer: FrameWriter): void {
  const conn = createMessageConnection(new StreamMessageReader(socket), writer);
  let agent: AttachedAgent | undefined;
  const connection = ++connections;
  const closeSoon = () => setTimeout(() => socket.end(), 20);
  const handshake = setTimeout(() => socket.destroy(), HANDSHAKE_MS);
  handshake.unref();
  conn.onRequest(ATTACH_METHOD, (params: { token?: unknown; clientInfo?: unknown; root?: unknown; requester?: unknown } | null): unknown => {
    if (agent !== undefined) return { pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), version: deps.version };
    if (!tokenMatches(token, params?.token)) {
      clearTimeout(handshake);
      closeSoon();
      deps.log('agent connection refused: wrong token');
      return attachRefused('wrong token: read it from the discovery record of this editls');
    }
    const root = agentRoot(params?.root);
    if ('error' in root) {
      clearTimeout(handshake);
      closeSoon();
      return attachRefused(root.error);
    }
    if (root.root !== undefined && !deps.folders().some((f) => isAtOrInside(root.root!, f))) {
      clearTimeout(handshake);
      closeSoon();
      deps.log(`agent connection refused: its folder ${root.root} is not in this editor's workspace`);
      return attachRefused(`${root.root} is not inside this editor's workspace folders (${deps.folders().join(', ')})`);
    }
    clearTimeout(handshake);
    const requester = typeof params?.requester === 'string' && /^[\w.:-]{1,100}$/.test(params.requester) ? params.requester : `connection-${connection}`;
    agent = { name: agentName(params?.clientInfo), ...root, requester: `agent:${requester}` };
    deps.log(`agent connected: ${agent.name}${agent.root !== undefined ? ` (folder ${agent.root})` : ''}`);
    return { pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), version: deps.version };
  });
  conn.onRequest((method: string, params: unknown, cancel: CancellationToken) => {
    if (agent === undefined) {
      closeSoon();
      return attachRefused(`send ${ATTACH_METHOD} with the token first`);
    }
    if (method !== 'workspace/executeCommand' && method !== 'workspace/symbol') return methodNotServed(method);
    // Cancelled by the agent ($/cancelRequest, e.g. its call timed out) or by its going away: a
    // request waiting for the user (review) is withdrawn then, never applied later.
    const source = new CancellationTokenSource();
    inFlight.add(source);
    const forward = cancel.onCancellationRequested(() => source.cancel());
    if (closed) source.cancel();
    return deps.serve(agent, method, params, source.token).finally(() => {
      forward.dispose();
      inFlight.delete(source);
      source.dispose();
    });
  });
  const inFlight = new Set<CancellationTokenSource>();
  let closed = false;
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    closed = true;
    for (const source of inFlight) source.cancel();
    clearTimeout(handshake);
    conn.dispose();
    if (agent !== undefined) deps.log(`agent disconnected: ${agent.name}`);
  });
  conn.listen();
}
