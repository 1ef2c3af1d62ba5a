// Symbol index hits as LSP SymbolInformation: the flat form with a full `location.range` (Helix
// drops WorkspaceSymbol[]), kinds mapped to SymbolKind numbers, `containerName` when known.
import { SymbolKind, type SymbolInformation } from 'vscode-languageserver';
import type { SymbolHit, SymbolKindName } from '../core/symbols/types.js';

const KINDS: Record<SymbolKindName, SymbolKind> = {
  module: SymbolKind.Module,
  namespace: SymbolKind.Namespace,
  class: SymbolKind.Class,
  method: SymbolKind.Method,
  property: SymbolKind.Property,
  constructor: SymbolKind.Constructor,
  enum: SymbolKind.Enum,
  interface: SymbolKind.Interface,
  function: SymbolKind.Function,
  variable: SymbolKind.Variable,
  constant: SymbolKind.Constant,
  struct: SymbolKind.Struct,
  object: SymbolKind.Object,
  typeParameter: SymbolKind.TypeParameter,
};

export function toSymbolInformation(hit: SymbolHit): SymbolInformation {
  const info: SymbolInformation = {
    name: hit.name,
    kind: KINDS[hit.kind],
    location: {
      uri: hit.uri,
      range: { start: { line: hit.line, character: hit.character }, end: { line: hit.line, character: hit.endCharacter } },
    },
  };
  if (hit.container !== undefined) info.containerName = hit.container;
  return info;
}
