// Gemini CLI's IDE companion, served by the editor's editls: an MCP server over Streamable HTTP on
// 127.0.0.1 (path /mcp, `Authorization: Bearer <token>`), announced by
// `<tmpdir>/gemini/ide/gemini-ide-server-<pid>-<port>.json`. `openDiff` answers at once and becomes
// an editls review (diffReview.ts); its outcome goes back as `ide/diffAccepted` (with the text the
// CLI then writes) or `ide/diffRejected`. `closeDiff` (the user answered in the terminal) withdraws
// the review and returns the proposed text. The open files and the last selection go out as
// `ide/contextUpdate`.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { newToken, tokenMatches } from '../attach/records.js';
import type { DiffAnswer } from './diffReview.js';
import { privateFolder, removeDiscoveryFile, sweepStale, writeDiscoveryFile } from './discoveryFile.js';
import type { IdeHost } from './host.js';

export const GEMINI_AGENT = 'Gemini CLI';
/** Sessions one editls serves at once (one per running CLI; a CLI that restarts opens a new one). */
const MAX_SESSIONS = 16;
/** Gemini CLI keeps the 10 newest open files (and cuts a selection at 16 KiB). */
const MAX_OPEN_FILES = 10;
const MAX_SELECTION_CHARS = 16 * 1024;
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

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Proposed texts of the reviews still open, by file path (closeDiff returns them). */
  proposed: Map<string, string>;
  /** Paths whose review the CLI closed itself (closeDiff): their outcome is not sent. */
  closedByCli: Set<string>;
  unsubscribe: () => void;
  reviews: ReturnType<IdeHost['reviews']>;
  abort: AbortController;
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
      session = openSession(host, sessions);
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
      removeDiscoveryFile(file);
      for (const s of sessions.values()) endSession(s);
      sessions.clear();
      httpServer.close();
      httpServer.closeAllConnections();
    },
  };
}

function openSession(host: IdeHost, sessions: Map<string, Session>): Session {
  const server = new Server(
    { name: 'editls', version: '0.1.0' },
    // Only used for elicitation, which editls never does (see mcp/mcpServer.ts).
    { capabilities: { tools: {} }, jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) } },
  );
  const session: Session = {
    server,
    proposed: new Map(),
    closedByCli: new Set(),
    reviews: host.reviews(GEMINI_AGENT),
    abort: new AbortController(),
    unsubscribe: () => undefined,
    transport: new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
    }),
  };
  session.transport.onclose = () => {
    const id = session.transport.sessionId;
    if (id !== undefined) sessions.delete(id);
    endSession(session);
  };
  const notify = (method: string, params: Record<string, unknown>) =>
    server.notification({ method, params } as never).catch((error: unknown) => host.log(`Gemini CLI: ${method} not sent: ${error instanceof Error ? error.message : String(error)}`));
  // The CLI opens its event stream after `initialized`, and lists the tools after that: the context goes out at both.
  const sendContext = () => void contextUpdate(host).then((params) => notify('ide/contextUpdate', params));
  server.oninitialized = () => {
    sendContext();
    session.unsubscribe = host.onContextChange(sendContext);
  };
  let listed = false;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    setTimeout(sendContext, 0);
    // The CLI reviews in the IDE once it has seen openDiff and closeDiff listed: connected from then on.
    if (!listed) {
      listed = true;
      const v = server.getClientVersion();
      host.tell(`editls: ${GEMINI_AGENT} connected (${v?.name ?? 'client'} ${v?.version ?? ''}); its edits are reviewed here`.replace(' )', ')'), 'info');
    }
    return { tools: TOOLS };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case 'openDiff': {
        const { filePath, newContent } = args;
        if (typeof filePath !== 'string' || typeof newContent !== 'string') return toolError('openDiff takes filePath and newContent (strings)');
        session.proposed.set(filePath, newContent);
        session.closedByCli.delete(filePath);
        void session.reviews.review(filePath, filePath, newContent, session.abort.signal, GEMINI_REVIEW_MS).then((outcome) => {
          if (session.proposed.get(filePath) === newContent) session.proposed.delete(filePath);
          if (session.closedByCli.delete(filePath)) return; // the user answered in the terminal
          const sent = outcomeNotification(host, outcome, filePath);
          if (sent) void notify(sent.method, sent.params);
        });
        // Answered at once: the outcome goes out as a notification (an error here breaks the CLI's prompt).
        return { content: [] };
      }
      case 'closeDiff': {
        const { filePath } = args;
        if (typeof filePath !== 'string') return toolError('closeDiff takes filePath (a string)');
        const content = session.proposed.get(filePath) ?? null;
        session.proposed.delete(filePath);
        if (session.reviews.keysFor(filePath).length > 0) {
          session.closedByCli.add(filePath);
          session.reviews.close(filePath, 'the user answered in Gemini CLI');
        }
        // The CLI reads this text as JSON: {"content": <the file's final text, or null>}.
        return { content: [{ type: 'text' as const, text: JSON.stringify({ content }) }] };
      }
      default:
        return toolError(`unknown tool ${request.params.name}; editls serves openDiff and closeDiff`);
    }
  });
  return session;
}

