// The capabilities editls announces in InitializeResult. The command ids and code-action kinds come
// from commands/ids.ts (test/commandIds.test.ts holds them to the registry, so that the advertised
// list and what executeCommand serves cannot drift), not from the commands' code, which `initialize`
// does not load.
import { TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver';
import type { PositionEncoding } from './core/text/positions.js';
import { CODE_ACTION_KINDS, COMMAND_IDS } from './commands/ids.js';

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
