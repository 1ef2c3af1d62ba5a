// Position-encoding negotiation (contract: "Position encoding"): the first of the client's
// `general.positionEncodings` that editls supports; utf-16 when none is offered, except lsp-mode
// (`clientInfo.name == "emacs"`), which offers none yet counts columns in code points.
import type { InitializeParams } from 'vscode-languageserver';
import type { PositionEncoding } from '../core/text/positions.js';

const SUPPORTED: readonly PositionEncoding[] = ['utf-8', 'utf-16', 'utf-32'];

export function negotiateEncoding(params: Pick<InitializeParams, 'capabilities' | 'clientInfo'>): PositionEncoding {
  const offered = params.capabilities.general?.positionEncodings;
  if (Array.isArray(offered) && offered.length > 0) {
    const pick = offered.find((e): e is PositionEncoding => (SUPPORTED as readonly string[]).includes(e));
    return pick ?? 'utf-16';
  }
  if (params.clientInfo?.name === 'emacs') return 'utf-32';
  return 'utf-16';
}
