// What answers `initialize`: the client's session (clientSession.ts) and folders (workspaceFolders.ts)
// made from its params, and the capabilities (capabilities.ts). main.ts answers with this alone and
// loads the rest of editls (session.ts, serveSession in server.ts) once the answer is written;
// startServer (server.ts) does both at once for an in-process session.
import { LogMessageNotification, MessageType, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { ClientSession } from './clientSession.js';
import { WorkspaceFolders } from './workspaceFolders.js';
import { serverCapabilities } from './capabilities.js';
import { SERVER_VERSION } from './version.js';
import { sendQuietly } from './protocol/quietSend.js';

/** A session from its start: what the client said at `initialize`, and how to log to it. */
export interface SessionStart {
  readonly connection: Connection;
  readonly client: ClientSession;
  readonly folders: WorkspaceFolders;
  /** The editor's process id, when `initialize` gave one. */
  editorPid: number | undefined;
  /** window/logMessage (never stdout, which carries the protocol): a log line, and a warning. */
  readonly log: (message: string) => void;
  readonly warn: (message: string) => void;
}

/** `foldersAreReal`: see ServerHooks.foldersAreReal (server.ts). */
export function sessionStart(connection: Connection, foldersAreReal = false): SessionStart {
  const logAs = (type: MessageType, message: string) => sendQuietly(() => connection.sendNotification(LogMessageNotification.type, { type, message }));
  const warn = (message: string) => logAs(MessageType.Warning, message);
  return {
    connection,
    client: new ClientSession(warn),
    folders: new WorkspaceFolders(foldersAreReal),
    editorPid: undefined,
    log: (message) => logAs(MessageType.Log, message),
    warn,
  };
}

/** Takes in `initialize`'s params and answers it; `watchClientProcess` gets the editor's process id. */
export function answerInitialize(start: SessionStart, params: InitializeParams, watchClientProcess?: (pid: number) => void): InitializeResult {
  start.client.initialize(params);
  start.folders.initialize(params);
  if (typeof params.processId === 'number') {
    start.editorPid = params.processId;
    watchClientProcess?.(params.processId);
  }
  return { capabilities: serverCapabilities(start.client.encoding), serverInfo: { name: 'editls', version: SERVER_VERSION } };
}
