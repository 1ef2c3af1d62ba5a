// The interface commands use to reach the outside world (paths, documents, locks, applying edits,
// logging). It is implemented in server/workspace/context.ts; commands never touch fs or the
// connection directly, so they stay testable and the dependency rule holds.
import type { WorkspaceEdit } from 'vscode-languageserver';
import type { Result } from '../core/result.js';
import type { ScanJob, ScanReply } from '../core/edits/regexScan.js';
import type { SpanEdit } from '../core/text/spanEdit.js';
import type { PositionEncoding } from '../core/text/positions.js';
import type { Settings } from '../settings.js';
import type { ResolvedPath } from '../workspace/disk/paths.js';
import type { DiskText } from '../workspace/disk/fileCodec.js';
import type { ProgressHandle } from '../workspace/progress.js';
import type { SearchOutcome, SearchRequest } from '../workspace/search/ripgrepSearch.js';
import type { CandidateRequest } from '../workspace/search/replaceCandidates.js';
import type { SymbolHit } from '../core/symbols/types.js';

/** What a command computes on: the open buffer when the editor has the file open, else the disk copy. */
export interface Snapshot {
  resolved: ResolvedPath;
  source: 'editor' | 'disk' | 'missing';
  /** The text to edit: the buffer as the editor holds it, or the decoded disk text without its BOM. */
  text: string;
  /** The editor's version of an open document; null otherwise. */
  version: number | null;
  /** The editor's own URI for an open document, else the resolved file URI. */
  uri: string;
  disk?: DiskText;
}

export interface PlannedChange {
  snapshot: Snapshot;
  newText: string;
  /** Edits against snapshot.text. */
  edits: SpanEdit[];
  created: boolean;
  replacements: number;
}

export type ApplyMode = 'auto' | 'editor' | 'disk' | 'preview';
export type Via = 'editor' | 'disk' | null;
export interface EditOmitted {
  textEdits: number;
  reason: string;
}

export interface ApplyOutcome {
  /** One entry per planned change, same order. */
  via: Via[];
  /** The WorkspaceEdit that was (or, for a preview, would be) applied; absent when every change's
   *  edit was omitted (see `editOmitted`). */
  edit?: WorkspaceEdit;
  /** Changes written to disk with more than `maxResultEdits` TextEdits: their TextEdits were never
   *  built and are left out of `edit`; `textEdits` counts them. Previews and editor edits are never omitted. */
  editOmitted?: EditOmitted;
  /** Human notes, e.g. "save the buffer: the editor holds the edit unsaved". */
  notes: string[];
  /** A multi-file disk write's split (ms): temp files written, fsynced, then renamed and checked. */
  diskTimings?: { writeMs: number; fsyncMs: number; renameMs: number };
  /**
   * After a person's review (VS Code's Refactor Preview), the changes as they landed, same order:
   * null for one left out (unticked; its `via` is null too), a copy holding only the edits that
   * landed for one applied in part. Absent: every change landed as planned.
   */
  landed?: (PlannedChange | null)[];
}

