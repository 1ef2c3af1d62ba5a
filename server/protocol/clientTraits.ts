// What the client can do, read once from InitializeParams (see ../shared/design/clients.md §2):
// Neovim never advertises documentChanges but applies it and advertises resourceOperations, so
// either flag means "send documentChanges".
import type { ClientCapabilities } from 'vscode-languageserver';

export interface ClientTraits {
  documentChanges: boolean;
  createFiles: boolean;
  changeAnnotations: boolean;
  configuration: boolean;
  workDoneProgress: boolean;
  showMessage: boolean;
  /** window/showDocument (review of agent edits shows the file). */
  showDocument: boolean;
}

export function clientTraits(caps: ClientCapabilities): ClientTraits {
  const we = caps.workspace?.workspaceEdit;
  const ops = we?.resourceOperations ?? [];
  return {
    documentChanges: we?.documentChanges === true || ops.length > 0,
    createFiles: ops.includes('create'),
    changeAnnotations: we?.changeAnnotationSupport !== undefined,
    configuration: caps.workspace?.configuration === true,
    workDoneProgress: caps.window?.workDoneProgress === true,
    showMessage: true,
    showDocument: caps.window?.showDocument?.support === true,
  };
}
