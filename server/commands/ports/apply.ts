// The applying port: carrying planned changes out (through the editor's workspace/applyEdit for open
// documents, atomic disk writes for the rest, or as a preview), and the editor's habits a change
// must fit (its position encoding, what it does with a carriage return).
// Implemented by server/workspace/editor/applyEdits.ts through server/workspace/context.ts.
import type { WorkspaceEdit } from 'vscode-languageserver';
import type { Result } from '../../core/result.js';
import type { SpanEdit } from '../../core/text/spanEdit.js';
import type { Snapshot } from './files.js';

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
  /** A multi-file disk write's split (ms): temp files written and fsynced (one step), then renamed and checked. */
  diskTimings?: { writeMs: number; renameMs: number };
  /**
   * After a person's review (VS Code's Refactor Preview), the changes as they landed, same order:
   * null for one left out (unticked; its `via` is null too), a copy holding only the edits that
   * landed for one applied in part. Absent: every change landed as planned.
   */
  landed?: (PlannedChange | null)[];
}

export interface ApplyOptions {
  confirm: boolean;
  label: string;
  /** false: not recorded in the undo journal (an undo's own changes). */
  record?: boolean;
  /**
   * CPU work of the command's own (e.g. its result's diffs) that apply runs, at most once, while a
   * batch of disk writes waits on the disk (its fsyncs); it may not run at all.
   */
  whileWriting?: () => void;
}

export interface ApplyPort {
  /**
   * What the editor does with a carriage return in an edit's new text: keeps it, turns it into a
   * line break (Neovim 0.7-0.11), or drops it (lsp-mode). An edit needing one cannot land exactly there.
   */
  readonly carriageReturns: 'keep' | 'lineBreak' | 'drop';
  /** Carries changes out; an applied (non-preview) command is recorded in the undo journal unless `record` is false. */
  apply(changes: readonly PlannedChange[], mode: ApplyMode, options: ApplyOptions): Promise<Result<ApplyOutcome>>;
}
