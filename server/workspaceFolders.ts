// The workspace folders editls serves, as real paths fixed when the client names them (never resolved
// again: see workspace/disk/folders.ts), and the path each was named by, so that a later removal
// finds it even if it now resolves elsewhere.
import path from 'node:path';
import type { DidChangeWorkspaceFoldersParams, InitializeParams, WorkspaceFolder } from 'vscode-languageserver';
import { realpathOrSelf, uriToPath } from './workspace/disk/paths.js';

/** A folder as the client named it (`given`, absolute) and its real path, fixed now (`real`). */
interface NamedFolder {
  given: string;
  real: string;
}

export class WorkspaceFolders {
  /** Real paths, in the client's order, each once. */
  list: string[] = [];
  private readonly namedAs = new Map<string, string>();
  private readonly realOf: (p: string) => string;

  /** `foldersAreReal`: the client names folders by real paths it holds (editls mcp): taken as they are, not resolved again. */
  constructor(foldersAreReal = false) {
    this.realOf = foldersAreReal ? (p: string) => path.resolve(p) : realpathOrSelf;
  }

  /** From initialize: workspaceFolders, else rootUri or rootPath. */
  initialize(params: InitializeParams): void {
    const fromFolders = (params.workspaceFolders ?? []).map((f) => this.named(f)).filter((p): p is NamedFolder => p !== undefined);
    const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined);
    const named = fromFolders.length > 0 ? fromFolders : root ? [{ given: path.resolve(root), real: this.realOf(root) }] : [];
    this.list = [...new Set(named.map((n) => n.real))];
    for (const n of named) this.namedAs.set(n.real, n.given);
  }

  /**
   * didChangeWorkspaceFolders. A removed folder is found by the path it was named by (or its fixed
   * real path); its real path now is used only when nothing matches so: a folder swapped for a link
   * to another folder must not take that other one along.
   */
  change(params: DidChangeWorkspaceFoldersParams): void {
    for (const r of params.event.removed) {
      const n = this.named(r);
      if (n === undefined) continue;
      const named = this.list.filter((f) => this.namedAs.get(f) === n.given || f === n.given);
      const gone = new Set(named.length > 0 ? named : this.list.filter((f) => f === n.real));
      this.list = this.list.filter((f) => !gone.has(f));
    }
    for (const f of params.event.added) {
      const n = this.named(f);
      if (n !== undefined && !this.list.includes(n.real)) {
        this.list.push(n.real);
        this.namedAs.set(n.real, n.given);
      }
    }
  }

  private named(folder: WorkspaceFolder): NamedFolder | undefined {
    const p = uriToPath(folder.uri);
    return p === undefined ? undefined : { given: path.resolve(p), real: this.realOf(p) };
  }
}
