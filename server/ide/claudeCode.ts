// Claude Code's IDE integration, served by the editor's editls: an MCP server over WebSocket on
// 127.0.0.1 (subprotocol `mcp`, header `x-claude-code-ide-authorization: <token>`), announced by
// `<CLAUDE_CONFIG_DIR or ~/.claude>/ide/<port>.lock`. `openDiff` (Claude's Edit or Write waiting for
// permission) becomes an editls review whose answer is `FILE_SAVED` + the text Claude then writes,
// or `DIFF_REJECTED`; `close_tab` and `closeAllDiffTabs` withdraw reviews; the last selection the
// editor showed editls goes out as `selection_changed`, a mention as `at_mentioned`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebSocketServer, type WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import { newToken, tokenMatches } from '../attach/records.js';
import type { DiffAnswer } from './diffReview.js';
import { privateFolder, removeDiscoveryFile, sweepStale, writeDiscoveryFile } from './discoveryFile.js';
import type { IdeServerHandle } from './geminiCompanion.js';
import type { EditorSelection, IdeHost } from './host.js';
import { WebSocketTransport } from './wsTransport.js';

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

interface Connection {
  /** Set once the client said `initialized`: notifications may go out. */
  ready: boolean;
  server: Server;
  socket: WebSocket;
  reviews: ReturnType<IdeHost['reviews']>;
  abort: AbortController;
  unsubscribe: () => void;
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
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    maxPayload: host.maxBodyBytes(),
    handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
      const why = refuse(info.req, port, token);
      if (why) host.log(`Claude Code connection refused: ${why}`);
      if (why) done(false, why === 'unauthorized' ? 401 : why === 'subprotocol mcp required' || why === 'not found' ? 400 : 403, why);
      else if (connections.size >= MAX_CONNECTIONS) done(false, 503, 'too many connections');
      else done(true);
    },
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', () => resolve());
    wss.once('error', reject);
  });
  port = (wss.address() as { port: number }).port;
  wss.on('connection', (socket) => {
    const conn = openConnection(host, socket, connections);
    connections.add(conn);
  });
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
      removeDiscoveryFile(file);
      for (const c of connections) endConnection(c);
      connections.clear();
      wss.close();
    },
  };
}

