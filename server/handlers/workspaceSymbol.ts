// workspace/symbol: ranked definitions from the symbol index as flat SymbolInformation[], capped
// at `maxSymbols`; a cancelled request ($/cancelRequest) answers RequestCancelled.
import type { ResponseError, SymbolInformation, WorkspaceSymbolParams } from 'vscode-languageserver';
import type { SymbolsPort } from '../commands/ports/symbols.js';
import { requestCancelled, toResponseError, type ErrorData } from '../protocol/errors.js';
import { toSymbolInformation } from '../protocol/symbolInformation.js';

export async function workspaceSymbol(ctx: SymbolsPort, params: WorkspaceSymbolParams): Promise<SymbolInformation[] | ResponseError<ErrorData>> {
  const result = await ctx.searchSymbols(typeof params.query === 'string' ? params.query : '');
  if (!result.ok) return result.kind === 'cancelled' ? requestCancelled(result.message) : toResponseError(result);
  return result.symbols.map(toSymbolInformation);
}
