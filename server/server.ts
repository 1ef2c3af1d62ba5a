// Wires the LSP connection: initialize (capabilities, encoding, folders, settings), document sync,
// configuration and workspace-folder changes, and one line per request handler.
import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  LogMessageNotification,
  ExecuteCommandRequest,
  CodeActionRequest,
  MessageType,
  ShowMessageNotification,
  type ExecuteCommandParams,
  ResponseError,
  DidChangeWorkspaceFoldersNotification,
  type Connection,
  type DidChangeWorkspaceFoldersParams,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
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
import path from 'node:path';
import type { AttachHandle } from './attach/listener.js';
import { agentRequests, requestInfo, startAgentListener } from './agentRequests.js';
import type { PositionEncoding } from './core/text/positions.js';
import { serverCapabilities } from './capabilities.js';
import { executeCommand } from './handlers/executeCommand.js';
import { codeAction } from './handlers/codeAction.js';
import { negotiateEncoding } from './protocol/encoding.js';
import { clientTraits, type ClientTraits } from './protocol/clientTraits.js';
import { mergeSettings, SETTINGS_DEFAULTS, type Settings } from './settings.js';
import { createContext, type ServerState } from './workspace/context.js';
import { KeyedMutex } from './workspace/keyedMutex.js';
import { OpenDocuments } from './workspace/editor/openDocuments.js';
import { Previews } from './workspace/editor/previews.js';
import { realpathOrSelf, uriToPath } from './workspace/disk/paths.js';
import { sweepStrayTemps } from './workspace/strayTemps.js';
import { sweepBufferCopies } from './workspace/search/bufferCopies.js';
import { serving } from './workspace/timeSlice.js';
import { FolderWatch } from './workspace/disk/folders.js';
import { workspaceSymbol } from './handlers/workspaceSymbol.js';
import { INDEXED_EXTENSIONS } from './core/symbols/languages.js';
import { ProgressReporter } from './workspace/progress.js';
import { SymbolIndex } from './workspace/symbols/symbolIndex.js';
import { UndoJournal } from './workspace/editor/undoJournal.js';

export const SERVER_VERSION = '0.1.0';

/** Who the editor's own requests are, in the undo journal; each attached agent is `agent:<id>`. */
const EDITOR_REQUESTER = 'editor';

export interface ServerHooks {
  /** Called with the client's processId from initialize, so main can exit when it dies. */
  watchClientProcess?: (pid: number) => void;
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
  uid: number;
  pid: number;
  windows: boolean;
  /** Runs `cleanup` (synchronous) when the process exits, whatever the reason. */
  onExit: (cleanup: () => void) => void;
}

