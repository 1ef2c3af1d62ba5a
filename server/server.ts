// Wires the LSP connection: the client's session (clientSession.ts) and folders (workspaceFolders.ts),
// the services every request shares (documents, locks, previews, progress, the symbol index, the
// undo journal), document sync, configuration and folder changes, and one line per request handler.
import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  ExecuteCommandRequest,
  CodeActionRequest,
  MessageType,
  type ExecuteCommandParams,
  ResponseError,
  DidChangeWorkspaceFoldersNotification,
  type Connection,
  type DidChangeWorkspaceFoldersParams,
  type InitializeParams,
  type InitializeResult,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  WorkspaceSymbolRequest,
  type WorkspaceSymbolParams,
  ApplyWorkspaceEditRequest,
  CancellationTokenSource,
} from 'vscode-languageserver';
import type { AttachHandle } from './attach/listener.js';
import { agentRequests, requestInfo, startAgentListener } from './agentRequests.js';
import { ideServers, type IdeServers } from './ideServers.js';
import { answerInitialize, sessionStart, type SessionStart } from './sessionStart.js';
import { SERVER_VERSION } from './version.js';
import { mergeSettings } from './settingsSchema.js';
import { executeCommand } from './handlers/executeCommand.js';
import { codeAction } from './handlers/codeAction.js';
import { createContext, type ServerState } from './workspace/context.js';
import { KeyedMutex } from './workspace/keyedMutex.js';
import { OpenDocuments } from './workspace/editor/openDocuments.js';
import { Previews } from './workspace/editor/previews.js';
import { sweepStrayTemps } from './workspace/strayTemps.js';
import { sweepBufferCopies } from './workspace/search/bufferCopies.js';
import { searchFolderAhead } from './workspace/search/ripgrepSearch.js';
import { ripgrepPath } from './workspace/search/ripgrep.js';
import { RESPECT_GITIGNORE_BY_DEFAULT } from './commands/searchFiles.js';
import { serving, whenIdle } from './workspace/timeSlice.js';
import { FolderWatch } from './workspace/disk/folders.js';
import { workspaceSymbol } from './handlers/workspaceSymbol.js';
import { INDEXED_EXTENSIONS } from './core/symbols/languages.js';
import { ProgressReporter } from './workspace/progress.js';
import { SymbolIndex } from './workspace/symbols/symbolIndex.js';
import type { RipgrepToFile } from './workspace/search/ripgrepToFile.js';
import { UndoJournal } from './workspace/editor/undoJournal.js';
import { requestOrReject, sendQuietly, showMessageQuietly } from './protocol/quietSend.js';

export { SERVER_VERSION };

/** Who the editor's own requests are, in the undo journal; each attached agent is `agent:<id>`. */
const EDITOR_REQUESTER = 'editor';
/** The stray-temp sweep waits for the index build, then for this long without a request (at most SWEEP_LATEST_MS). */
const SWEEP_QUIET_MS = 1000;
const SWEEP_LATEST_MS = 30_000;

export interface ServerHooks {
  /** Called with the client's processId from initialize, so main can exit when it dies (startServer). */
  watchClientProcess?: (pid: number) => void;
  /**
   * The symbol index build's ripgrep, started once `initialize` was answered (main.ts): the first
   * build reads it if its arguments are the build's (symbolIndex.ts), else stops it; one the build
   * has not taken 30 s after this session started is stopped.
   */
  indexAhead?: RipgrepToFile;
  /**
   * While messages written to the client are still on their way out, a promise of the moment they
   * have left (FrameWriter.pendingWrites); background work that follows an answer waits for it.
   */
  pendingWrites?: () => Promise<void> | undefined;
  /** Called once `initialize` is answered (on a later turn of the event loop): work that need not delay the answer. */
  afterInitialize?: () => void;
  /** Whether a process is alive (to keep another live editls's temp files during the start-up sweep). */
  isProcessAlive?: (pid: number) => boolean;
  /** Called when the client sends `shutdown` (main then exits 0 when stdin ends). */
  onShutdown?: () => void;
  /** Called on the `exit` notification (main exits there and then; otherwise vscode-languageserver does). */
  onExit?: () => void;
  /** Publish a discovery record and serve agents (`editls mcp`) on a private socket; absent: no attach. */
  attach?: AttachHooks;
  /**
   * The client names its folders by real paths it holds (editls mcp's headless session: the agent's
   * folder, resolved once at start): they are taken as they are, not resolved again, so a folder
   * swapped for a link in between is refused like any folder changed since, never followed.
   */
  foldersAreReal?: boolean;
}

