// The documents the editor has open: text and version per URI, kept with incremental sync, and
// which URIs are open for each real path (one file may be open under several, e.g. through a symlink).
// vscode-languageserver-textdocument counts UTF-16 only, so didChange ranges are converted from
// the negotiated encoding one change at a time (each change sees the result of the previous).
import { TextDocuments, type Position, type TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PositionEncoding } from '../../core/text/positions.js';
import { utf16Column } from '../../protocol/fromProto.js';
import { realpathOrSelf, uriToPath } from '../disk/paths.js';

export interface OpenDocument {
  uri: string;
  version: number;
  text: string;
}

type Waiter = { uri: string; check: (doc: OpenDocument | undefined) => boolean; resolve: (doc: OpenDocument | undefined) => void };

export class OpenDocuments {
  readonly store: TextDocuments<TextDocument>;
  /** Real path -> the URIs open for it, the one opened or changed last at the end. */
  private readonly byPath = new Map<string, string[]>();
  /** URI -> the real path it had when opened (so that closing it finds it even if links changed since). */
  private readonly pathOf = new Map<string, string>();
  private waiters: Waiter[] = [];

  constructor(private readonly encoding: () => PositionEncoding) {
    this.store = new TextDocuments<TextDocument>({
      create: (uri, languageId, version, content) => TextDocument.create(uri, languageId, version, content),
      update: (doc, changes, version) => this.update(doc, changes, version),
    });
    this.store.onDidOpen((e) => {
      const uri = e.document.uri;
      const p = uriToPath(uri);
      if (p !== undefined) {
        this.forget(uri);
        const real = realpathOrSelf(p);
        this.pathOf.set(uri, real);
        this.byPath.set(real, [...(this.byPath.get(real) ?? []), uri]);
      }
      this.notify(uri);
    });
    this.store.onDidChangeContent((e) => {
      this.touch(e.document.uri);
      this.notify(e.document.uri);
    });
    this.store.onDidClose((e) => {
      this.forget(e.document.uri);
      this.notify(e.document.uri);
    });
  }

  /** Makes `uri` the last one of its file (the buffer the user worked in last). */
  private touch(uri: string): void {
    const real = this.pathOf.get(uri);
    const uris = real === undefined ? undefined : this.byPath.get(real);
    if (real === undefined || uris === undefined || uris[uris.length - 1] === uri) return;
    this.byPath.set(real, [...uris.filter((u) => u !== uri), uri]);
  }

  /** Drops `uri` from its file's list; the file stays open while any other URI of it is. */
  private forget(uri: string): void {
    const real = this.pathOf.get(uri);
    if (real === undefined) return;
    this.pathOf.delete(uri);
    const rest = (this.byPath.get(real) ?? []).filter((u) => u !== uri);
    if (rest.length > 0) this.byPath.set(real, rest);
    else this.byPath.delete(real);
  }

  private update(doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    return applyContentChanges(doc, changes, version, this.encoding());
  }

  get(uri: string): OpenDocument | undefined {
    const doc = this.store.get(uri);
    return doc ? { uri: doc.uri, version: doc.version, text: doc.getText() } : undefined;
  }

  /**
   * The open document for a (realpath'd) file path, whatever URI spelling the editor used; when the
   * file is open under several URIs, the one opened or changed last. Undefined only once every URI
   * of the file is closed.
   */
  getByPath(absPath: string): OpenDocument | undefined {
    const uris = this.byPath.get(absPath);
    return uris === undefined ? undefined : this.get(uris[uris.length - 1]!);
  }

  /** How many URIs the file at this (realpath'd) path is open under. */
  openCount(absPath: string): number {
    return this.byPath.get(absPath)?.length ?? 0;
  }

  all(): OpenDocument[] {
    return this.store.all().map((d) => ({ uri: d.uri, version: d.version, text: d.getText() }));
  }

  /** Resolves with the document once `check` holds for it (checked now and after every open/change/close), or undefined after timeoutMs. */
  waitFor(uri: string, check: (doc: OpenDocument | undefined) => boolean, timeoutMs: number): Promise<OpenDocument | undefined | 'timeout'> {
    const now = this.get(uri);
    if (check(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        uri,
        check,
        resolve: (doc) => {
          clearTimeout(timer);
          resolve(doc);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve('timeout');
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private notify(uri: string): void {
    if (this.waiters.length === 0) return;
    const doc = this.get(uri);
    const remaining: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.uri === uri && w.check(doc)) w.resolve(doc);
      else remaining.push(w);
    }
    this.waiters = remaining;
  }
}

/**
 * Applies didChange content changes one at a time (each sees the result of the previous), converting
 * positions from `encoding`. Editors whose lines are split on \n only (Neovim with fileformat=unix,
 * Emacs with a -unix coding system) hold the \r of a CRLF as the line's last character and address
 * the point between \r and \n as character length+1; vscode-languageserver-textdocument would move
 * that back before the \r (and lose a deleted \r), so such a position is honoured here exactly.
 */
export function applyContentChanges(doc: TextDocument, changes: readonly TextDocumentContentChangeEvent[], version: number, encoding: PositionEncoding): TextDocument {
  let current = doc;
  for (const change of changes) {
    if (!('range' in change)) {
      current = TextDocument.update(current, [change], version);
      continue;
    }
    let start = offsetOf(current, change.range.start, encoding);
    let end = offsetOf(current, change.range.end, encoding);
    if (end < start) [start, end] = [end, start];
    let text = change.text;
    const content = current.getText();
    // The library cannot address the point inside a CRLF: widen the change over the \r or the \n.
    if (insideCrlf(content, start)) {
      start -= 1;
      text = '\r' + text;
    }
    if (insideCrlf(content, end)) {
      end += 1;
      text += '\n';
    }
    const range = { start: current.positionAt(start), end: current.positionAt(end) };
    current = TextDocument.update(current, [{ range, text }], version);
  }
  return current;
}

function insideCrlf(text: string, offset: number): boolean {
  return offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10;
}

/**
 * The UTF-16 offset of `position`: a character past the line's end means its end (before the break),
 * except exactly one unit past the text before a CRLF, which is the point between \r and \n.
 */
function offsetOf(doc: TextDocument, position: Position, encoding: PositionEncoding): number {
  if (position.line >= doc.lineCount) return doc.getText().length;
  if (position.line < 0) return 0;
  const lineStart = doc.offsetAt({ line: position.line, character: 0 });
  const full = doc.getText({ start: { line: position.line, character: 0 }, end: { line: position.line + 1, character: 0 } });
  const content = full.replace(/\r?\n$|\r$/, '');
  if (full.endsWith('\r\n')) {
    const withCr = content + '\r';
    const column = utf16Column(withCr, position.character, encoding);
    const unitsWithCr = encoding === 'utf-16' ? withCr.length : units(withCr, encoding);
    if (column === withCr.length && position.character === unitsWithCr) return lineStart + column;
  }
  return lineStart + utf16Column(content, position.character, encoding);
}

function units(text: string, encoding: PositionEncoding): number {
  if (encoding === 'utf-8') return Buffer.byteLength(text, 'utf8');
  let n = 0;
  for (const _ of text) n++;
  return n;
}