function endSession(s: Session): void {
  s.unsubscribe();
  s.abort.abort();
  s.reviews.closeAll('Gemini CLI went away');
  void s.transport.close().catch(() => undefined);
}

/**
 * What the CLI hears of a review: accepted (it writes the text) or rejected; nothing when the editor
 * could not show it or nobody answered there — the CLI's own prompt in the terminal then decides
 * (an error answer to openDiff breaks that prompt in this CLI, so none is sent).
 */
function outcomeNotification(host: IdeHost, outcome: DiffAnswer, filePath: string): { method: string; params: Record<string, unknown> } | undefined {
  switch (outcome.kind) {
    case 'accepted':
      return { method: 'ide/diffAccepted', params: { filePath, content: outcome.text } };
    case 'refused':
      host.tell(`${GEMINI_AGENT}'s edit to ${filePath} is not shown for review: ${outcome.why}; answer it in Gemini CLI`);
      return undefined;
    case 'rejected':
      if (outcome.how === 'timeout' || outcome.how === 'withdrawn' || outcome.how === 'closed') return undefined;
      if (outcome.how === 'expired') host.tell(`${GEMINI_AGENT}'s edit to ${filePath} was rejected: ${outcome.why}`);
      return { method: 'ide/diffRejected', params: { filePath } };
  }
}

const TOOLS = [
  {
    name: 'openDiff',
    description: 'Shows the proposed new text of a file in the editor for the user to accept or reject; the outcome is sent as ide/diffAccepted or ide/diffRejected.',
    inputSchema: { type: 'object' as const, properties: { filePath: { type: 'string' }, newContent: { type: 'string' } }, required: ['filePath', 'newContent'] },
  },
  {
    name: 'closeDiff',
    description: 'Withdraws the review of a file (the user answered in the terminal) and returns {"content": <proposed text or null>} as JSON text.',
    inputSchema: { type: 'object' as const, properties: { filePath: { type: 'string' }, suppressNotification: { type: 'boolean' } }, required: ['filePath'] },
  },
];

function toolError(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true };
}

/** `ide/contextUpdate`'s params: the newest open files, the first active with the last cursor or selection in it (1-based). */
async function contextUpdate(host: IdeHost): Promise<Record<string, unknown>> {
  const files = (await host.openFiles()).slice(0, MAX_OPEN_FILES);
  const selection = host.selection();
  const openFiles = files.map((f, i) => {
    const entry: Record<string, unknown> = { path: f.path, timestamp: f.timestamp };
    if (i === 0) {
      entry.isActive = true;
      if (selection && selection.path === f.path) {
        entry.cursor = { line: selection.end.line + 1, character: selection.end.character + 1 };
        if (selection.text !== '') entry.selectedText = selection.text.slice(0, MAX_SELECTION_CHARS);
      }
    }
    return entry;
  });
  // isTrusted is left out: editls does not know whether the user trusts the folder (the CLI decides).
  return { workspaceState: { openFiles } };
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