function openConnection(host: IdeHost, socket: WebSocket, connections: Set<Connection>): Connection {
  const server = new Server(
    { name: 'editls', version: '0.1.0' },
    { capabilities: { tools: {} }, jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) } },
  );
  const conn: Connection = { ready: false, server, socket, reviews: host.reviews(CLAUDE_AGENT), abort: new AbortController(), unsubscribe: () => undefined };
  const transport = new WebSocketTransport(socket);
  transport.onclose = () => {
    connections.delete(conn);
    endConnection(conn);
  };
  let lastSelection = '';
  const sendSelection = () => {
    const params = selectionParams(host.selection());
    if (params === undefined) return;
    const key = JSON.stringify(params);
    if (key === lastSelection) return;
    lastSelection = key;
    void server.notification({ method: 'selection_changed', params } as never).catch(() => undefined);
  };
  server.oninitialized = () => {
    conn.ready = true;
    const v = server.getClientVersion();
    host.tell(`editls: ${CLAUDE_AGENT} connected (${v?.name ?? 'client'} ${v?.version ?? ''}); its edits are reviewed here`.replace(' )', ')'), 'info');
    sendSelection();
    conn.unsubscribe = host.onContextChange(sendSelection);
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case 'openDiff': {
        const file = typeof args.old_file_path === 'string' ? args.old_file_path : args.new_file_path;
        const { new_file_contents: text, tab_name: tab } = args;
        if (typeof file !== 'string' || typeof text !== 'string') return toolError('openDiff takes old_file_path (or new_file_path) and new_file_contents');
        const key = typeof tab === 'string' && tab !== '' ? tab : file;
        const signal = AbortSignal.any([extra.signal, conn.abort.signal]);
        const answer = await conn.reviews.review(key, file, text, signal, CLAUDE_REVIEW_MS);
        return diffResult(host, answer, file);
      }
      case 'close_tab': {
        // Claude Code sends it after every openDiff and when the user answered in the terminal.
        if (typeof args.tab_name === 'string') conn.reviews.close(args.tab_name, 'the user answered in Claude Code');
        return text('TAB_CLOSED');
      }
      case 'closeAllDiffTabs': {
        const n = conn.reviews.closeAll('Claude Code closed all its diffs');
        return text(`CLOSED_${n}_DIFF_TABS`);
      }
      case 'getDiagnostics':
        // editls checks no language: the editor's other servers' diagnostics never reach it (docs/agents.md).
        return text(JSON.stringify([]));
      case 'getWorkspaceFolders': {
        const folders = host.folders();
        return json({ success: true, folders: folders.map((f) => ({ name: path.basename(f), uri: pathToFileURL(f).href, path: f })), rootPath: folders[0] ?? null });
      }
      case 'getOpenEditors': {
        const files = await host.openFiles();
        return json({ tabs: await Promise.all(files.map(async (f, i) => ({ uri: f.uri, isActive: i === 0, label: path.basename(f.path), languageId: f.languageId, isDirty: (await host.dirty(f.path)) === true }))) });
      }
      case 'checkDocumentDirty': {
        if (typeof args.filePath !== 'string') return toolError('checkDocumentDirty takes filePath');
        const dirty = await host.dirty(args.filePath);
        return json(dirty === undefined ? { success: false, message: `Document not open: ${args.filePath}` } : { success: true, filePath: args.filePath, isDirty: dirty, isUntitled: false });
      }
      case 'saveDocument':
        // A language server cannot save a buffer: the editor has no request for it.
        return json({ success: false, message: `editls cannot save documents in the editor; save ${String(args.filePath ?? 'it')} there` });
      case 'openFile': {
        if (typeof args.filePath !== 'string') return toolError('openFile takes filePath');
        const range = await findRange(host, args.filePath, args.startText, args.endText, args.selectToEndOfLine === true);
        const shown = await host.showFile(args.filePath, range);
        return shown ? text(`Opened file: ${args.filePath}`) : json({ success: false, message: `the editor did not open ${args.filePath} (outside the workspace, or it cannot show documents for editls)` });
      }
      case 'getCurrentSelection':
      case 'getLatestSelection': {
        const s = host.selection();
        return json(s ? { success: true, text: s.text, filePath: s.path, fileUrl: s.uri, selection: { start: s.start, end: s.end, isEmpty: s.text === '' } } : { success: false, message: 'No selection available' });
      }
      default:
        return toolError(`unknown tool ${request.params.name}`);
    }
  });
  void server.connect(transport);
  return conn;
}

function endConnection(c: Connection): void {
  c.unsubscribe();
  c.abort.abort();
  c.reviews.closeAll('Claude Code went away');
  c.socket.terminate();
}

/** How Claude Code reads openDiff's answer: FILE_SAVED + text (it writes it), DIFF_REJECTED, or an error (its own prompt decides). */
function diffResult(host: IdeHost, answer: DiffAnswer, file: string) {
  switch (answer.kind) {
    case 'accepted':
      return { content: [{ type: 'text' as const, text: 'FILE_SAVED' }, { type: 'text' as const, text: answer.text }] };
    case 'rejected':
      if (answer.how === 'timeout') return toolError(`not answered in the editor: ${answer.why}; answer in Claude Code`);
      if (answer.how === 'expired') host.tell(`${CLAUDE_AGENT}'s edit to ${file} was rejected: ${answer.why}`);
      // Never TAB_CLOSED: Claude Code takes it as "accepted as proposed".
      return { content: [{ type: 'text' as const, text: 'DIFF_REJECTED' }, { type: 'text' as const, text: answer.why }] };
    case 'refused':
      host.tell(`${CLAUDE_AGENT}'s edit to ${file} is not shown for review: ${answer.why}; answer it in Claude Code`);
      return toolError(answer.why);
  }
}

