// The interface commands use to reach the outside world (paths, documents, locks, applying edits,
// logging). It is implemented in server/workspace/context.ts; commands never touch fs or the
// connection directly, so they stay testable and the dependency rule holds.
import type { WorkspaceEdit } from 'vscode-languageserver';
import type { Result } from '../core/result.js';
import type { SpanEdit } from '../core/text/spanEdit.js';
import type { PositionEncoding } from '../core/text/positions.js';
import type { Settings } from '../settings.js';
import type { ResolvedPath } from '../workspace/paths.js';
import type { DiskText } from '../workspace/fileCodec.js';

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

export interface ApplyOutcome {
  /** One entry per planned change, same order. */
  via: Via[];
  /** The WorkspaceEdit that was (or, for a preview, would be) applied. */
  edit: WorkspaceEdit;
  /** Human notes, e.g. "save the buffer: the editor holds the edit unsaved". */
  notes: string[];
}

export interface Context {
  readonly settings: Settings;
  readonly encoding: PositionEncoding;
  /** Aborted when the client cancels the request ($/cancelRequest). */
  readonly signal: AbortSignal;
  /** The client's workDoneToken from the request params, if any (for $/progress). */
  readonly workDoneToken?: string | number;
  resolvePath(input: string): Promise<Result<ResolvedPath>>;
  snapshot(resolved: ResolvedPath): Promise<Result<Snapshot>>;
  /** Serialises commands touching the same files (keys are absolute paths). */
  withFiles<T>(absPaths: readonly string[], fn: () => Promise<T>): Promise<T>;
  apply(changes: readonly PlannedChange[], mode: ApplyMode, options: { confirm: boolean; label: string }): Promise<Result<ApplyOutcome>>;
  log(message: string): void;
  /** A one-line summary for the user (window/showMessage when `summary` is "message", else the log). */
  summarize(message: string): void;
}
