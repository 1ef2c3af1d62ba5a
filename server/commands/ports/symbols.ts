// The symbols port: workspace/symbol's ranked definitions from the symbol index.
// Implemented by server/workspace/symbols/symbolIndex.ts through server/workspace/context.ts.
import type { Result } from '../../core/result.js';
import type { SymbolHit } from '../../core/symbols/types.js';

export interface SymbolsPort {
  /** Ranked definitions, capped at `maxSymbols`; `cancelled` on $/cancelRequest. */
  searchSymbols(query: string): Promise<Result<{ symbols: SymbolHit[] }>>;
}
