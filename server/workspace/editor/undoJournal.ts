// The undo journal behind editls.undo: for each applied (non-preview) command, per file, the text
// editls left (as a SHA-256 and a length) and the inverse span edits that restore what it replaced,
// and whose command it was (the editor's user, or one attached agent): each requester sees and
// undoes only its own. Kept in memory, at most `undoDepth` changes per file (all requesters
// together); nothing of the file's text is kept beyond the replaced spans (each copied: core/text/flatCopy.ts).
import { piecesOf, throughEdits, type EditedText } from '../../core/text/editedText.js';
import { flatCopy } from '../../core/text/flatCopy.js';
import type { SpanEdit } from '../../core/text/spanEdit.js';
import type { JournalEntry, JournalFile, UndoJournalView } from '../../commands/ports/review.js';
import { SLICE_MS } from '../timeSlice.js';
import type { FileEncoding } from '../../commands/ports/files.js';
import { encodeText } from '../disk/fileCodec.js';

/** An entry and whose command it was. */
interface OwnedEntry extends JournalEntry {
  owner: string;
}

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
  /**
   * For a change that let its texts go (PlannedChange.released; `before` and `after` are then ''):
   * the digest and length of what it wrote, its inverse edits, and the file's encoding.
   */
  written?: { digest: string; length: number; inverse: SpanEdit[]; encoding: FileEncoding; bom: boolean };
}

/**
 * SHA-256 of a text's UTF-16 code units (a lone surrogate is kept as it is), piece by piece and a
 * million units at a time, so that neither the text (an EditedText's pieces are never joined) nor
 * one encoding of all of it is built.
 */
export function textDigest(text: string | EditedText): string {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const piece of piecesOf(text)) {
    for (let at = 0; at < piece.length; at += DIGEST_CHUNK) hash.update(piece.length <= DIGEST_CHUNK ? piece : piece.slice(at, at + DIGEST_CHUNK), 'utf16le');
  }
  return hash.digest('hex');
}

const DIGEST_CHUNK = 1 << 20;

/** SHA-256 (hex) of bytes: the digest of a text as written (JournalFile.afterBytes). */
export function bytesDigest(bytes: Buffer): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

/** No lone surrogate (String.prototype.isWellFormed, which Node 20's types do not name). */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** How long after a command is recorded its digests still wait for the server's messages to leave (UndoJournal's pendingWrites). */
const SETTLE_WAIT_MS = 2000;

/**
 * Edits that turn the text after `edits` back into `before`, in the after text's offsets. Each
 * replaced span is its own string (flatCopy): the journal keeps nothing else of `before`.
 */
export function inverseEdits(before: string, edits: readonly SpanEdit[]): SpanEdit[] {
  const inverse: SpanEdit[] = [];
  let shift = 0;
  for (const e of edits) {
    const start = e.start + shift;
    inverse.push({ start, end: start + e.newText.length, newText: flatCopy(before.slice(e.start, e.end)) });
    shift += e.newText.length - (e.end - e.start);
  }
  return inverse;
}

/** The text a change left, read through its edits (never built: see core/text/editedText.ts). */
function afterOf(c: RecordedChange): string | EditedText {
  return c.created ? c.after : throughEdits(c.before, c.edits, c.after);
}

export class UndoJournal {
  private entries: OwnedEntry[] = [];
  /** How many entries hold each file (all requesters together), kept with `entries`: `trim` reads it rather than counting the whole journal at every record. */
  private readonly perFile = new Map<string, number>();
  private seq = 0;
  /** Files whose digest and inverse edits are still to be worked out (right after the command answered). */
  private readonly pending = new Map<JournalFile, RecordedChange>();

  /**
   * `pendingWrites`: while the server's messages are still on their way to the client, a promise of
   * the moment they have left (ServerHooks.pendingWrites): the digests wait for it (until
   * SETTLE_WAIT_MS after the command was recorded), so that the command's answer leaves first.
   */
  constructor(
    private readonly depth: () => number,
    private readonly pendingWrites?: () => Promise<void> | undefined,
  ) {}

  /**
   * Records one applied command (all its files); a command that changed nothing records nothing. The
   * SHA-256 of a 10 MB text and 100,000 inverse edits cost tens of milliseconds, so they are worked out
   * once the command has answered (or as soon as anything asks for them, whichever comes first).
   */
  record(owner: string, command: string, changes: readonly RecordedChange[]): void {
    const files: JournalFile[] = [];
    for (const c of changes) {
      if (!c.created && c.edits.length === 0) continue;
      const where = { absPath: c.absPath, relPath: c.relPath, uri: c.uri, created: c.created };
      if (c.written) {
        const { digest, length, inverse, encoding, bom } = c.written;
        files.push({ ...where, afterDigest: digest, afterLength: length, afterBytes: { encoding, bom }, inverse });
        continue;
      }
      const file: JournalFile = { ...where, afterDigest: '', afterLength: c.after.length, inverse: [] };
      this.pending.set(file, c);
      files.push(file);
    }
    if (files.length === 0) return;
    this.entries.push({ seq: ++this.seq, command, files, owner });
    for (const f of files) this.counted(f.absPath, 1);
    this.trim(files.map((f) => f.absPath));
    this.settleLater(files, 0);
  }

