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
  /** What the editor does with \r in an edit's new text: keeps it, makes it a line break (Neovim
   *  0.7-0.11: `newText:gsub('\r\n?', '\n')`), or drops it (lsp-mode: `s-replace "\r" ""`). */
  carriageReturns: 'keep' | 'lineBreak' | 'drop';
  /** clientInfo.name, for messages. */
  clientName: string;
  /** window/showDocument (review of agent edits shows the file). */
  showDocument: boolean;
}

export function clientTraits(caps: ClientCapabilities, clientName = ''): ClientTraits {
  const we = caps.workspace?.workspaceEdit;
  const ops = we?.resourceOperations ?? [];
  return {
    documentChanges: we?.documentChanges === true || ops.length > 0,
    createFiles: ops.includes('create'),
    changeAnnotations: we?.changeAnnotationSupport !== undefined,
    configuration: caps.workspace?.configuration === true,
    workDoneProgress: caps.window?.workDoneProgress === true,
    showMessage: true,
    carriageReturns: clientName === 'Neovim' ? 'lineBreak' : clientName === 'emacs' ? 'drop' : 'keep',
    clientName: clientName || 'the client',
    showDocument: caps.window?.showDocument?.support === true,
  };
}
