// Gemini CLI's IDE companion, the part a connected CLI needs (geminiCompanion.ts listens and loads
// this at the first `initialize`, so that an editor session no Gemini CLI connects to does not load
// the MCP SDK, Hono and Node's fetch for it: about 50 ms of the first request after `initialize`).
// A session per CLI: the MCP server over Streamable HTTP, its tools (openDiff, closeDiff) and the
// context updates.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DiffAnswer } from './diffReview.js';
import { GEMINI_AGENT, GEMINI_REVIEW_MS } from './geminiCompanion.js';
import type { IdeHost } from './host.js';

/** Gemini CLI keeps the 10 newest open files (and cuts a selection at 16 KiB). */
const MAX_OPEN_FILES = 10;
const MAX_SELECTION_CHARS = 16 * 1024;

export interface Session {
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

export function openSession(host: IdeHost, sessions: Map<string, Session>): Session {
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

export function endSession(s: Session): void {
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