export interface Context {
  readonly settings: Settings;
  readonly encoding: PositionEncoding;
  /**
   * What the editor does with a carriage return in an edit's new text: keeps it, turns it into a
   * line break (Neovim 0.7-0.11), or drops it (lsp-mode). An edit needing one cannot land exactly there.
   */
  readonly carriageReturns: 'keep' | 'lineBreak' | 'drop';
  /** Aborted when the client cancels the request ($/cancelRequest). */
  readonly signal: AbortSignal;
  /** The client's workDoneToken from the request params, if any (for $/progress). */
  readonly workDoneToken?: string | number;
  resolvePath(input: string): Promise<Result<ResolvedPath>>;
  snapshot(resolved: ResolvedPath): Promise<Result<Snapshot>>;
  /** Serialises commands touching the same files (keys are absolute paths). */
  withFiles<T>(absPaths: readonly string[], fn: () => Promise<T>): Promise<T>;
  /** Carries changes out; an applied (non-preview) command is recorded in the undo journal unless `record` is false. */
  /**
   * `whileWriting`: CPU work of the command's own (e.g. its result's diffs) that apply runs, at most
   * once, while a batch of disk writes waits on the disk (its fsyncs); it may not run at all.
   */
  apply(changes: readonly PlannedChange[], mode: ApplyMode, options: { confirm: boolean; label: string; record?: boolean; whileWriting?: () => void }): Promise<Result<ApplyOutcome>>;
  /** The undo journal (editls.undo): what editls left in each file and how to restore what it replaced. */
  readonly journal: UndoJournalView;
  /** Deletes a file editls created, if it is closed and still holds exactly what editls wrote (editls.undo of a create). */
  removeCreatedFile(resolved: ResolvedPath, file: JournalFile): Promise<Result<{}>>;
  log(message: string): void;
  /** A one-line summary for the user (window/showMessage when `summary` is "message", else the log); errors show as errors. */
  summarize(message: string, level?: 'info' | 'error'): void;
  /** Previews remembered for approval (editls.applyPreview, code actions, hint diagnostics). */
  readonly previews: PreviewStore;
  /** Runs a regex scan off the main thread, stopped after `regexTimeoutMs` (problem "timeout") or on cancellation. */
  scanRegex(job: ScanJob): Promise<ScanReply>;
  /** Like resolvePath, but a folder (the workspace folder itself too, as ".") is allowed: a searchFiles scope. */
  resolveSearchScope(input: string): Promise<Result<ResolvedPath>>;
  /** Runs ripgrep over the scope (workspace/search/ripgrepSearch.ts); open buffers are searched instead of their disk copies. */
  searchFiles(request: SearchRequest): Promise<Result<SearchOutcome>>;
  /** editls.replaceInFiles' files: what ripgrep would search under the scope (narrowed by an exact literal), plus open buffers there, in path order. */
  listReplaceCandidates(request: CandidateRequest): Promise<Result<{ files: string[]; notes: string[] }>>;
  /** $/progress on the request's workDoneToken, else (client permitting) on a token created after `delayMs`. */
  startProgress(title: string, options?: { delayMs?: number }): ProgressHandle;
  /** workspace/symbol: ranked definitions from the symbol index, capped at `maxSymbols`; `cancelled` on $/cancelRequest. */
  searchSymbols(query: string): Promise<Result<{ symbols: SymbolHit[] }>>;
}

/** One file's part of a journal entry. */
export interface JournalFile {
  absPath: string;
  relPath: string;
  uri: string;
  /** SHA-256 (of its UTF-8 form) and length (UTF-16 units) of the BOM-less text editls left. */
  afterDigest: string;
  afterLength: number;
  /** Edits against that text that restore what the change replaced (empty for a created file). */
  inverse: SpanEdit[];
  created: boolean;
}

/** One applied command in the undo journal. */
export interface JournalEntry {
  seq: number;
  /** The command's label, e.g. "editls.edit src/a.ts". */
  command: string;
  files: JournalFile[];
}

/** Implemented in server/workspace/editor/undoJournal.ts. */
export interface UndoJournalView {
  /** The most recent entry touching `absPath`, or the most recent of all. */
  latest(absPath?: string): JournalEntry | undefined;
  /** Forgets these files of the entry (they were undone). */
  forget(seq: number, absPaths: readonly string[]): void;
  /** How many changes to the file can still be undone. */
  depthOf(absPath: string): number;
  /** Whether `text` is exactly what editls left in the file. */
  holdsWhatEditlsLeft(file: JournalFile, text: string): boolean;
}

/** A preview remembered under an id: the planned changes exactly as computed, re-checked before applying. */
export interface PreviewRecord {
  id: string;
  command: string;
  changes: readonly PlannedChange[];
  replacements: number;
}

/** How a preview ended: applied (with the result its applier got), discarded, or expired (its text moved on, or it was forgotten). */
export type PreviewEnd = { how: 'applied'; value: unknown } | { how: 'discarded' } | { how: 'expired'; why: string };

/** Implemented in server/workspace/editor/previews.ts; publishes hint diagnostics for the ranges each preview would change. */
export interface PreviewStore {
  /** Remembers a preview and returns its id. */
  add(command: string, changes: readonly PlannedChange[]): string;
  get(id: string): PreviewRecord | undefined;
  /** Live previews touching the file (absolute, realpath'd), oldest first. */
  touching(absPath: string): PreviewRecord[];
  /**
   * These previews are being applied: until `done`, changes to their documents (the apply's own)
   * do not end them as out of date; the applier ends them with `remove`.
   */
  applying(ids: readonly string[]): { done(): void };
  /** Ends these previews, saying how (anyone waiting on `ended` hears it). */
  remove(ids: readonly string[], end: PreviewEnd): void;
  /** Settles when the preview ends, however it ends; undefined when there is no such live preview. */
  ended(id: string): Promise<PreviewEnd> | undefined;
}
