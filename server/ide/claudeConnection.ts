// Claude Code's IDE integration, the part a connected Claude Code needs (claudeCode.ts listens and
// loads this at the first WebSocket upgrade, so that an editor session no Claude Code connects to
// does not load ws and the MCP SDK for it: part of about 50 ms of the first request after
// `initialize`). The WebSocket handshake (ws, `noServer`), then one MCP server per connection: its
// tools (openDiff, close_tab, the editor's state) and the selection notifications.
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { CLAUDE_AGENT, CLAUDE_REVIEW_MS } from './claudeCode.js';
import type { DiffAnswer } from './diffReview.js';
import type { EditorSelection, IdeHost } from './host.js';
import { WebSocketTransport } from './wsTransport.js';

export interface Connection {
  /** Set once the client said `initialized`: notifications may go out. */
  ready: boolean;
  server: Server;
  socket: WebSocket;
  reviews: ReturnType<IdeHost['reviews']>;
  abort: AbortController;
  unsubscribe: () => void;
}

/** Why an upgrade is refused (the HTTP status and reason), or undefined to accept it (claudeCode.ts). */
export type Verify = (req: IncomingMessage) => { code: number; why: string } | undefined;

/**
 * Completes (or refuses) WebSocket upgrades for the server claudeCode.ts listens with: subprotocol
 * `mcp`, frames up to `maxPayload` bytes; each accepted socket is a Connection in `connections`.
 */
export function webSocketAcceptor(host: IdeHost, options: { maxPayload: number; verify: Verify }, connections: Set<Connection>): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload,
    handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
      const refused = options.verify(info.req);
      if (refused) done(false, refused.code, refused.why);
      else done(true);
    },
  });
  return (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => void connections.add(openConnection(host, ws, connections)));
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

export function endConnection(c: Connection): void {
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