/** `selection_changed`'s params: 0-based positions, the selected text, the file. */
function selectionParams(s: EditorSelection | undefined): Record<string, unknown> | undefined {
  if (!s) return undefined;
  return { text: s.text, filePath: s.path, fileUrl: s.uri, selection: { start: s.start, end: s.end, isEmpty: s.text === '' } };
}

/** openFile's startText / endText: the range from the first startText to the first endText after it (0-based). */
async function findRange(host: IdeHost, file: string, startText: unknown, endText: unknown, toEndOfLine: boolean) {
  if (typeof startText !== 'string' || startText === '') return undefined;
  const content = await host.readText(file);
  if (content === undefined) return undefined;
  const start = content.indexOf(startText);
  if (start < 0) return undefined;
  let end = start + startText.length;
  if (typeof endText === 'string' && endText !== '') {
    const at = content.indexOf(endText, start);
    if (at >= 0) end = at + endText.length;
  }
  if (toEndOfLine) {
    const nl = content.indexOf('\n', end);
    end = nl < 0 ? content.length : nl;
  }
  return { start: position(content, start), end: position(content, end) };
}

function position(content: string, offset: number): { line: number; character: number } {
  const before = content.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

const noArgs = { type: 'object' as const, properties: {} };
const TOOLS = [
  { name: 'openDiff', description: "Shows Claude Code's proposed text of a file in the editor for the user to accept (FILE_SAVED + the text) or reject (DIFF_REJECTED).", inputSchema: { type: 'object' as const, properties: { old_file_path: { type: 'string' }, new_file_path: { type: 'string' }, new_file_contents: { type: 'string' }, tab_name: { type: 'string' } }, required: ['new_file_contents'] } },
  { name: 'close_tab', description: 'Withdraws the review with this tab name.', inputSchema: { type: 'object' as const, properties: { tab_name: { type: 'string' } }, required: ['tab_name'] } },
  { name: 'closeAllDiffTabs', description: "Withdraws every review of this connection.", inputSchema: noArgs },
  { name: 'getDiagnostics', description: 'Diagnostics editls knows of: none (editls checks no language); an empty list.', inputSchema: { type: 'object' as const, properties: { uri: { type: 'string' } } } },
  { name: 'getWorkspaceFolders', description: "The editor's workspace folders.", inputSchema: noArgs },
  { name: 'getOpenEditors', description: 'The documents open in the editor, the one changed last first (active).', inputSchema: noArgs },
  { name: 'checkDocumentDirty', description: 'Whether an open document differs from the file on disk.', inputSchema: { type: 'object' as const, properties: { filePath: { type: 'string' } }, required: ['filePath'] } },
  { name: 'saveDocument', description: 'Not possible for a language server: answers success false.', inputSchema: { type: 'object' as const, properties: { filePath: { type: 'string' } }, required: ['filePath'] } },
  { name: 'openFile', description: 'Shows a file in the editor (window/showDocument), selecting from startText to endText when given.', inputSchema: { type: 'object' as const, properties: { filePath: { type: 'string' }, startText: { type: 'string' }, endText: { type: 'string' }, selectToEndOfLine: { type: 'boolean' }, preview: { type: 'boolean' }, makeFrontmost: { type: 'boolean' } }, required: ['filePath'] } },
  { name: 'getCurrentSelection', description: 'The last selection the editor showed editls (a code action request).', inputSchema: noArgs },
  { name: 'getLatestSelection', description: 'The last selection the editor showed editls (a code action request).', inputSchema: noArgs },
];

function text(t: string) {
  return { content: [{ type: 'text' as const, text: t }] };
}

function json(value: unknown) {
  return text(JSON.stringify(value));
}

function toolError(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true };
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
