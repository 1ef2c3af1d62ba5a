// The Context commands run against, built per request from the server's live state: workspace
// folders, settings, the open documents, the per-file mutex and the editor connection.
import type { ApplyWorkspaceEditResult, WorkspaceEdit } from 'vscode-languageserver';
import type { Result } from '../core/result.js';
import type { PositionEncoding } from '../core/text/positions.js';
import type { ApplyMode, Context, PlannedChange, Snapshot } from '../commands/context.js';
import type { ClientTraits } from '../protocol/clientTraits.js';
import type { Settings } from '../settings.js';
import { applyChanges } from './applyEdits.js';
import { readTextFile } from './fileCodec.js';
import type { KeyedMutex } from './keyedMutex.js';
import type { OpenDocuments } from './openDocuments.js';
import { resolveWorkspacePath, type ResolvedPath } from './paths.js';

export interface ServerState {
  folders: string[];
  settings: Settings;
  encoding: PositionEncoding;
  traits: ClientTraits;
  documents: OpenDocuments;
  mutex: KeyedMutex;
  sendApplyEdit: (label: string, edit: WorkspaceEdit) => Promise<ApplyWorkspaceEditResult>;
  log: (message: string) => void;
  showMessage: (message: string) => void;
}

export interface RequestInfo {
  signal: AbortSignal;
  workDoneToken?: string | number;
}

export function createContext(state: ServerState, request: RequestInfo): Context {
  const settings = state.settings;
  return {
    settings,
    encoding: state.encoding,
    signal: request.signal,
    ...(request.workDoneToken !== undefined ? { workDoneToken: request.workDoneToken } : {}),
    resolvePath: (input) => resolveWorkspacePath(input, state.folders),
    snapshot: (resolved) => snapshotOf(state, resolved),
    withFiles: (paths, fn) => state.mutex.run(paths, fn),
    apply: (changes: readonly PlannedChange[], mode: ApplyMode, options) =>
      applyChanges(
        { encoding: state.encoding, traits: state.traits, settings, documents: state.documents, sendApplyEdit: state.sendApplyEdit, log: state.log },
        changes,
        mode,
        options,
      ),
    log: state.log,
    summarize: (message) => (settings.summary === 'message' ? state.showMessage(message) : state.log(message)),
  };
}

async function snapshotOf(state: ServerState, resolved: ResolvedPath): Promise<Result<Snapshot>> {
  const open = state.documents.getByPath(resolved.absPath) ?? state.documents.get(resolved.uri);
  if (open) {
    return { ok: true, resolved, source: 'editor', text: open.text, version: open.version, uri: open.uri };
  }
  if (!resolved.exists) {
    return { ok: true, resolved, source: 'missing', text: '', version: null, uri: resolved.uri };
  }
  const disk = await readTextFile(resolved.absPath, resolved.relPath, state.settings.maxFileSize);
  if (!disk.ok) {
    if (disk.kind === 'file_not_found') return { ok: true, resolved, source: 'missing', text: '', version: null, uri: resolved.uri };
    return disk;
  }
  return { ok: true, resolved, source: 'disk', text: disk.text, version: null, uri: resolved.uri, disk };
}

