// The Context commands run against, built per request from the server's live state: workspace
// folders, settings, the open documents, the per-file mutex and the editor connection.
import type { ApplyWorkspaceEditResult, WorkspaceEdit } from 'vscode-languageserver';
import type { Result } from '../core/result.js';
import type { PositionEncoding } from '../core/text/positions.js';
import type { Context } from '../commands/context.js';
import type { ApplyMode, PlannedChange } from '../commands/ports/apply.js';
import type { ResolvedPath, Snapshot } from '../commands/ports/files.js';
import type { JournalFile } from '../commands/ports/review.js';
import type { ClientTraits } from '../protocol/clientTraits.js';
import type { Settings } from '../settings.js';
import { applyChanges, DiskWriteAhead } from './editor/applyEdits.js';
import { fileStamp, readTextFile } from './disk/fileCodec.js';
import type { KeyedMutex } from './keyedMutex.js';
import type { OpenDocuments } from './editor/openDocuments.js';
import type { Previews } from './editor/previews.js';
import { resolveWorkspacePath, type ResolveOptions } from './disk/paths.js';
import { folderChangeMemo } from './disk/folders.js';
import { regexRunner } from './search/regexRunner.js';
import { literalChange, literalOutcome } from './search/literalChange.js';
import type { ProgressReporter } from './progress.js';
import { searchFiles } from './search/ripgrepSearch.js';
import { syncFileSystems, syncOutcome } from './search/fileSystemSync.js';
import { listReplaceCandidates } from './search/replaceCandidates.js';
import type { SymbolIndex } from './symbols/symbolIndex.js';
import { fail } from '../core/result.js';
import { errnoCode } from '../core/errno.js';
import { lstatSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { pinFolder } from './disk/pinnedFolder.js';
import { breathe } from './timeSlice.js';
import type { RecordedChange, UndoJournal } from './editor/undoJournal.js';
import type { AgentsPort } from '../commands/ports/agents.js';

export interface ServerState {
  /** The folders this request may touch: the editor's workspace folders, or an attached agent's own folder. */
  folders: string[];
  /** Whose request this is, for the undo journal: `editor`, or `agent:<id>` for an attached agent. */
  requester: string;
  /** An attached agent's folder: workspace/symbol answers only from files inside it. */
  symbolScope?: string;
  settings: Settings;
  encoding: PositionEncoding;
  traits: ClientTraits;
  documents: OpenDocuments;
  mutex: KeyedMutex;
  sendApplyEdit: (label: string, edit: WorkspaceEdit, signal: AbortSignal) => Promise<ApplyWorkspaceEditResult>;
  /** Open documents whose last workspace/applyEdit got no answer in time: URI -> the version then. */
  unconfirmed: Map<string, number>;
  log: (message: string) => void;
  showMessage: (message: string, level?: 'info' | 'error') => void;
  previews: Previews;
  progress: ProgressReporter;
  symbols: SymbolIndex;
  journal: UndoJournal;
  /** The agent CLIs connected to the editor's IDE servers (ideServers.ts); absent: none. */
  agents?: AgentsPort;
}

export interface RequestInfo {
  signal: AbortSignal;
  workDoneToken?: string | number;
}

export function createContext(state: ServerState, request: RequestInfo): Context {
  const settings = state.settings;
  // An agent's tools drop a result's TextEdits (mcp/results.ts): its changes written to disk get none
  // built, sent or read (maxResultEdits 0; the editor's changes and previews still get theirs).
  const applySettings = state.requester.startsWith('agent:') ? { ...settings, maxResultEdits: 0 } : settings;
  const listedFolderChange = folderChangeMemo();
  /** resolveWorkspacePath works in synchronous calls: the event loop may turn first. */
  const resolve = async (input: string, options?: ResolveOptions) => {
    await breathe();
    return logFolderChange(state, await resolveWorkspacePath(input, state.folders, options));
  };
  return {
    settings,
    encoding: state.encoding,
    carriageReturns: state.traits.carriageReturns,
    signal: request.signal,
    ...(request.workDoneToken !== undefined ? { workDoneToken: request.workDoneToken } : {}),
    resolvePath: (input) => resolve(input),
    snapshot: (resolved) => snapshotOf(state, resolved),
    unchangedSince: (snapshot) => unchangedSince(state, snapshot),
    withFiles: (paths, fn) => state.mutex.run(paths, fn),
    writeAhead: (mode: ApplyMode) => (mode === 'preview' || mode === 'editor' ? undefined : new DiskWriteAhead({ settings: applySettings, documents: state.documents, encoding: state.encoding, log: state.log, writeback: syncOutcome }, mode)),
    apply: async (changes: readonly PlannedChange[], mode: ApplyMode, options) => {
      const outcome = await applyChanges(
        {
          encoding: state.encoding,
          traits: state.traits,
          settings: applySettings,
          documents: state.documents,
          sendApplyEdit: state.sendApplyEdit,
          unconfirmed: state.unconfirmed,
          signal: request.signal,
          syncFileSystems,
          log: state.log,
          appliedLate: (late, why) => {
            state.previews.filesChanged(late.map((c) => c.snapshot.resolved.absPath));
            if (options.record !== false) state.journal.record(state.requester, `${options.label} (applied late)`, late.map(recorded));
            const files = late.map((c) => c.snapshot.resolved.relPath).join(', ');
            state.showMessage(`editls: the editor applied "${options.label}" to ${files} after editls had answered that it did not (${why}); it is in the buffers now, and editls.undo reverts it`, 'error');
          },
        },
        changes,
        mode,
        options,
      );
      // Previews computed on these files are out of date once editls changed them. A command that
      // failed half-way (a rollback that could not finish) journals the files that hold its text, so
      // that editls.undo reverts exactly them.
      const partial = outcome.ok ? undefined : (outcome.data?.partiallyApplied as number[] | undefined);
      const applied = outcome.ok ? (outcome.landed?.filter((c): c is PlannedChange => c !== null) ?? changes) : partial?.map((i) => changes[i]!);
      if (applied && applied.length > 0 && mode !== 'preview') {
        state.previews.filesChanged(applied.map((c) => c.snapshot.resolved.absPath));
        if (options.record !== false) {
          state.journal.record(
            state.requester,
            options.label,
            applied.map(recorded),
          );
        }
      }
      // Named for the requester by path (data.partiallyApplied): the files that hold the new text.
      if (!outcome.ok && partial) return { ...outcome, data: { ...outcome.data, partiallyApplied: partial.map((i) => changes[i]!.snapshot.resolved.relPath) } };
      return outcome;
    },
    journal: state.journal.viewFor(state.requester),
    removeCreatedFile: (resolved, file) => removeCreatedFile(state, resolved, file),
    memoryRoom: () => {
      // Loaded here, not at start-up (docs/performance.md, "Start-up").
      const heap = process.getBuiltinModule('node:v8').getHeapStatistics();
      return heap.heap_size_limit - heap.used_heap_size;
    },
    log: state.log,
    summarize: (message, level = 'info') => (settings.summary === 'message' ? state.showMessage(message, level) : state.log(message)),
    // An IDE review of an agent CLI's own edit is the user's to answer (Previews.withoutWriters).
    previews: state.requester.startsWith('agent:') ? state.previews.withoutWriters() : state.previews,
    scanRegex: (job) => regexRunner.run(job, settings.regexTimeoutMs, request.signal),
    matchLiteral: async (target, req) => {
      await breathe(); // literalChange works in synchronous calls
      // An open file is the buffer the user sees: read through snapshot.
      if (req.signal.aborted || !target.exists || state.documents.getByPath(target.absPath) || state.documents.get(target.uri)) return undefined;
      const job = { absPath: target.absPath, relPath: target.relPath, search: req.search, replace: req.replace, preserveCase: req.preserveCase, maxFileSize: settings.maxFileSize, encoding: state.encoding, maxResultEdits: applySettings.maxResultEdits };
      return literalOutcome(target, literalChange(job));
    },
    resolveListedPath: (absPath) => resolve(absPath, { listed: true, folderChange: listedFolderChange }),
    resolveSearchScope: async (input) => logFolderChange(state, await resolveWorkspacePath(input, state.folders, { directories: true })),
    searchFiles: (req) => searchFiles({ folders: state.folders, documents: state.documents, maxFileSize: settings.maxFileSize, log: state.log }, req),
    listReplaceCandidates: (req) => listReplaceCandidates({ documents: state.documents }, req),
    startProgress: (title, options = {}) =>
      state.progress.start(title, request.workDoneToken !== undefined ? { token: request.workDoneToken } : { delayMs: options.delayMs ?? 0 }),
    mentionTargets: () => state.agents?.mentionTargets() ?? [],
    mention: (absPath, startLine, endLine) => state.agents?.mention(absPath, startLine, endLine) ?? [],
    searchSymbols: async (query) => {
      const symbols = await state.symbols.query(query, settings.maxSymbols, request.signal, state.symbolScope);
      return symbols === 'cancelled' ? fail('cancelled', 'workspace/symbol was cancelled') : { ok: true, symbols };
    },
  };
}

/** A change as the undo journal records it once applied. */
function recorded(c: PlannedChange): RecordedChange {
  const where = { absPath: c.snapshot.resolved.absPath, relPath: c.snapshot.resolved.relPath, uri: c.snapshot.uri, edits: c.edits, created: c.created };
  // A change that let its texts go (PlannedChange.released) is recorded from what it kept.
  if (c.released && c.snapshot.disk) {
    const { encoding, bom } = c.snapshot.disk;
    return { ...where, before: '', after: '', written: { digest: c.released.writtenDigest, length: c.released.newLength, inverse: c.released.inverse, encoding, bom } };
  }
  return { ...where, before: c.created ? '' : c.snapshot.text, after: c.newText };
}

/** A path refused because its workspace folder changed since initialize is also logged (window/logMessage). */
function logFolderChange<T>(state: ServerState, result: Result<T>): Result<T> {
  if (!result.ok && result.data?.reason === 'folder_changed') state.log(`refused: ${result.message}`);
  return result;
}

async function snapshotOf(state: ServerState, resolved: ResolvedPath): Promise<Result<Snapshot>> {
  const open = state.documents.getByPath(resolved.absPath) ?? state.documents.get(resolved.uri);
  if (open) {
    return { ok: true, resolved, source: 'editor', text: open.text, version: open.version, uri: open.uri };
  }
  if (!resolved.exists) {
    return { ok: true, resolved, source: 'missing', text: '', version: null, uri: resolved.uri };
  }
  const disk = await readTextFile(resolved.absPath, resolved.relPath, state.settings.maxFileSize, { confined: true });
  if (!disk.ok) {
    if (disk.kind === 'file_not_found') return { ok: true, resolved, source: 'missing', text: '', version: null, uri: resolved.uri };
    return disk;
  }
  return { ok: true, resolved, source: 'disk', text: disk.text, version: null, uri: resolved.uri, disk };
}

/** See FilesPort.unchangedSince: one lstat for a closed file, nothing read. */
function unchangedSince(state: ServerState, snapshot: Snapshot): boolean {
  const { absPath, uri } = snapshot.resolved;
  const open = state.documents.getByPath(absPath) ?? state.documents.get(uri);
  if (snapshot.source === 'editor') return open !== undefined && open.uri === snapshot.uri && open.version === snapshot.version;
  if (open) return false;
  let st;
  try {
    st = lstatSync(absPath, { bigint: true });
  } catch (error) {
    const code = errnoCode(error);
    return snapshot.source === 'missing' && (code === 'ENOENT' || code === 'ENOTDIR');
  }
  return snapshot.source === 'disk' && st.isFile() && fileStamp(st) === snapshot.disk?.stamp;
}

/** editls.undo of a create: the file goes only if it is closed and still holds exactly what editls wrote. */
async function removeCreatedFile(state: ServerState, resolved: ResolvedPath, file: JournalFile): Promise<Result<{}>> {
  if (state.documents.getByPath(resolved.absPath) ?? state.documents.get(resolved.uri)) {
    return fail('apply_rejected', `${resolved.relPath} was created by editls and is open in the editor; close it (or delete it there) to undo its creation`);
  }
  // Read and unlinked through the file's pinned folder, checked again right before the unlink: a folder
  // on the path swapped for a symlink meanwhile never makes editls read or delete outside the workspace.
  const pinned = await pinFolder(path.dirname(resolved.absPath), { mkdirs: false, within: resolved.folder, displayPath: resolved.relPath });
  if (!pinned.ok) return pinned;
  const folder = pinned.folder;
  try {
    const disk = await readTextFile(resolved.absPath, resolved.relPath, state.settings.maxFileSize, { confined: true });
    if (!disk.ok) return disk.kind === 'file_not_found' ? fail('stale', `${resolved.relPath} was already deleted; nothing to undo`) : disk;
    if (disk.bom || !state.journal.holdsWhatEditlsLeft(file, disk.text)) {
      return fail('stale', `${resolved.relPath} changed since editls created it; undoing the creation would lose those changes, so nothing was changed`);
    }
    if (!folder.stillAt()) return fail('stale', `the folder of ${resolved.relPath} was moved or replaced while undo ran; nothing was deleted`);
    await fsp.unlink(folder.at(path.basename(resolved.absPath)));
  } catch (error) {
    return fail('io_error', `cannot delete ${resolved.relPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    await folder.close();
  }
  return { ok: true };
}
