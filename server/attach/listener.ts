// The editor side of attach: publishes this editls's discovery record, listens on its private socket
// (mode 0600) and serves agent connections — each must first send `editls/attach {token, clientInfo}`
// (constant-time compare; a wrong token is refused and the socket closed), then its executeCommand and
// workspace/symbol requests go to the same handlers as the editor's own. The record and socket go on exit.
import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import { createMessageConnection, StreamMessageReader, type CancellationToken } from 'vscode-languageserver/node';
import { FrameWriter } from '../protocol/frameWriter.js';
import { attachRefused, methodNotServed } from '../protocol/errors.js';
import { endpointPath, liveRecords, newToken, removeRecord, writeRecord, type DiscoveryRecord } from './records.js';

export const ATTACH_METHOD = 'editls/attach';
/** A connection that has not attached within this time is closed. */
const HANDSHAKE_MS = 5000;

export interface AttachListenerDeps {
  dir: string;
  pid: number;
  windows: boolean;
  isProcessAlive: (pid: number) => boolean;
  folders: () => string[];
  clientName: () => string;
  version: string;
  log: (message: string) => void;
  /** Serves an attached agent's request (workspace/executeCommand or workspace/symbol). */
  serve: (agent: string, method: 'workspace/executeCommand' | 'workspace/symbol', params: unknown, token: CancellationToken) => Promise<unknown>;
}

export interface AttachHandle {
  endpoint: string;
  /** Rewrites the record (the workspace folders changed). */
  republish(): void;
  /** Removes the record and the socket (synchronous: also runs on process exit). */
  close(): void;
}

export function startAttachListener(deps: AttachListenerDeps): Promise<AttachHandle> {
  // Records of processes that died without cleaning up (kill -9) go first.
  liveRecords(deps.dir, deps.isProcessAlive);
  const endpoint = endpointPath(deps.dir, deps.pid, deps.windows);
  const token = newToken();
  const startedAt = Date.now();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(deps, token, socket);
  });
  const record = (): DiscoveryRecord => ({ pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), startedAt, endpoint, token, version: deps.version });
  let closed = false;
  const handle: AttachHandle = {
    endpoint,
    republish: () => {
      if (!closed) writeRecord(deps.dir, record());
    },
    close: () => {
      if (closed) return;
      closed = true;
      removeRecord(deps.dir, deps.pid, endpoint);
      for (const s of sockets) s.destroy();
      server.close();
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
        writeRecord(deps.dir, record());
      } catch (error) {
        handle.close();
        reject(error);
        return;
      }
      resolve(handle);
    });
  });
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function tokenMatches(expected: string, given: unknown): boolean {
  // Digests have one length, so the compare is constant-time whatever the agent sent.
  return timingSafeEqual(digest(expected), digest(typeof given === 'string' ? given : ''));
}

function agentName(clientInfo: unknown): string {
  if (typeof clientInfo !== 'object' || clientInfo === null) return 'unknown agent';
  const { name, version } = clientInfo as { name?: unknown; version?: unknown };
  const n = typeof name === 'string' && name !== '' ? name.slice(0, 100) : 'unknown agent';
  return typeof version === 'string' && version !== '' ? `${n} ${version.slice(0, 50)}` : n;
}

function serveConnection(deps: AttachListenerDeps, token: string, socket: net.Socket): void {
  const conn = createMessageConnection(new StreamMessageReader(socket), new FrameWriter(socket));
  let agent: string | undefined;
  const closeSoon = () => setTimeout(() => socket.end(), 20);
  const handshake = setTimeout(() => socket.destroy(), HANDSHAKE_MS);
  handshake.unref();
  conn.onRequest(ATTACH_METHOD, (params: { token?: unknown; clientInfo?: unknown } | null): unknown => {
    if (agent !== undefined) return { pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), version: deps.version };
    if (!tokenMatches(token, params?.token)) {
      clearTimeout(handshake);
      closeSoon();
      deps.log('agent connection refused: wrong token');
      return attachRefused('wrong token: read it from the discovery record of this editls');
    }
    clearTimeout(handshake);
    agent = agentName(params?.clientInfo);
    deps.log(`agent connected: ${agent}`);
    return { pid: deps.pid, folders: deps.folders(), clientName: deps.clientName(), version: deps.version };
  });
  conn.onRequest((method: string, params: unknown, cancel: CancellationToken) => {
    if (agent === undefined) {
      closeSoon();
      return attachRefused(`send ${ATTACH_METHOD} with the token first`);
    }
    if (method === 'workspace/executeCommand' || method === 'workspace/symbol') return deps.serve(agent, method, params, cancel);
    return methodNotServed(method);
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    clearTimeout(handshake);
    conn.dispose();
    if (agent !== undefined) deps.log(`agent disconnected: ${agent}`);
  });
  conn.listen();
}