export interface AttachHooks {
  /** $XDG_RUNTIME_DIR (if set), the OS temp folder and the user id: where records and sockets go. */
  xdgRuntimeDir: string | undefined;
  tmpdir: string;
  /** $CLAUDE_CONFIG_DIR, else ~/.claude: where Claude Code looks for IDE lock files (ide/). */
  claudeConfigDir: string;
  uid: number;
  pid: number;
  windows: boolean;
  /** Runs `cleanup` (synchronous) when the process exits, whatever the reason. */
  onExit: (cleanup: () => void) => void;
}

/**
 * A whole session on `connection`, in-process (editls mcp's headless one): answers `initialize`, then
 * serves. `stop` does what `shutdown` does, without a message: for the owner about to dispose the
 * connection, so that the session's own work (index build, sweeps) ends with it.
 */
export function startServer(connection: Connection, hooks: ServerHooks = {}): { stop(): void } {
  const start = sessionStart(connection, hooks.foldersAreReal);
  let stop: (() => void) | undefined;
  let stopped = false;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const answer = answerInitialize(start, params, hooks.watchClientProcess);
    stop = serveSession(start, hooks);
    if (stopped) stop();
    return answer;
  });
  connection.listen();
  return {
    stop: () => {
      stopped = true;
      stop?.();
    },
  };
}

/**
 * Everything after `initialize` (answered with `start`, sessionStart.ts): the services every request
 * shares, their handlers, and the work `initialized` starts. Called once the answer is made: by
 * startServer, or by main.ts once it has written the answer and loaded this code (session.ts); the
 * connection is listening, and holds every later message until this has run (sessionGate.ts).
 */