  /**
   * Settles `files` from `from` on, a few milliseconds at a time (4,000 files' digests take ~170 ms:
   * other requests go between), each slice once the server's messages have left (`pendingWrites`),
   * until `deadline` (SETTLE_WAIT_MS after the command was recorded; a client that stops reading).
   */
  private settleLater(files: readonly JournalFile[], from: number, deadline = performance.now() + SETTLE_WAIT_MS): void {
    setImmediate(() => {
      const unsent = performance.now() < deadline ? this.pendingWrites?.() : undefined;
      if (unsent) {
        // Whichever comes first: the messages have left, or the deadline.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const go = () => {
          if (timer === undefined) return;
          clearTimeout(timer);
          timer = undefined;
          this.settleLater(files, from, deadline);
        };
        timer = setTimeout(go, Math.max(0, deadline - performance.now()));
        timer.unref();
        void unsent.then(go);
        return;
      }
      const until = performance.now() + SLICE_MS;
      let i = from;
      while (i < files.length && (i === from || performance.now() < until)) this.settle(files[i++]!);
      if (i < files.length) this.settleLater(files, i, deadline);
    });
  }

  /** Works out a file's digest and inverse edits if that is still to do. */
  private settle(file: JournalFile): void {
    const c = this.pending.get(file);
    if (!c) return;
    this.pending.delete(file);
    file.afterDigest = textDigest(afterOf(c));
    file.inverse = c.created ? [] : inverseEdits(c.before, c.edits);
  }

  /** What one requester sees: its own entries only. */
  viewFor(owner: string): UndoJournalView {
    return {
      latest: (absPath) => this.latest(owner, absPath),
      forget: (seq, absPaths) => this.forget(owner, seq, absPaths),
      depthOf: (absPath) => this.depthOf(absPath, owner),
      holdsWhatEditlsLeft: (file, text) => this.holdsWhatEditlsLeft(file, text),
    };
  }

  /** `owner`'s most recent entry touching `absPath`, or its most recent entry of all. */
  latest(owner: string, absPath?: string): JournalEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.owner === owner && (absPath === undefined || e.files.some((f) => f.absPath === absPath))) {
        for (const f of e.files) this.settle(f);
        return e;
      }
    }
    return undefined;
  }

  /** Forgets the given files of `owner`'s entry (after they were undone); an emptied entry goes. */
  forget(owner: string, seq: number, absPaths: readonly string[]): void {
    const entry = this.entries.find((e) => e.seq === seq && e.owner === owner);
    if (!entry) return;
    const kept = entry.files.filter((f) => !absPaths.includes(f.absPath));
    for (const f of entry.files) {
      if (kept.includes(f)) continue;
      this.counted(f.absPath, -1);
      this.pending.delete(f);
    }
    entry.files = kept;
    if (entry.files.length === 0) this.entries = this.entries.filter((e) => e !== entry);
  }

  private counted(absPath: string, delta: number): void {
    const n = (this.perFile.get(absPath) ?? 0) + delta;
    if (n > 0) this.perFile.set(absPath, n);
    else this.perFile.delete(absPath);
  }

  holdsWhatEditlsLeft(file: JournalFile, text: string): boolean {
    if (text.length !== file.afterLength) return false;
    const pending = this.pending.get(file);
    if (pending) {
      const after = afterOf(pending);
      return typeof after === 'string' ? text === after : after.equals(text);
    }
    if (file.afterBytes) {
      // The text as the bytes editls wrote: encoding is one to one for a well-formed text only.
      return isWellFormed(text) && bytesDigest(encodeText(text, file.afterBytes.encoding, file.afterBytes.bom)) === file.afterDigest;
    }
    return textDigest(text) === file.afterDigest;
  }

  /** How many changes to `absPath` can be undone (by `owner`, or by anyone). */
  depthOf(absPath: string, owner?: string): number {
    return this.entries.reduce((n, e) => n + ((owner === undefined || e.owner === owner) && e.files.some((f) => f.absPath === absPath) ? 1 : 0), 0);
  }

  /**
   * Keeps at most `undoDepth` changes per file: the oldest go first. Reads the files' counts kept
   * with the entries (`perFile`), so a record whose files are within their depth costs nothing more
   * however large the journal (counting it took ~10 ms a record once it held 80,000 files); one that
   * is not walks the entries from the oldest until the excess is gone. (A command of 4,000 files
   * once spent ~140 ms here, counting each file's entries one file at a time.)
   */
  private trim(absPaths: readonly string[]): void {
    const max = Math.max(0, this.depth());
    const excess = new Map<string, number>();
    for (const p of absPaths) {
      const n = (this.perFile.get(p) ?? 0) - max;
      if (n > 0) excess.set(p, n);
    }
    if (excess.size === 0) return;
    let emptied = false;
    for (const e of this.entries) {
      if (excess.size === 0) break;
      const dropped = e.files.filter((f) => excess.has(f.absPath));
      if (dropped.length === 0) continue;
      e.files = e.files.filter((f) => !excess.has(f.absPath));
      emptied ||= e.files.length === 0;
      for (const f of dropped) {
        this.pending.delete(f);
        this.counted(f.absPath, -1);
        const left = excess.get(f.absPath)! - 1;
        if (left > 0) excess.set(f.absPath, left);
        else excess.delete(f.absPath);
      }
    }
    if (emptied) this.entries = this.entries.filter((e) => e.files.length > 0);
  }
}
