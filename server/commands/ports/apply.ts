// The applying port: carrying planned changes out (through the editor's workspace/applyEdit for open
// documents, atomic disk writes for the rest, or as a preview), and the editor's habits a change
// must fit (its position encoding, what it does with a carriage return).
// Implemented by server/workspace/editor/applyEdits.ts through server/workspace/context.ts.
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver';
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
  /**
   * Set once the change's temp file is written, when the command let its texts go (WriteAhead.add
   * with `keepText` false): `snapshot.text`, `snapshot.disk.text` and `newText` then throw when read,
   * and what the rest of the command needs of them is here.
   */
  released?: ReleasedText;
}

/** What a change bound for disk keeps of its texts once they are let go (PlannedChange.released). */
export interface ReleasedText {
  /** The lengths (UTF-16 units) of the text read and of the new text. */
  oldLength: number;
  newLength: number;
  /** Span edits that turn the new text back into the old one (each replaced span a copy of its own). */
  inverse: SpanEdit[];
  /** The change's TextEdits for the result, in the session's position encoding; absent when it has more than maxResultEdits. */
  textEdits?: TextEdit[];
  /** SHA-256 (hex) of the bytes written (in the file's encoding, BOM included): what the undo journal checks against. */
  writtenDigest: string;
  /**
   * A change that never had its texts (SearchPort.matchLiteral): the bytes its temp
   * file is written from (those `writtenDigest` is of), until WriteAhead.add has it written.
   */
  toWrite?: Uint8Array;
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
  /** The disk writes this command started while it computed its changes (ApplyPort.writeAhead). */
  ahead?: WriteAhead;
}

/**
 * Disk writes started while a command still works out its changes (a replaceInFiles reading and
 * matching its next files): the temp file of each change bound for an existing closed file on disk
 * is written as soon as the change is known; `apply` (given it as `ahead`) takes them, checks each
 * file again and publishes them as it would its own. Nothing visible changes before `apply`.
 */
export interface WriteAhead {
  /**
   * A change the command will apply. `keepText` false: once its temp file is written, its texts may be
   * let go (PlannedChange.released): the command will not read them again (e.g. for its result's diffs).
   */
  add(change: PlannedChange, keepText: boolean): void;
  /**
   * Every change of a closed file on disk given to `add` is written ahead (this mode writes closed files
   * to disk): such a change may come with its texts let go from the start (ReleasedText.toWrite).
   */
  readonly writesClosedFiles: boolean;
  /** Once the command has applied (or will not apply): what was written ahead and not used is removed. */
  close(): Promise<void>;
}

export interface ApplyPort {
  /**
   * What the editor does with a carriage return in an edit's new text: keeps it, turns it into a
   * line break (Neovim 0.7-0.11), or drops it (lsp-mode). An edit needing one cannot land exactly there.
   */
  readonly carriageReturns: 'keep' | 'lineBreak' | 'drop';
  /** Carries changes out; an applied (non-preview) command is recorded in the undo journal unless `record` is false. */
  apply(changes: readonly PlannedChange[], mode: ApplyMode, options: ApplyOptions): Promise<Result<ApplyOutcome>>;
  /** Starts writing ahead for an `apply` in `mode` to come (none for a preview, or where not offered). */
  writeAhead?(mode: ApplyMode): WriteAhead | undefined;
}
