// Shapes of the symbol index: a definition found on a line (kinds named after LSP's SymbolKind,
// mapped to its numbers in protocol/symbolInformation.ts) and a ranked hit for workspace/symbol.

export type SymbolKindName =
  | 'module'
  | 'namespace'
  | 'class'
  | 'method'
  | 'property'
  | 'constructor'
  | 'enum'
  | 'interface'
  | 'function'
  | 'variable'
  | 'constant'
  | 'struct'
  | 'object'
  | 'typeParameter';

/** Every kind, in a fixed order: the index and the extractor store a kind as its position here. */
export const SYMBOL_KINDS: readonly SymbolKindName[] = ['module', 'namespace', 'class', 'method', 'property', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant', 'struct', 'object', 'typeParameter'];

/** The position of a kind in SYMBOL_KINDS. */
export function kindCode(kind: SymbolKindName): number {
  return SYMBOL_KINDS.indexOf(kind);
}

/** A definition on one line; columns are UTF-16 offsets on that line. */
export interface SymbolDef {
  name: string;
  kind: SymbolKindName;
  container: string | undefined;
  /** 0-based line. */
  line: number;
  /** [start, end) of the name on the line, UTF-16. */
  start: number;
  end: number;
}

/** A workspace/symbol answer entry; `character`/`endCharacter` are in the negotiated encoding. */
export interface SymbolHit {
  name: string;
  kind: SymbolKindName;
  container?: string;
  uri: string;
  line: number;
  character: number;
  endCharacter: number;
}
