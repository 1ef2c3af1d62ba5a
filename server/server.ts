// Wires the LSP connection: initialize (capabilities, encoding, folders, settings), document sync,
// configuration and workspace-folder changes, and one line per request handler.
import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  ExecuteCommandRequest,
  type ExecuteCommandParams,
  ResponseError,
  DidChangeWorkspaceFoldersNotification,
  type CancellationToken,
  type Connection,
  type DidChangeWorkspaceFoldersParams,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
} from 'vscode-languageserver';
import type { PositionEncoding } from './core/text/positions.js';
import { serverCapabilities } from './capabilities.js';
import { executeCommand } from './handlers/executeCommand.js';
import { negotiateEncoding } from './protocol/encoding.js';
import { clientTraits, type ClientTraits } from './protocol/clientTraits.js';
import { mergeSettings, SETTINGS_DEFAULTS, type Settings } from './settings.js';
import { createContext, type RequestInfo, type ServerState } from './workspace/context.js';
import { KeyedMutex } from './workspace/keyedMutex.js';
import { OpenDocuments } from './workspace/openDocuments.js';
import { realpathOrSelf, uriToPath } from './workspace/paths.js';
import { sweepStrayTemps } from './workspace/strayTemps.js';

export const SERVER_VERSION = '0.1.0';

export interface ServerHooks {
  /** Called with the client's processId from initialize, so main can exit when it dies. */
  watchClientProcess?: (pid: number) => void;
  /** Whether a process is alive (to keep another live editls's temp files during the start-up sweep). */
  isProcessAlive?: (pid: number) => boolean;
  /** Called when the client sends `shutdown` (main then exits 0 when stdin ends). */
  onShutdown?: () => void;
}

export function startServer(connection: Connection, hooks: ServerHooks = {}): void {
  let encoding: PositionEncoding = 'utf-16';
  let traits: ClientTraits = clientTraits({});
  let settings: Settings = { ...SETTINGS_DEFAULTS };
  let initOptions: unknown;
  let folders: string[] = [];
  const documents = new OpenDocuments(() => encoding);
  const mutex = new KeyedMutex();
  const log = (message: string) => connection.console.log(message);

  const applySettings = (raw: unknown, base: Settings) => {
    const merged = mergeSettings(base, raw);
    for (const w of merged.warnings) connection.console.warn(w);
    settings = merged.settings;
  };

  const state = (): ServerState => ({
    folders,
    settings,
    encoding,
    traits,
    documents,
    mutex,
    sendApplyEdit: (label, edit) => connection.workspace.applyEdit({ label, edit }),
    log,
    showMessage: (message) => connection.window.showInformationMessage(message),
  });

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    encoding = negotiateEncoding(params);
    traits = clientTraits(params.capabilities);
    folders = initialFolders(params);
    initOptions = params.initializationOptions;
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
      connection.console.warn(`workspace/configuration failed: ${error instanceof Error ? error.message : String(error)}; settings kept`);
    }
  };

  connection.onInitialized(() => {
    connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);
    void pullConfiguration();
    void sweepStrayTemps(folders, hooks.isProcessAlive ?? (() => true)).then((n) => {
      if (n > 0) log(`removed ${n} temporary file${n === 1 ? '' : 's'} left by an interrupted write`);
    });
  });
  connection.onNotification(DidChangeConfigurationNotification.type, (params) => {
    if (traits.configuration) void pullConfiguration();
    else applySettings(params.settings, settings);
  });
  const onFoldersChanged = (params: DidChangeWorkspaceFoldersParams) => {
    const removed = new Set(params.event.removed.map((f) => folderPath(f)).filter((p): p is string => p !== undefined));
    folders = folders.filter((f) => !removed.has(f));
    for (const f of params.event.added) {
      const p = folderPath(f);
      if (p !== undefined && !folders.includes(p)) folders.push(p);
    }
    log(`workspace folders: ${folders.join(', ') || '(none)'}`);
  };
  // vscode-languageserver installs its own handler for this notification during initialize when
  // the client supports workspace folders; register ours before and after so ours is the one used.
  connection.onNotification(DidChangeWorkspaceFoldersNotification.type, onFoldersChanged);

  documents.store.listen(connection);
  let shuttingDown = false;
  connection.onShutdown(() => {
    shuttingDown = true;
    hooks.onShutdown?.();
  });
  /** After `shutdown` every request is refused (LSP: InvalidRequest), before any work is done. */
  const refuseAfterShutdown = () =>
    shuttingDown ? new ResponseError(ErrorCodes.InvalidRequest, 'editls is shutting down; no requests are served after shutdown') : undefined;

  // Registered directly (not onExecuteCommand, which reads params.workDoneToken first and fails on null params).
  connection.onRequest(
    ExecuteCommandRequest.type,
    (params: ExecuteCommandParams | null, token) =>
      refuseAfterShutdown() ?? executeCommand(createContext(state(), requestInfo(token, params?.workDoneToken)), params ?? { command: '' }),
  );
  connection.listen();
}

/** An AbortSignal that follows the request's CancellationToken. */
function requestInfo(token: CancellationToken, workDoneToken: string | number | undefined): RequestInfo {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return workDoneToken === undefined ? { signal: controller.signal } : { signal: controller.signal, workDoneToken };
}

function initialFolders(params: InitializeParams): string[] {
  const fromFolders = (params.workspaceFolders ?? []).map(folderPath).filter((p): p is string => p !== undefined);
  if (fromFolders.length > 0) return unique(fromFolders);
  const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined);
  return root ? [realpathOrSelf(root)] : [];
}

function folderPath(folder: WorkspaceFolder): string | undefined {
  const p = uriToPath(folder.uri);
  return p === undefined ? undefined : realpathOrSelf(p);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
