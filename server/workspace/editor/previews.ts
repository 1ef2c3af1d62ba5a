// The preview store: previews remembered under ids until they are applied, discarded, or a document
// they touch changes (or editls writes one of their files). It publishes hint diagnostics on the
// ranges each live preview would change, and clears them when the preview goes.
import type { Diagnostic } from 'vscode-languageserver';
import type { PlannedChange } from '../../commands/ports/apply.js';
import type { PreviewEnd, PreviewRecord, PreviewStore } from '../../commands/ports/review.js';
import type { PositionEncoding } from '../../core/text/positions.js';
import { previewDiagnostics } from '../../protocol/previewProto.js';
import { diffStat } from '../../core/edits/unifiedDiff.js';
import { realpathOrSelf, uriToPath } from '../disk/paths.js';

export interface PreviewDeps {
  encoding: () => PositionEncoding;
  /** textDocument/publishDiagnostics for one URI (an empty list clears it). */
  publish: (uri: string, diagnostics: Diagnostic[]) => void;
  log: (message: string) => void;
  /** Oldest previews are forgotten beyond this many (an agent may never apply or discard them). */
  max?: number;
  /** ...or beyond this many UTF-16 units of remembered text (each change keeps its old and new text). */
  maxTextUnits?: number;
}

export const MAX_PREVIEWS = 100;
/** 64 Mi UTF-16 units, at most about 128 MB: three previews of 10 MB files, thousands of small ones. */
export const MAX_PREVIEW_TEXT_UNITS = 64 * 1024 * 1024;

interface Entry {
  record: PreviewRecord;
  /** Text this preview keeps alive (old + new text of every change), in UTF-16 units. */
  size: number;
  /** Diagnostics per document URI, computed once when the preview is made. */
  diagnostics: Map<string, Diagnostic[]>;
  /** Who waits to hear how it ends (a review of an agent's edit). */
  waiting: ((end: PreviewEnd) => void)[];
}

export class Previews implements PreviewStore {
  private readonly entries = new Map<string, Entry>();
  /** Previews being applied, with how many applies hold each: their own document changes do not end them. */
  private readonly beingApplied = new Map<string, number>();
  private counter = 0;
  private totalSize = 0;

  constructor(private readonly deps: PreviewDeps) {}

  add(command: string, changes: readonly PlannedChange[], writer?: string): string {
    const id = `p${++this.counter}`;
    const record: PreviewRecord = { id, command, changes: [...changes], replacements: changes.reduce((n, c) => n + c.replacements, 0), ...(writer === undefined ? {} : { writer }) };
    const diagnostics = new Map<string, Diagnostic[]>();
    for (const c of changes) {
      const base = c.created ? '' : c.snapshot.text;
      const list = previewDiagnostics(id, command, base, c.edits, this.deps.encoding());
      diagnostics.set(c.snapshot.uri, [...(diagnostics.get(c.snapshot.uri) ?? []), ...list]);
    }
    const size = changes.reduce((n, c) => n + c.snapshot.text.length + c.newText.length, 0);
    this.entries.set(id, { record, diagnostics, size, waiting: [] });
    this.totalSize += size;
    const limit = this.deps.max ?? MAX_PREVIEWS;
    const budget = this.deps.maxTextUnits ?? MAX_PREVIEW_TEXT_UNITS;
    const touched = new Set(diagnostics.keys());
    // The newest preview always stays, whatever its size.
    while (this.entries.size > limit || (this.totalSize > budget && this.entries.size > 1)) {
      const oldest = this.entries.keys().next().value as string;
      const entry = this.entries.get(oldest)!;
      for (const uri of entry.diagnostics.keys()) touched.add(uri);
      this.entries.delete(oldest);
      this.totalSize -= entry.size;
      const why = `more than ${this.entries.size >= limit ? `${limit} previews` : 'the preview text budget'} pending`;
      this.deps.log(`preview ${oldest} forgotten: ${why}`);
      for (const hear of entry.waiting) hear({ how: 'expired', why: `it was forgotten (${why})` });
    }
    this.republish(touched);
    return id;
  }

  get(id: string): PreviewRecord | undefined {
    return this.entries.get(id)?.record;
  }

  touching(absPath: string): PreviewRecord[] {
    return [...this.entries.values()].filter((e) => e.record.changes.some((c) => c.snapshot.resolved.absPath === absPath)).map((e) => e.record);
  }

  all(): PreviewRecord[] {
    return [...this.entries.values()].map((e) => e.record);
  }

