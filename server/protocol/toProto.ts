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
import { LineIndex, type PositionEncoding } from '../core/text/positions.js';

export function toTextEdits(text: string, edits: readonly SpanEdit[], encoding: PositionEncoding, index?: LineIndex): TextEdit[] {
  const lines = index ?? new LineIndex(text);
  return [...edits]
    .sort((a, b) => a.start - b.start)
    .map((e) => ({
      range: { start: lines.positionAt(e.start, encoding), end: lines.positionAt(e.end, encoding) },
      newText: e.newText,
    }));
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
