// Gemini CLI's IDE companion, served by the editor's editls: an MCP server over Streamable HTTP on
// 127.0.0.1 (path /mcp, `Authorization: Bearer <token>`), announced by
// `<tmpdir>/gemini/ide/gemini-ide-server-<pid>-<port>.json`. `openDiff` answers at once and becomes
// an editls review (diffReview.ts); its outcome goes back as `ide/diffAccepted` (with the text the
// CLI then writes) or `ide/diffRejected`. `closeDiff` (the user answered in the terminal) withdraws
// the review and returns the proposed text. The open files and the last selection go out as
// `ide/contextUpdate`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { newToken, tokenMatches } from '../attach/records.js';
import { privateFolder, removeDiscoveryFile, sweepStale, writeDiscoveryFile } from './discoveryFile.js';
import type { Session } from './geminiSession.js';
import type { IdeHost } from './host.js';

export const GEMINI_AGENT = 'Gemini CLI';
/** Sessions one editls serves at once (one per running CLI; a CLI that restarts opens a new one). */
const MAX_SESSIONS = 16;
/** How long a review waits in the editor before the CLI's own prompt in the terminal is left to decide (it has no limit). */
export const GEMINI_REVIEW_MS = 60 * 60 * 1000;

export interface GeminiPlace {
  /** os.tmpdir() as the CLI will see it (TMPDIR). */
  tmpdir: string;
  uid: number;
  pid: number;
  isProcessAlive: (pid: number) => boolean;
}

export interface IdeServerHandle {
  port: number;
  /** The discovery file. */
  file: string;
  /** Rewrites the discovery file (the folders changed). */
  republish(): void;
  /** Whether a connected agent takes a mention of lines (Claude Code does; Gemini CLI reads the selection from its context). */
  mentionable(): boolean;
  /** Sends lines (1-based) of a file to the connected agents; false when none took it. */
  mention(absPath: string, startLine: number, endLine: number): boolean;
  /** Ends every session (their reviews withdrawn), stops listening, removes the file (synchronous part first: also runs at exit). */
  close(): void;
}

export async function startGeminiCompanion(host: IdeHost, place: GeminiPlace): Promise<IdeServerHandle | { error: string }> {
  const parent = path.join(place.tmpdir, 'gemini');
  const dir = path.join(parent, 'ide');
  const unsafe = privateFolder(parent, place.uid) ?? privateFolder(dir, place.uid);
  if (unsafe !== undefined) return { error: `Gemini CLI's IDE companion not started: ${unsafe}` };
  const swept = sweepStale(dir, /^gemini-ide-server-\d+-\d+\.json$/, (name, json) => (isOurs(json) ? Number(/^gemini-ide-server-(\d+)-/.exec(name)![1]) : undefined), place.isProcessAlive);
  if (swept > 0) host.log(`removed ${swept} Gemini CLI discovery file${swept === 1 ? '' : 's'} left by an editls that is gone`);
  const token = newToken();
  const sessions = new Map<string, Session>();
  let port = 0;

  // The sessions' code (the MCP SDK, Hono, Node's fetch) is loaded at the first initialize.
  let loaded: typeof import('./geminiSession.js') | undefined;
  let closed = false;
  let loading: Promise<typeof import('./geminiSession.js')> | undefined;
  const sessionCode = () => (loading ??= import('./geminiSession.js').then((m) => (loaded = m)));
  const httpServer = http.createServer((req, res) => void serve(req, res));
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refusal = refuse(req, port, token);
    if (refusal) return answer(res, refusal.status, refusal.message);
    const body = await readBody(req, host.maxBodyBytes());
    if (body === TOO_LARGE) return answer(res, 413, 'request body too large');
    if (body === BAD_JSON) return answer(res, 400, 'request body is not JSON');
    const id = req.headers['mcp-session-id'];
    let session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!session) {
      if (req.method !== 'POST' || !isInitialize(body)) return answer(res, typeof id === 'string' ? 404 : 400, typeof id === 'string' ? 'unknown session' : 'no session: initialize first');
      if (sessions.size >= MAX_SESSIONS) return answer(res, 503, `editls serves at most ${MAX_SESSIONS} Gemini CLI sessions at once`);
      let code: typeof import('./geminiSession.js');
      try {
        code = await sessionCode();
      } catch (error) {
        // As claudeCode.ts does: said in the log and to the CLI, never an unanswered request.
        host.log(`Gemini CLI session refused: ${error instanceof Error ? error.message : String(error)}`);
        return answer(res, 500, 'editls could not load its Gemini CLI companion');
      }
      if (closed) return answer(res, 503, 'editls is closing its Gemini CLI companion');
      // Another request may have opened the session space meanwhile: counted again.
      if (sessions.size >= MAX_SESSIONS) return answer(res, 503, `editls serves at most ${MAX_SESSIONS} Gemini CLI sessions at once`);
      session = code.openSession(host, sessions);
      await session.server.connect(session.transport);
    }
    await session.transport.handleRequest(req, res, body);
  };

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;
  const file = path.join(dir, `gemini-ide-server-${place.pid}-${port}.json`);
  const publish = () =>
    writeDiscoveryFile(file, {
      port,
      workspacePath: host.folders().join(path.delimiter),
      authToken: token,
      ideInfo: { name: 'editls', displayName: `${host.editorName()} (editls)` },
    });
  publish();
  host.log(`Gemini CLI's IDE companion listening on 127.0.0.1:${port} (${file})`);
  return {
    port,
    file,
    republish: publish,
    mentionable: () => false,
    mention: () => false,
    close: () => {
      closed = true;
      removeDiscoveryFile(file);
      for (const s of sessions.values()) loaded?.endSession(s);
      sessions.clear();
      httpServer.close();
      httpServer.closeAllConnections();
    },
  };
}

function isOurs(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { ideInfo?: { name?: unknown } }).ideInfo?.name === 'editls';
}

function isInitialize(body: unknown): boolean {
  const one = (m: unknown) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(one) : one(body);
}

/**
 * Why a request is refused before anything is read, or undefined: only this port on the loopback
 * names (a page that rebinds a DNS name to 127.0.0.1 sends its own Host), no browser (a page sends
 * an Origin; the CLI sends none), the one path, and the token.
 */
function refuse(req: http.IncomingMessage, port: number, token: string): { status: number; message: string } | undefined {
  const hostHeader = req.headers.host ?? '';
  if (hostHeader !== `127.0.0.1:${port}` && hostHeader !== `localhost:${port}`) return { status: 403, message: 'wrong Host' };
  if (req.headers.origin !== undefined) return { status: 403, message: 'requests from web pages are refused' };
  const url = req.url ?? '';
  if (url !== '/mcp' && !url.startsWith('/mcp?')) return { status: 404, message: 'not found' };
  const auth = req.headers.authorization ?? '';
  if (!tokenMatches(token, auth.startsWith('Bearer ') ? auth.slice(7) : '')) return { status: 401, message: 'unauthorized' };
  return undefined;
}

const TOO_LARGE = Symbol('too large');
const BAD_JSON = Symbol('not JSON');

async function readBody(req: http.IncomingMessage, max: number): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      req.resume();
      return TOO_LARGE;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return BAD_JSON;
  }
}

function answer(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
