// The undo journal behind editls.undo: for each applied (non-preview) command, per file, the text
// editls left (as a SHA-256 and a length) and the inverse span edits that restore what it replaced.
// Kept in memory, at most `undoDepth` changes per file; nothing of the file's text is kept beyond
// the replaced spans.
import { createHash } from 'node:crypto';
import type { SpanEdit } from '../core/text/spanEdit.js';
import type { JournalEntry, JournalFile, UndoJournalView } from '../commands/context.js';

/** What a change did to one file, as recorded after it was applied. */
export interface RecordedChange {
  absPath: string;
  relPath: string;
  uri: string;
  /** The BOM-less text before the change ('' for a created file). */
  before: string;
  /** Edits against `before`, sorted and non-overlapping. */
  edits: readonly SpanEdit[];
  /** The BOM-less text editls left. */
  after: string;
  created: boolean;
}

export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Edits that turn the text after `edits` back into `before`, in the after text's offsets. */
export function inverseEdits(before: string, edits: readonly SpanEdit[]): SpanEdit[] {
  const inverse: SpanEdit[] = [];
  let shift = 0;
  for (const e of edits) {
    const start = e.start + shift;
    inverse.push({ start, end: start + e.newText.length, newText: before.slice(e.start, e.end) });
    shift += e.newText.length - (e.end - e.start);
  }
  return inverse;
}

export class UndoJournal implements UndoJournalView {
  private entries: JournalEntry[] = [];
  private seq = 0;

  constructor(private readonly depth: () => number) {}

  /** Records one applied command (all its files); a command that changed nothing records nothing. */
  record(command: string, changes: readonly RecordedChange[]): void {
    const files: JournalFile[] = changes
      .filter((c) => c.created || c.edits.length > 0)
      .map((c) => ({
        absPath: c.absPath,
        relPath: c.relPath,
        uri: c.uri,
        afterDigest: textDigest(c.after),
        afterLength: c.after.length,
        inverse: c.created ? [] : inverseEdits(c.before, c.edits),
        created: c.created,
      }));
    if (files.length === 0) return;
    this.entries.push({ seq: ++this.seq, command, files });
    this.trim(files.map((f) => f.absPath));
  }

  /** The most recent entry touching `absPath`, or the most recent entry of all. */
  latest(absPath?: string): JournalEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (absPath === undefined || e.files.some((f) => f.absPath === absPath)) return e;
    }
    return undefined;
  }

  /** Forgets the given files of an entry (after they were undone); an emptied entry goes. */
  forget(seq: number, absPaths: readonly string[]): void {
    const entry = this.entries.find((e) => e.seq === seq);
    if (!entry) return;
    entry.files = entry.files.filter((f) => !absPaths.includes(f.absPath));
    if (entry.files.length === 0) this.entries = this.entries.filter((e) => e !== entry);
  }

  holdsWhatEditlsLeft(file: JournalFile, text: string): boolean {
    return text.length === file.afterLength && textDigest(text) === file.afterDigest;
  }

  /** How many changes to `absPath` can be undone. */
  depthOf(absPath: string): number {
    return this.entries.reduce((n, e) => n + (e.files.some((f) => f.absPath === absPath) ? 1 : 0), 0);
  }

  /** Keeps at most `undoDepth` changes per file: the oldest go first. */
  private trim(absPaths: readonly string[]): void {
    const max = Math.max(0, this.depth());
    for (const p of absPaths) {
      let excess = this.depthOf(p) - max;
      for (const e of this.entries) {
        if (excess <= 0) break;
        if (e.files.some((f) => f.absPath === p)) {
          e.files = e.files.filter((f) => f.absPath !== p);
          excess--;
        }
      }
    }
    this.entries = this.entries.filter((e) => e.files.length > 0);
  }
}
