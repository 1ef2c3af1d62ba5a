// Converts core values (SpanEdits on a text, in UTF-16 offsets) into LSP shapes in the negotiated
// position encoding: TextEdits, versioned TextDocumentEdits, CreateFile operations and the
// WorkspaceEdit in the form the client can take (`documentChanges` or plain `changes`).
import type {
  AnnotatedTextEdit,
  ChangeAnnotation,
  CreateFile,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import type { SpanEdit } from '../core/text/spanEdit.js';
import type { LineIndex, PositionEncoding } from '../core/text/positions.js';
import { positionsAt } from '../core/text/sparsePositions.js';

export function toTextEdits(text: string, edits: readonly SpanEdit[], encoding: PositionEncoding, index?: LineIndex): TextEdit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  if (index) {
    return sorted.map((e) => ({ range: { start: index.positionAt(e.start, encoding), end: index.positionAt(e.end, encoding) }, newText: e.newText }));
  }
  // One forward scan for all edit boundaries: no full line index for a 10 MB file with one edit.
  const positions = positionsAt(text, sorted.flatMap((e) => [e.start, e.end]), encoding);
  return sorted.map((e, i) => ({ range: { start: positions[2 * i]!, end: positions[2 * i + 1]! }, newText: e.newText }));
}

export interface DocumentChange {
  uri: string;
  /** The editor's version for an open document; null for a document the client has not opened. */
  version: number | null;
  edits: TextEdit[];
  /** Create the file first (CreateFile with ignoreIfExists, so an existing file is never truncated). */
  create: boolean;
}

export interface WorkspaceEditForm {
  documentChanges: boolean;
  /** When set, every edit carries this change annotation (needsConfirmation for `confirm: true`). */
  annotation?: { id: string; annotation: ChangeAnnotation };
}

export function buildWorkspaceEdit(changes: readonly DocumentChange[], form: WorkspaceEditForm): WorkspaceEdit {
  if (!form.documentChanges) {
    const plain: Record<string, TextEdit[]> = {};
    for (const c of changes) plain[c.uri] = [...(plain[c.uri] ?? []), ...c.edits];
    return { changes: plain };
  }
  const documentChanges: (TextDocumentEdit | CreateFile)[] = [];
  for (const c of changes) {
    if (c.create) {
      const create: CreateFile = { kind: 'create', uri: c.uri, options: { ignoreIfExists: true } };
      if (form.annotation) create.annotationId = form.annotation.id;
      documentChanges.push(create);
    }
    const edits: (TextEdit | AnnotatedTextEdit)[] = form.annotation
      ? c.edits.map((e) => ({ ...e, annotationId: form.annotation!.id }))
      : c.edits;
    if (edits.length > 0) documentChanges.push({ textDocument: { uri: c.uri, version: c.version }, edits });
  }
  const edit: WorkspaceEdit = { documentChanges };
  if (form.annotation) edit.changeAnnotations = { [form.annotation.id]: form.annotation.annotation };
  return edit;
}
