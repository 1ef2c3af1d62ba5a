// Claude Code's IDE integration, served by the editor's editls: an MCP server over WebSocket on
// 127.0.0.1 (subprotocol `mcp`, header `x-claude-code-ide-authorization: <token>`), announced by
// `<CLAUDE_CONFIG_DIR or ~/.claude>/ide/<port>.lock`. `openDiff` (Claude's Edit or Write waiting for
// permission) becomes an editls review whose answer is `FILE_SAVED` + the text Claude then writes,
// or `DIFF_REJECTED`; `close_tab` and `closeAllDiffTabs` withdraw reviews; the last selection the
// editor showed editls goes out as `selection_changed`, a mention as `at_mentioned`.
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { newToken, tokenMatches } from '../attach/records.js';
import type { Connection, Verify } from './claudeConnection.js';
import { privateFolder, removeDiscoveryFile, sweepStale, writeDiscoveryFile } from './discoveryFile.js';
import type { IdeServerHandle } from './geminiCompanion.js';
import type { IdeHost } from './host.js';

export const CLAUDE_AGENT = 'Claude Code';
const AUTH_HEADER = 'x-claude-code-ide-authorization';
/** Connections one editls serves at once (one per running Claude Code; it reconnects at once when dropped). */
const MAX_CONNECTIONS = 16;
/**
 * How long an openDiff waits for the user in the editor. Claude Code itself waits about 28 hours
 * (MCP_TOOL_TIMEOUT) and keeps its own prompt in the terminal: past this, the review is handed back
 * to that prompt (an error answer), nothing accepted or rejected on the user's behalf.
 */
export const CLAUDE_REVIEW_MS = 60 * 60 * 1000;

export interface ClaudePlace {
  /** $CLAUDE_CONFIG_DIR if set, else ~/.claude. */
  configDir: string;
  uid: number;
  /** editls's own pid (the lock names it too, for the sweep). */
  pid: number;
  /** The editor's pid (initialize's processId): Claude Code checks it against its ancestors in an IDE's own terminal. */
  editorPid?: number;
  windows: boolean;
  isProcessAlive: (pid: number) => boolean;
}

export async function startClaudeIde(host: IdeHost, place: ClaudePlace): Promise<IdeServerHandle | { error: string }> {
  const dir = path.join(place.configDir, 'ide');
  const unsafe = privateFolder(dir, place.uid);
  if (unsafe !== undefined) return { error: `Claude Code's IDE integration not started: ${unsafe}` };
  const swept = sweepStale(dir, /^\d+\.lock$/, (_name, json) => editlsPidOf(json), place.isProcessAlive);
  if (swept > 0) host.log(`removed ${swept} Claude Code lock file${swept === 1 ? '' : 's'} left by an editls that is gone`);
  const token = newToken();
  const connections = new Set<Connection>();
  let port = 0;
  const verify: Verify = (req) => {
    const why = refuse(req, port, token);
    if (why) host.log(`Claude Code connection refused: ${why}`);
    if (why) return { code: why === 'unauthorized' ? 401 : why === 'subprotocol mcp required' || why === 'not found' ? 400 : 403, why };
    if (connections.size >= MAX_CONNECTIONS) return { code: 503, why: 'too many connections' };
    return undefined;
  };
  // ws and the MCP SDK are loaded at the first upgrade (claudeConnection.ts); until then a plain HTTP
  // server listens, answering what ws answers a request that is no upgrade.
  let loaded: typeof import('./claudeConnection.js') | undefined;
  let closed = false;
  let acceptor: Promise<ReturnType<(typeof import('./claudeConnection.js'))['webSocketAcceptor']>> | undefined;
  const httpServer = http.createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain' });
    res.end(http.STATUS_CODES[426]);
  });
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A socket that fails while the code loads is dropped (ws takes its errors over once it has it).
    socket.on('error', () => socket.destroy());
    acceptor ??= import('./claudeConnection.js').then((m) => {
      loaded = m;
      return m.webSocketAcceptor(host, { maxPayload: host.maxBodyBytes(), verify }, connections);
    });
    acceptor.then(
      // An upgrade that waited for the code while the server closed is dropped, not accepted.
      (accept) => (closed ? socket.destroy() : accept(req, socket, head)),
      (error: unknown) => {
        host.log(`Claude Code connection refused: ${error instanceof Error ? error.message : String(error)}`);
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;
  const file = path.join(dir, `${port}.lock`);
  const publish = () =>
    writeDiscoveryFile(file, {
      pid: place.editorPid ?? place.pid,
      workspaceFolders: host.folders(),
      ideName: `${host.editorName()} (editls)`,
      transport: 'ws',
      runningInWindows: place.windows,
      authToken: token,
      // Not read by Claude Code: which editls serves the port, for the sweep of files left by a killed one.
      editlsPid: place.pid,
    });
  publish();
  host.log(`Claude Code's IDE integration listening on 127.0.0.1:${port} (${file})`);
  return {
    port,
    file,
    republish: publish,
    mentionable: () => [...connections].some((c) => c.ready),
    // `at_mentioned` (0-based lines): Claude Code puts `@file#L3-5` into its prompt.
    mention: (absPath, startLine, endLine) => {
      const ready = [...connections].filter((c) => c.ready);
      for (const c of ready) void c.server.notification({ method: 'at_mentioned', params: { filePath: absPath, lineStart: startLine - 1, lineEnd: endLine - 1 } } as never).catch(() => undefined);
      return ready.length > 0;
    },
    close: () => {
      closed = true;
      removeDiscoveryFile(file);
      for (const c of connections) loaded?.endConnection(c);
      connections.clear();
      httpServer.close();
      httpServer.closeAllConnections();
    },
  };
}

function editlsPidOf(json: unknown): number | undefined {
  const pid = typeof json === 'object' && json !== null ? (json as { editlsPid?: unknown }).editlsPid : undefined;
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Why an upgrade is refused, or undefined: only this port on the loopback names (DNS rebinding), no
 * browser (a page sends an Origin; Claude Code sends none), the root path, and the token.
 */
function refuse(req: IncomingMessage, port: number, token: string): string | undefined {
  const hostHeader = req.headers.host ?? '';
  if (hostHeader !== `127.0.0.1:${port}` && hostHeader !== `localhost:${port}`) return 'wrong Host';
  if (req.headers.origin !== undefined) return 'requests from web pages are refused';
  if ((req.url ?? '/') !== '/') return 'not found';
  if (!String(req.headers['sec-websocket-protocol'] ?? '').split(',').some((p) => p.trim() === 'mcp')) return 'subprotocol mcp required';
  if (!tokenMatches(token, req.headers[AUTH_HEADER])) return 'unauthorized';
  return undefined;
}
