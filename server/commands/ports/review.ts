// The review port: previews remembered for approval (editls.applyPreview, code actions, hint
// diagnostics) and the undo journal (editls.undo). Implemented by server/workspace/editor/previews.ts
// and server/workspace/editor/undoJournal.ts.
import type { SpanEdit } from '../../core/text/spanEdit.js';
import type { PlannedChange } from './apply.js';
import type { FileEncoding } from './files.js';

/** One file's part of a journal entry. */
export interface JournalFile {
  absPath: string;
  relPath: string;
  uri: string;
  /**
   * SHA-256 and length (UTF-16 units) of the BOM-less text editls left: the digest of its UTF-16 code
   * units, or with `afterBytes`, of the bytes editls wrote (the text in that encoding, BOM included).
   */
  afterDigest: string;
  afterLength: number;
  afterBytes?: { encoding: FileEncoding; bom: boolean };
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
  /**
   * Who writes the change once it is accepted, when not editls: an agent CLI that asked its IDE to
   * review its own edit (Claude Code's or Gemini CLI's openDiff). Applying such a preview writes
   * nothing: it ends as applied, the agent hears "accepted" and writes the file itself.
   */
  writer?: string;
}

/** How a preview ended: applied (with the result its applier got), discarded, or expired (its text moved on, or it was forgotten). */
export type PreviewEnd = { how: 'applied'; value: unknown } | { how: 'discarded' } | { how: 'expired'; why: string };

/** Publishes hint diagnostics for the ranges each preview would change. */
export interface PreviewStore {
  /** Remembers a preview and returns its id. */
  add(command: string, changes: readonly PlannedChange[], writer?: string): string;
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

export interface ReviewPort {
  /** Previews remembered for approval (editls.applyPreview, code actions, hint diagnostics). */
  readonly previews: PreviewStore;
  /** The undo journal (editls.undo): what editls left in each file and how to restore what it replaced. */
  readonly journal: UndoJournalView;
}