  remove(ids: readonly string[], end: PreviewEnd): void {
    const touched = new Set<string>();
    const heard: (() => void)[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      for (const uri of entry.diagnostics.keys()) touched.add(uri);
      this.entries.delete(id);
      this.totalSize -= entry.size;
      for (const hear of entry.waiting) heard.push(() => hear(end));
    }
    this.republish(touched);
    for (const h of heard) h();
  }

  applying(ids: readonly string[]): { done(): void } {
    for (const id of ids) this.beingApplied.set(id, (this.beingApplied.get(id) ?? 0) + 1);
    let done = false;
    return {
      done: () => {
        if (done) return;
        done = true;
        for (const id of ids) {
          const n = (this.beingApplied.get(id) ?? 1) - 1;
          if (n > 0) this.beingApplied.set(id, n);
          else this.beingApplied.delete(id);
        }
      },
    };
  }

  /** Lines the whole preview removes and adds (counted on its texts, not on diffs cut for display); undefined when it is gone. */
  stat(id: string): { added: number; removed: number } | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    let added = 0;
    let removed = 0;
    for (const c of record.changes) {
      const stat = diffStat(c.created ? null : c.snapshot.text, c.newText, c.edits);
      added += stat.added;
      removed += stat.removed;
    }
    return { added, removed };
  }

  ended(id: string): Promise<PreviewEnd> | undefined {
    const entry = this.entries.get(id);
    return entry && new Promise((resolve) => entry.waiting.push(resolve));
  }

  /**
   * The store as an attached agent's requests see it: previews another agent's CLI writes (an IDE
   * review, `writer`) are the user's to accept, so they are invisible there — never applied,
   * discarded or listed by an agent.
   */
  withoutWriters(): PreviewStore {
    const mine = (r: PreviewRecord | undefined) => (r && r.writer === undefined ? r : undefined);
    return {
      add: (command, changes) => this.add(command, changes),
      get: (id) => mine(this.get(id)),
      touching: (absPath) => this.touching(absPath).filter((r) => r.writer === undefined),
      applying: (ids) => this.applying(ids.filter((id) => mine(this.get(id)))),
      remove: (ids, end) => this.remove(ids.filter((id) => mine(this.get(id))), end),
      ended: (id) => (mine(this.get(id)) ? this.ended(id) : undefined),
    };
  }

  /**
   * An open document changed (didOpen/didChange): previews computed on other text for that file
   * end. Opening a file whose text is what a preview was computed on keeps the preview.
   */
  documentChanged(uri: string, text: string): void {
    if (this.entries.size === 0) return;
    const absPath = pathOfUri(uri);
    const stale = [...this.entries.values()]
      .filter((e) => !this.beingApplied.has(e.record.id) && e.record.changes.some((c) => (c.snapshot.uri === uri || c.snapshot.resolved.absPath === absPath) && baseText(c) !== text))
      .map((e) => e.record.id);
    if (stale.length > 0) {
      this.deps.log(`preview${stale.length === 1 ? '' : 's'} ${stale.join(', ')} dropped: ${uri} changed`);
      this.remove(stale, { how: 'expired', why: 'the document changed in the editor' });
    }
  }

  /** editls itself changed these files (absolute, realpath'd): previews on them are out of date, except those being applied (their applier ends them). */
  filesChanged(absPaths: readonly string[]): void {
    if (this.entries.size === 0) return;
    const paths = new Set(absPaths);
    const stale = [...this.entries.values()].filter((e) => !this.beingApplied.has(e.record.id) && e.record.changes.some((c) => paths.has(c.snapshot.resolved.absPath))).map((e) => e.record.id);
    if (stale.length > 0) this.remove(stale, { how: 'expired', why: 'editls changed its files since' });
  }

  /** Publishes, for each URI, the diagnostics of every live preview touching it (an empty list clears). */
  private republish(uris: Iterable<string>): void {
    for (const uri of uris) {
      const list: Diagnostic[] = [];
      for (const e of this.entries.values()) list.push(...(e.diagnostics.get(uri) ?? []));
      this.deps.publish(uri, list);
    }
  }
}

/** A created file's preview was computed on no text at all. */
function baseText(c: PlannedChange): string {
  return c.created ? '' : c.snapshot.text;
}

function pathOfUri(uri: string): string | undefined {
  const p = uriToPath(uri);
  return p === undefined ? undefined : realpathOrSelf(p);
}
