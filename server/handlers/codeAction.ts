// textDocument/codeAction: the offers for the document and selection (commands/codeActions.ts)
// as CodeActions whose command runs editls, honouring the client's `only` kind filter.
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import { codeActionOffers } from '../commands/codeActions.js';
import type { Context } from '../commands/context.js';
import { selectedLines, toCodeAction } from '../protocol/previewProto.js';

export async function codeAction(ctx: Context, params: CodeActionParams): Promise<CodeAction[]> {
  try {
    const offers = await codeActionOffers(ctx, params.textDocument.uri, selectedLines(params.range), params.context?.only, params.range.start.line + 1);
    return offers.map(toCodeAction);
  } catch (error) {
    // Code actions are asked for on every cursor move in some editors: never fail loudly.
    ctx.log(`textDocument/codeAction failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return [];
  }
}
