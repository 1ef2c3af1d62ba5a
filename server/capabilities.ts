// The capabilities editls announces in InitializeResult. Commands come from the registry so the
// advertised list and what executeCommand serves cannot drift.
import { TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver';
import type { PositionEncoding } from './core/text/positions.js';
import { COMMAND_IDS } from './commands/index.js';
import { CODE_ACTION_KINDS } from './commands/codeActions.js';

export function serverCapabilities(encoding: PositionEncoding): ServerCapabilities {
  return {
    positionEncoding: encoding,
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    executeCommandProvider: { commands: [...COMMAND_IDS] },
    workspaceSymbolProvider: true,
    codeActionProvider: { codeActionKinds: [...CODE_ACTION_KINDS] },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}