export function startServer(connection: Connection, hooks: ServerHooks = {}): void {
  const realOf = hooks.foldersAreReal ? (p: string) => path.resolve(p) : realpathOrSelf;
  let encoding: PositionEncoding = 'utf-16';
  let traits: ClientTraits = clientTraits({});
  let settings: Settings = { ...SETTINGS_DEFAULTS };
  let initOptions: unknown;
  // Real paths fixed when the client names the folders (never resolved again: see workspace/disk/folders.ts),
  // and the path each was named by, so that a later removal finds it even if it now resolves elsewhere.
  let folders: string[] = [];
  const namedAs = new Map<string, string>();
  let clientName = 'unknown editor';
  let attachHandle: AttachHandle | undefined;
  const documents = new OpenDocuments(() => encoding);
  const mutex = new KeyedMutex();
  // Documents whose last workspace/applyEdit went unanswered (deadline or cancel): URI -> version then.
  const unconfirmed = new Map<string, number>();
  // Logs go to the client as window/logMessage (never stdout, which carries the protocol).
  const logAs = (type: MessageType, message: string) => void connection.sendNotification(LogMessageNotification.type, { type, message });
  const log = (message: string) => logAs(MessageType.Log, message);
  const warn = (message: string) => logAs(MessageType.Warning, message);
  const previews = new Previews({ encoding: () => encoding, publish: (uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }), log });
  documents.store.onDidChangeContent((e) => previews.documentChanged(e.document.uri, e.document.getText()));
  const progress = new ProgressReporter({
    supported: () => traits.workDoneProgress,
    create: (token) => connection.sendRequest(WorkDoneProgressCreateRequest.type, { token }),
    send: (token, value) => void connection.sendProgress(WorkDoneProgress.type, token, value),
  });
  // The symbol index follows open buffers, saves and watched-file events file by file.
  const folderWatch = new FolderWatch(log);
  const symbols = new SymbolIndex({ folders: () => folderWatch.intact(folders), encoding: () => encoding, documents, maxFileSize: () => settings.maxFileSize, log, startProgress: (title) => progress.start(title, { cancellable: false }) });
  documents.store.onDidChangeContent((e) => symbols.bufferChanged(e.document.uri));
  documents.store.onDidSave((e) => symbols.fileSaved(e.document.uri));
  documents.store.onDidClose((e) => symbols.bufferClosed(e.document.uri));
  let watchFiles = false;
  const journal = new UndoJournal(() => settings.undoDepth);

  const applySettings = (raw: unknown, base: Settings) => {
    const merged = mergeSettings(base, raw);
    for (const w of merged.warnings) warn(w);
    settings = merged.settings;
  };

  const state = (): ServerState => ({
    folders,
    requester: EDITOR_REQUESTER,
    settings,
    encoding,
    traits,
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
    showMessage: (message, level) => void connection.sendNotification(ShowMessageNotification.type, { type: level === 'error' ? MessageType.Error : MessageType.Info, message }),
    previews,
    progress,
    symbols,
    journal,
  });

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    encoding = negotiateEncoding(params);
    traits = clientTraits(params.capabilities, params.clientInfo?.name);
    const named = initialFolders(params, realOf);
    folders = unique(named.map((n) => n.real));
    for (const n of named) namedAs.set(n.real, n.given);
    initOptions = params.initializationOptions;
    clientName = params.clientInfo?.name ?? 'unknown editor';
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    applySettings(initOptions, { ...SETTINGS_DEFAULTS });
    if (typeof params.processId === 'number') hooks.watchClientProcess?.(params.processId);
    return { capabilities: serverCapabilities(encoding), serverInfo: { name: 'editls', version: SERVER_VERSION } };
  });

  const pullConfiguration = async () => {
    if (!traits.configuration) return;
    try {
      const [section] = await connection.workspace.getConfiguration([{ section: 'editls' }]);
      // initializationOptions first, then the client's configuration section over it.
      const base = mergeSettings({ ...SETTINGS_DEFAULTS }, initOptions).settings;
      applySettings(section, base);
    } catch (error) {
      warn(`workspace/configuration failed: ${error instanceof Error ? error.message : String(error)}; settings kept`);
    }
  };

  connection.onInitialized(() => {
    connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);
    // After initialize, where vscode-languageserver installs a handler that only knows its own tokens.
    connection.onNotification(WorkDoneProgressCancelNotification.type, (p) => progress.cancel(p.token));
    void pullConfiguration();
    void symbols.rebuild();
    if (watchFiles) {
      const globPattern = `**/*.{${INDEXED_EXTENSIONS.join(',')}}`;
      connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] }).catch((error: unknown) => log(`file watcher registration failed: ${String(error)}`));
    }
    void startAttach();
    void sweepBufferCopies(hooks.isProcessAlive ?? (() => true)).then((n) => {
      if (n > 0) log(`removed ${n} copy folder${n === 1 ? '' : 's'} of unsaved buffers left in the temp folder by a killed editls`);
    });
    void sweepStrayTemps(() => folderWatch.intact(folders), hooks.isProcessAlive ?? (() => true), { after: symbols.built, log }).then((n) => {
      if (n > 0) log(`removed ${n} temporary file${n === 1 ? '' : 's'} left by an interrupted write`);
    });
  });
  connection.onNotification(DidChangeConfigurationNotification.type, (params) => {
    if (traits.configuration) void pullConfiguration();
    else applySettings(params.settings, settings);
  });
  const onFoldersChanged = (params: DidChangeWorkspaceFoldersParams) => {
    // A removed folder is found by the path it was named by (or its fixed real path); its real path
    // now is used only when nothing matches so: a folder swapped for a link to another folder must
    // not take that other one along.
    for (const r of params.event.removed) {
      const n = folderPath(r, realOf);
      if (n === undefined) continue;
      const named = folders.filter((f) => namedAs.get(f) === n.given || f === n.given);
      const gone = new Set(named.length > 0 ? named : folders.filter((f) => f === n.real));
      folders = folders.filter((f) => !gone.has(f));
    }
    for (const f of params.event.added) {
      const n = folderPath(f, realOf);
      if (n !== undefined && !folders.includes(n.real)) {
        folders.push(n.real);
        namedAs.set(n.real, n.given);
      }
    }
    log(`workspace folders: ${folders.join(', ') || '(none)'}`);
    attachHandle?.republish();
    void symbols.rebuild();
  };
  // vscode-languageserver installs its own handler for this notification during initialize when
  // the client supports workspace folders; register ours before and after so ours is the one used.
  connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);

  documents.store.listen(connection);
  let shuttingDown = false;
  connection.onShutdown(() => {
    shuttingDown = true;
    attachHandle?.close();
    symbols.dispose();
    hooks.onShutdown?.();
  });
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
  connection.onRequest(CodeActionRequest.type, (params, token) => refuseAfterShutdown() ?? serving(() => codeAction(createContext(state(), requestInfo(token, undefined)), params)));
  connection.onRequest(WorkspaceSymbolRequest.method, (params: WorkspaceSymbolParams, token): unknown => refuseAfterShutdown() ?? workspaceSymbol(createContext(state(), requestInfo(token, params?.workDoneToken)), params ?? { query: '' }));

  // Agents attached through `editls mcp` (agentRequests.ts): the same handlers, Context, locks and documents.
  const startAttach = async () => {
    if (!hooks.attach) return;
    const serve = agentRequests({
      state,
      folders: () => folders,
      folderWatch,
      settings: () => settings,
      showDocument: () => traits.showDocument === true,
      previews,
      connection,
      refuseAfterShutdown,
      log,
    });
    attachHandle = await startAgentListener(hooks.attach, {
      isProcessAlive: hooks.isProcessAlive ?? (() => true),
      folders: () => folders,
      clientName: () => clientName,
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
  connection.listen();
}

/** A folder as the client named it (`given`, absolute) and its real path, fixed now (`real`). */
interface NamedFolder {
  given: string;
  real: string;
}

function initialFolders(params: InitializeParams, realOf: (p: string) => string): NamedFolder[] {
  const fromFolders = (params.workspaceFolders ?? []).map((f) => folderPath(f, realOf)).filter((p): p is NamedFolder => p !== undefined);
  if (fromFolders.length > 0) return fromFolders;
  const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined);
  return root ? [{ given: path.resolve(root), real: realOf(root) }] : [];
}

function folderPath(folder: WorkspaceFolder, realOf: (p: string) => string): NamedFolder | undefined {
  const p = uriToPath(folder.uri);
  return p === undefined ? undefined : { given: path.resolve(p), real: realOf(p) };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
