// Agents attached through `editls mcp` (server/attach/), served by the editor's editls: the same
// handlers, Context, locks and documents as the editor's own requests, confined to the agent's
// folder (its paths, searches and symbols see only that folder, its undo only its own changes; the
// folder must still be one the editor has open), with review mode turning its edits into previews
// the user applies or discards. Also the listener's start-up (runtime folder, record, socket) and
// `requestInfo`, the AbortSignal every request's Context carries.
import {
  MessageType,
  ResponseError,
  ShowMessageRequest,
  CancellationTokenSource,
  type CancellationToken,
  type Connection,
  type ExecuteCommandParams,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver';
import { startAttachListener, type AttachedAgent, type AttachHandle } from './attach/listener.js';
import { ensureRuntimeDir, mirrorDirPath } from './attach/runtimeDir.js';
import { reviewAgentCommand } from './attach/review.js';
import { isAtOrInside } from './core/containment.js';
import { fail } from './core/result.js';
import { executeCommand } from './handlers/executeCommand.js';
import { workspaceSymbol } from './handlers/workspaceSymbol.js';
import { toResponseError } from './protocol/errors.js';
import type { AttachHooks } from './server.js';
import type { Settings } from './settings.js';
import { createContext, type RequestInfo, type ServerState } from './workspace/context.js';
import { folderChange, type FolderWatch } from './workspace/disk/folders.js';
import type { Previews } from './workspace/editor/previews.js';
import { serving } from './workspace/timeSlice.js';
import { showDocumentQuietly, showMessageQuietly } from './protocol/quietSend.js';

/** What serving agents needs of the server (server.ts). */
export interface AgentRequestDeps {
  /** The editor's state as its own requests see it now. */
  state: () => ServerState;
  folders: () => readonly string[];
  folderWatch: FolderWatch;
  settings: () => Settings;
  /** The client supports window/showDocument. */
  showDocument: () => boolean;
  previews: Previews;
  connection: Connection;
  /** An error once `shutdown` has come, else undefined. */
  refuseAfterShutdown: () => ResponseError<unknown> | undefined;
  log: (message: string) => void;
}

export type ServeAgent = (agent: AttachedAgent, method: 'workspace/executeCommand' | 'workspace/symbol', params: unknown, token: CancellationToken) => Promise<unknown>;

/** How an attached agent's requests are served. */
export function agentRequests(deps: AgentRequestDeps): ServeAgent {
  const { connection, previews, log } = deps;
  // The agent's view of the server: its folder, its requester id; refused once the folder has moved or left the workspace.
  const agentState = (agent: AttachedAgent): ServerState | ResponseError<unknown> => {
    const base = deps.state();
    if (agent.root === undefined) return { ...base, requester: agent.requester };
    const reason = folderChange(agent.root);
    if (reason !== undefined || !deps.folderWatch.intact(deps.folders()).some((f) => isAtOrInside(agent.root!, f))) {
      const why = reason !== undefined ? `${reason} since the agent attached` : 'is no longer in the editor\'s workspace folders';
      return toResponseError(fail('outside_workspace', `the agent's folder ${agent.root} ${why}; nothing was read or changed: restart editls mcp in the folder to use`, { folder: agent.root }));
    }
    return { ...base, folders: [agent.root], requester: agent.requester, symbolScope: agent.root };
  };
  return async (agent, method, params, token) => {
    const refused = deps.refuseAfterShutdown();
    if (refused) return refused;
    const scoped = agentState(agent);
    if (scoped instanceof ResponseError) return scoped;
    if (method === 'workspace/symbol') {
      const p = (params ?? { query: '' }) as WorkspaceSymbolParams;
      return workspaceSymbol(createContext(scoped, requestInfo(token, undefined)), { query: p.query ?? '' });
    }
    const p = { ...((params ?? { command: '' }) as ExecuteCommandParams) };
    delete p.workDoneToken; // the agent cannot see $/progress; editls reports progress to the editor itself
    const run = (q: ExecuteCommandParams) => {
      const now = agentState(agent);
      return now instanceof ResponseError ? Promise.resolve(now) : serving(() => executeCommand(createContext(now, requestInfo(token, undefined)), q));
    };
    const settings = deps.settings();
    if (settings.agentEdits === 'apply') return run(p);
    return reviewAgentCommand(
      {
        run,
        discard: (id) => {
          const now = agentState(agent);
          const base = now instanceof ResponseError ? deps.state() : now;
          return executeCommand(createContext(base, { signal: new AbortController().signal }), { command: 'editls.discardPreview', arguments: [{ id }] });
        },
        ask: askUser(connection),
        previewEnded: (id) => previews.ended(id),
        previewStat: (id) => previews.stat(id),
        tellUser: (message) => showMessageQuietly(connection, MessageType.Info, message),
        signal: requestInfo(token, undefined).signal,
        undoTarget: async (args) => {
          const now = agentState(agent);
          if (now instanceof ResponseError) return undefined;
          const ctx = createContext(now, requestInfo(token, undefined));
          let target: string | undefined;
          if (typeof args.path === 'string') {
            const resolved = await ctx.resolvePath(args.path);
            if (!resolved.ok) return undefined;
            target = resolved.absPath;
          }
          return ctx.journal.latest(target)?.command;
        },
        showDocument: (uri) => {
          if (deps.showDocument()) showDocumentQuietly(connection, uri);
        },
        timeoutMs: settings.reviewTimeoutMs,
        log,
      },
      p,
      agent.name,
    );
  };
}

/**
 * Starts the attach listener: the runtime folder (and a copy of the record where an agent without
 * XDG_RUNTIME_DIR looks), the record and the socket. undefined, with a warning, when agents cannot
 * attach (editls mcp then works headless).
 */
export async function startAgentListener(
  place: AttachHooks,
  o: { isProcessAlive: (pid: number) => boolean; folders: () => string[]; clientName: () => string; serve: ServeAgent; version: string; log: (m: string) => void; warn: (m: string) => void },
): Promise<AttachHandle | undefined> {
  const dir = ensureRuntimeDir({ xdgRuntimeDir: place.xdgRuntimeDir, tmpdir: place.tmpdir, uid: place.uid });
  if ('error' in dir) {
    o.warn(`agents cannot attach (editls mcp works headless): ${dir.error}`);
    return undefined;
  }
  const mirrors: string[] = [];
  if (mirrorDirPath({ xdgRuntimeDir: place.xdgRuntimeDir, tmpdir: place.tmpdir, uid: place.uid }) !== undefined) {
    const mirror = ensureRuntimeDir({ xdgRuntimeDir: undefined, tmpdir: place.tmpdir, uid: place.uid });
    if ('dir' in mirror) mirrors.push(mirror.dir);
    else o.log(`no copy of the discovery record for agents without XDG_RUNTIME_DIR: ${mirror.error}`);
  }
  try {
    const handle = await startAttachListener({
      dir: dir.dir,
      mirrors,
      pid: place.pid,
      windows: place.windows,
      isProcessAlive: o.isProcessAlive,
      folders: o.folders,
      clientName: o.clientName,
      version: o.version,
      log: o.log,
      serve: o.serve,
    });
    place.onExit(() => handle.close());
    return handle;
  } catch (error) {
    o.warn(`agents cannot attach (editls mcp works headless): ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * window/showMessageRequest with `actions`: the title chosen, or null. Cancelled ($/cancelRequest)
 * when `signal` aborts (the review is over without its answer): a client may close the prompt.
 */
export function askUser(connection: Connection): (message: string, actions: string[], signal: AbortSignal) => Promise<string | null> {
  return async (message, actions, signal) => {
    const source = new CancellationTokenSource();
    signal.addEventListener('abort', () => source.cancel(), { once: true });
    const answer = await connection.sendRequest(ShowMessageRequest.type, { type: MessageType.Info, message, actions: actions.map((title) => ({ title })) }, source.token);
    return answer?.title ?? null;
  };
}

/** An AbortSignal that follows the request's CancellationToken. */
export function requestInfo(token: CancellationToken, workDoneToken: string | number | undefined): RequestInfo {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return workDoneToken === undefined ? { signal: controller.signal } : { signal: controller.signal, workDoneToken };
}
