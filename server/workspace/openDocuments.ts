// The documents the editor has open: text and version per URI, kept with incremental sync, and
// which URIs are open for each real path (one file may be open under several, e.g. through a symlink).
// vscode-languageserver-textdocument counts UTF-16 only, so didChange ranges are converted from
// the negotiated encoding one change at a time (each change sees the result of the previous).
import { TextDocuments, type TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PositionEncoding } from '../core/text/positions.js';
import { toUtf16Position } from '../protocol/fromProto.js';
import { realpathOrSelf, uriToPath } from './paths.js';

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
    const encoding = this.encoding();
    let current = doc;
    for (const change of changes) {
      if ('range' in change && encoding !== 'utf-16') {
        const lineText = (line: number) => lineWithoutBreak(current, line);
        const converted = {
          range: {
            start: toUtf16Position(change.range.start, lineText, encoding),
            end: toUtf16Position(change.range.end, lineText, encoding),
          },
          text: change.text,
        };
        current = TextDocument.update(current, [converted], version);
      } else {
        current = TextDocument.update(current, [change], version);
      }
    }
    return current;
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

function lineWithoutBreak(doc: TextDocument, line: number): string {
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return text.replace(/\r?\n$|\r$/, '');
}
