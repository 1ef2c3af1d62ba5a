// The path every single-file edit command takes: resolve and confine the path, lock the file,
// snapshot it (open buffer wins), let the command's pure computation run, apply the result in the
// requested mode and build the contract's success result with a unified diff.
import type { WorkspaceEdit } from 'vscode-languageserver';
import { fail, type Failure, type Result } from '../core/result.js';
import type { SpanEdit } from '../core/text/spanEdit.js';
import { unifiedDiff } from '../core/edits/unifiedDiff.js';
import type { ApplyMode, Context, PlannedChange, Snapshot, Via } from './context.js';

export interface Computed {
  newText: string;
  edits: SpanEdit[];
  replacements: number;
  created?: boolean;
  /** Extra result fields (matchedBy, details, failedReplacements...). */
  extra?: Record<string, unknown>;
}

export interface FileResult {
  path: string;
  uri: string;
  replacements: number;
  created: boolean;
  via: Via;
  diff: string;
}

export interface EditResult {
  success: true;
  status: 'applied' | 'preview';
  applied: boolean;
  filesChanged: number;
  replacements: number;
  files: FileResult[];
  unifiedDiff: string;
  edit: WorkspaceEdit;
  message: string;
  notes?: string[];
  [extra: string]: unknown;
}

export interface FileEditRequest {
  command: string;
  path: string;
  apply: ApplyMode;
  confirm: boolean;
  /** Computation on the snapshot (pure, or async when it runs off the main thread, e.g. a regex with a
   *  deadline); a missing file reaches it with source "missing" and text "". */
  compute: (snapshot: Snapshot) => Result<Computed> | Promise<Result<Computed>>;
}

export async function runFileEdit(ctx: Context, req: FileEditRequest): Promise<Result<{ value: EditResult }>> {
  const resolved = await ctx.resolvePath(req.path);
  if (!resolved.ok) return resolved;
  return ctx.withFiles([resolved.absPath], async () => {
    const snapshot = await ctx.snapshot(resolved);
    if (!snapshot.ok) return snapshot;
    const computed = await req.compute(snapshot);
    if (!computed.ok) return computed;
    const change: PlannedChange = {
      snapshot,
      newText: computed.newText,
      edits: computed.edits,
      created: computed.created ?? false,
      replacements: computed.replacements,
    };
    const outcome = await ctx.apply([change], req.apply, { confirm: req.confirm, label: `${req.command} ${resolved.relPath}` });
    if (!outcome.ok) return outcome;
    const diff = unifiedDiff(resolved.relPath, change.created ? null : snapshot.text, change.newText, change.edits);
    const preview = req.apply === 'preview';
    const via = outcome.via[0] ?? null;
    const file: FileResult = {
      path: resolved.relPath,
      uri: snapshot.uri,
      replacements: change.replacements,
      created: change.created,
      via,
      diff,
    };
    const message = summaryLine(req.command, file, preview);
    ctx.summarize(message);
    const value: EditResult = {
      success: true,
      status: preview ? 'preview' : 'applied',
      applied: !preview,
      filesChanged: 1,
      replacements: change.replacements,
      files: [file],
      unifiedDiff: diff,
      edit: outcome.edit,
      message,
      ...(outcome.notes.length > 0 ? { notes: outcome.notes } : {}),
      ...(computed.extra ?? {}),
    };
    return { ok: true as const, value };
  });
}

function summaryLine(command: string, file: FileResult, preview: boolean): string {
  const n = `${file.replacements} replacement${file.replacements === 1 ? '' : 's'}`;
  if (preview) return `${command}: preview of ${n} in ${file.path}; nothing changed`;
  const where = file.via === 'disk' ? 'written to disk' : 'applied in the editor';
  return `${command}: ${file.created ? 'created' : n + ' in'} ${file.path}, ${where}`;
}

/** A missing file reaching a computation that needs one. */
export function missingFile(snapshot: Snapshot): Failure {
  return fail(
    'file_not_found',
    `${snapshot.resolved.relPath} does not exist; create it with editls.edit and an empty old_string`,
    { path: snapshot.resolved.relPath },
  );
}