export function serveSession(start: SessionStart, hooks: ServerHooks = {}): () => void {
  const { connection, client, folders, log, warn } = start;
  client.readSettings(mergeSettings);
  const documents = new OpenDocuments(() => client.encoding);
  const mutex = new KeyedMutex();
  // Documents whose last workspace/applyEdit went unanswered (deadline or cancel): URI -> version then.
  const unconfirmed = new Map<string, number>();
  const previews = new Previews({ encoding: () => client.encoding, publish: (uri, diagnostics) => sendQuietly(() => connection.sendDiagnostics({ uri, diagnostics })), log });
  documents.store.onDidChangeContent((e) => previews.documentChanged(e.document.uri, e.document.getText()));
  const progress = new ProgressReporter({
    supported: () => client.traits.workDoneProgress,
    create: (token) => requestOrReject(() => connection.sendRequest(WorkDoneProgressCreateRequest.type, { token })),
    send: (token, value) => sendQuietly(() => connection.sendProgress(WorkDoneProgress.type, token, value)),
  });
  // The symbol index follows open buffers, saves and watched-file events file by file.
  const folderWatch = new FolderWatch(log);
  let indexAhead = hooks.indexAhead;
  const takeAhead = () => {
    const ahead = indexAhead;
    indexAhead = undefined;
    return ahead;
  };
  if (indexAhead !== undefined) setTimeout(() => takeAhead()?.discard(), 30_000).unref();
  const symbols = new SymbolIndex({ takeAhead, folders: () => folderWatch.intact(folders.list), encoding: () => client.encoding, documents, maxFileSize: () => client.settings.maxFileSize, log, startProgress: (title) => progress.start(title, { cancellable: false }) });
  documents.store.onDidChangeContent((e) => symbols.bufferChanged(e.document.uri));
  documents.store.onDidSave((e) => symbols.fileSaved(e.document.uri));
  documents.store.onDidClose((e) => symbols.bufferClosed(e.document.uri));
  let attachHandle: AttachHandle | undefined;
  // The journal's digests wait for the answers still on their way out: to the editor, and to agents.
  const pendingWrites = () => {
    const unsent = [hooks.pendingWrites?.(), attachHandle?.pendingWrites()].filter((p) => p !== undefined);
    return unsent.length === 0 ? undefined : Promise.all(unsent).then(() => undefined);
  };
  const journal = new UndoJournal(() => client.settings.undoDepth, pendingWrites);
  let ide: IdeServers | undefined;
  /** Settles once the client's configuration was read after `initialized` (the IDE servers start by it). */
  let configured: Promise<void> = Promise.resolve();

  /** The server as the editor's own requests see it now (an attached agent's are narrowed to its folder). */
  const state = (): ServerState => ({
    folders: folders.list,
    requester: EDITOR_REQUESTER,
    settings: client.settings,
    encoding: client.encoding,
    traits: client.traits,
    documents,
    mutex,
    // The signal cancels the request ($/cancelRequest to the editor) when editls stops waiting for it.
    sendApplyEdit: (label, edit, signal) => {
      const source = new CancellationTokenSource();
      signal.addEventListener('abort', () => source.cancel(), { once: true });
      return connection.sendRequest(ApplyWorkspaceEditRequest.type, { label, edit }, source.token).finally(() => source.dispose());
    },
    unconfirmed,
    log,
    // A window/showMessage notification: vscode-languageserver's show*Message send showMessageRequest,
    // which some clients answer with a blocking prompt.
    showMessage: (message, level) => showMessageQuietly(connection, level === 'error' ? MessageType.Error : MessageType.Info, message),
    previews,
    progress,
    symbols,
    journal,
    ...(ide ? { agents: ide } : {}),
  });

  // After the answer: locate ripgrep (loading @vscode/ripgrep costs the answer 2-4 ms) before the
  // index build after `initialized` needs it (a missing binary is reported by that build).
  setImmediate(() => {
    ripgrepPath().catch(() => undefined);
    hooks.afterInitialize?.();
  });

  connection.onInitialized(() => {
    connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);
    // After initialize, where vscode-languageserver installs a handler that only knows its own tokens.
    connection.onNotification(WorkDoneProgressCancelNotification.type, (p) => progress.cancel(p.token));
    configured = client.pullConfiguration(connection);
    void symbols.rebuild();
    // The session's first search is most often of the whole workspace with the default options: its
    // ripgrep is started ahead once the settings are known (a search with other options discards it).
    void configured.then(() => {
      const first = folderWatch.intact(folders.list)[0];
      if (first !== undefined && !shuttingDown) searchFolderAhead(first, { respectIgnore: RESPECT_GITIGNORE_BY_DEFAULT, maxResults: client.settings.maxResults });
    });
    if (client.watchFiles) {
      const globPattern = `**/*.{${INDEXED_EXTENSIONS.join(',')}}`;
      connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] }).catch((error: unknown) => log(`file watcher registration failed: ${String(error)}`));
    }
    void startAttach();
    void sweepBufferCopies(hooks.isProcessAlive ?? (() => true)).then((n) => {
      if (n > 0) log(`removed ${n} copy folder${n === 1 ? '' : 's'} of unsaved buffers left in the temp folder by a killed editls`);
    });
    // Once the build is done and nothing was asked for a second: the sweep's walk of the whole tree
    // right after the build made a search sent then ~8 ms slower (1.16x plain rg against 1.07x).
    const afterBuild = symbols.built.then(() => whenIdle(SWEEP_QUIET_MS, SWEEP_LATEST_MS));
    // No folders once the session is stopping: a sweep not yet started is skipped.
    const sweepFolders = () => (shuttingDown ? [] : folderWatch.intact(folders.list));
    void sweepStrayTemps(sweepFolders, hooks.isProcessAlive ?? (() => true), { after: afterBuild, log }).then((n) => {
      if (!shuttingDown) log(`swept the workspace for temporary files left by an interrupted write: ${n} removed`);
    });
  });
  connection.onNotification(DidChangeConfigurationNotification.type, (params) => {
    void client.configurationChanged(params, connection).then(() => ide?.settingsChanged());
  });
  const onFoldersChanged = (params: DidChangeWorkspaceFoldersParams) => {
    folders.change(params);
    log(`workspace folders: ${folders.list.join(', ') || '(none)'}`);
    attachHandle?.republish();
    ide?.foldersChanged();
    void symbols.rebuild();
  };
  // vscode-languageserver installs its own handler for this notification while it takes `initialize`
  // in, before the answer is made, when the client supports workspace folders: ours replaces it here
  // (and again at `initialized`, as before), so ours is the one used.
  connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);

  documents.store.listen(connection);
  let shuttingDown = false;
  /** At `shutdown`, or when startServer's owner stops the session: once. */
  const stop = () => {
    if (shuttingDown) return;
    shuttingDown = true;
    attachHandle?.close();
    ide?.close();
    symbols.dispose();
    hooks.onShutdown?.();
  };
  connection.onShutdown(stop);
  connection.onExit(() => hooks.onExit?.());
  /** After `shutdown` every request is refused (LSP: InvalidRequest), before any work is done. */
  const refuseAfterShutdown = () =>
    shuttingDown ? new ResponseError(ErrorCodes.InvalidRequest, 'editls is shutting down; no requests are served after shutdown') : undefined;

  // Registered directly (not onExecuteCommand, which reads params.workDoneToken first and fails on null params).
  connection.onRequest(
    ExecuteCommandRequest.type,
    (params: ExecuteCommandParams | null, token) =>
      refuseAfterShutdown() ?? serving(() => executeCommand(createContext(state(), requestInfo(token, params?.workDoneToken)), params ?? { command: '' })),
  );
  connection.onRequest(CodeActionRequest.type, (params, token) => {
    // The range is where the user is: the agents' context follows it (ideServers.ts).
    if (params?.textDocument?.uri && params.range) ide?.selectionSeen(params.textDocument.uri, params.range);
    return refuseAfterShutdown() ?? serving(() => codeAction(createContext(state(), requestInfo(token, undefined)), params));
  });
  connection.onRequest(WorkspaceSymbolRequest.method, (params: WorkspaceSymbolParams, token): unknown => refuseAfterShutdown() ?? workspaceSymbol(createContext(state(), requestInfo(token, params?.workDoneToken)), params ?? { query: '' }));

  // Agents attached through `editls mcp` (agentRequests.ts): the same handlers, Context, locks and documents.
  const startAttach = async () => {
    if (!hooks.attach) return;
    const serve = agentRequests({
      state,
      folders: () => folders.list,
      folderWatch,
      settings: () => client.settings,
      showDocument: () => client.traits.showDocument === true,
      previews,
      connection,
      refuseAfterShutdown,
      log,
    });
    ide = ideServers({
      state,
      settings: () => client.settings,
      clientName: () => client.name,
      showDocument: () => client.traits.showDocument === true,
      previews,
      connection,
      place: hooks.attach,
      editorPid: () => start.editorPid,
      isProcessAlive: hooks.isProcessAlive ?? (() => true),
      log,
      warn,
    });
    for (const event of [documents.store.onDidOpen, documents.store.onDidChangeContent, documents.store.onDidClose]) event((e) => ide?.documentsChanged(e.document.uri));
    void configured.then(() => ide?.settingsChanged()).then(() => {
      if (shuttingDown) ide?.close();
    });
    attachHandle = await startAgentListener(hooks.attach, {
      isProcessAlive: hooks.isProcessAlive ?? (() => true),
      folders: () => folders.list,
      clientName: () => client.name,
      serve,
      version: SERVER_VERSION,
      log,
      warn,
    });
    if (attachHandle && shuttingDown) attachHandle.close();
  };
  connection.onDidChangeWatchedFiles((params) =>
    symbols.watchedFilesChanged(params.changes.map((c) => ({ uri: c.uri, type: c.type === FileChangeType.Created ? 'created' : c.type === FileChangeType.Deleted ? 'deleted' : 'changed' }))),
  );
  return stop;
}
