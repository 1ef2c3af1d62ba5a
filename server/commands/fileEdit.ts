// The path every single-file edit command takes: resolve and confine the path, lock the file,
// resolve it again, snapshot it (open buffer wins), let the command's computation run (once more
// when another program changed the file before it could be replaced), apply the result in the
// requested mode (a preview is remembered under a previewId) and build the contract's success
// result with a unified diff and the one-line summary every command sends.
import type { WorkspaceEdit } from 'vscode-languageserver';
import { fail, type Failure, type Result } from '../core/result.js';
import { piecesOf, throughEdits, type EditedText } from '../core/text/editedText.js';
import type { SpanEdit } from '../core/text/spanEdit.js';
import { unifiedDiff } from '../core/edits/unifiedDiff.js';
import { boundedDiff, cutDiff } from '../core/edits/diffCut.js';
import { formatCount, resultBytesTooLarge, resultCharLimit } from '../core/edits/resultSize.js';
import type { ApplyMode, ApplyOutcome, ApplyPort, EditOmitted, PlannedChange, Via } from './ports/apply.js';
import type { FilesPort, ResolvedPath, Snapshot } from './ports/files.js';
import type { RequestPort } from './ports/request.js';
import type { ReviewPort } from './ports/review.js';

/** The ports an edit of files uses: the files, applying, the preview store, the request. */
export type EditPorts = RequestPort & FilesPort & ApplyPort & ReviewPort;

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
  /** Absent when every change was written to disk with more than `maxResultEdits` TextEdits (then `editOmitted`). */
  edit?: WorkspaceEdit;
  editOmitted?: EditOmitted;
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
  /** What `replacements` counts in the summary line (default replacement/replacements). */
  noun?: Noun;
  /** Keep each file's diff within this many characters (0 = unlimited; absent = the maxDiffChars setting); see core/edits/diffCut.ts. */
  maxDiffChars?: number;
}

export async function runFileEdit(ctx: EditPorts, req: FileEditRequest): Promise<Result<{ value: EditResult }>> {
  const first = await ctx.resolvePath(req.path);
  if (!first.ok) return first;
  return ctx.withFiles([first.absPath], async () => {
    // Resolved again under the lock: a folder on the path may have been swapped for a symlink while
    // this command waited behind another one.
    const resolved = await ctx.resolvePath(req.path);
    if (!resolved.ok) return resolved;
    if (resolved.absPath !== first.absPath) {
      return fail('stale', `${req.path} now leads to another file (${resolved.relPath}) than when the command arrived (a folder on its path was moved or replaced); nothing changed, run the command again`, {
        path: req.path,
      });
    }
    // A file another program changed between the read and the write gets the command once more on its new text.
    for (let attempt = 1; ; attempt++) {
      const done = await snapshotComputeApply(ctx, req, resolved);
      if (!done.ok && done.kind === 'stale' && done.data?.changedOnDisk === true && attempt === 1) continue;
      return done;
    }
  });
}

async function snapshotComputeApply(ctx: EditPorts, req: FileEditRequest, resolved: ResolvedPath): Promise<Result<{ value: EditResult }>> {
  const snapshot = await ctx.snapshot(resolved);
  if (!snapshot.ok) return snapshot;
  const computed = await req.compute(snapshot);
  if (!computed.ok) return computed;
  const tooLarge = resultTooLarge(ctx, req.command, { snapshot, newText: computed.newText, edits: computed.edits, created: computed.created ?? false });
  if (tooLarge) return tooLarge;
  const change: PlannedChange = {
    snapshot,
    newText: computed.newText,
    edits: computed.edits,
    created: computed.created ?? false,
    replacements: computed.replacements,
  };
  const outcome = await ctx.apply([change], req.apply, { confirm: req.confirm, label: `${req.command} ${resolved.relPath}` });
  if (!outcome.ok) return outcome;
  const previewId = req.apply === 'preview' ? ctx.previews.add(req.command, [change]) : undefined;
  const value = editResult(ctx, req.command, [change], outcome, { previewId, noun: req.noun, extra: computed.extra, maxDiffChars: req.maxDiffChars });
  return { ok: true as const, value };
}

/** The most characters a command's result may have under the current maxFileSize (see core/edits/resultSize.ts). */
export function maxResultChars(ctx: RequestPort): number {
  return resultCharLimit(ctx.settings.maxFileSize);
}

/**
 * The exact check on a built result: its size in bytes in the file's encoding (UTF-8 for a buffer or
 * a new file) against maxFileSize. The computations refused anything longer in characters before
 * building it, so this text is at most a few times maxFileSize.
 */
export function resultTooLarge(ctx: RequestPort, command: string, change: Pick<PlannedChange, 'snapshot' | 'newText' | 'edits' | 'created'>): Failure | undefined {
  const { snapshot, newText } = change;
  const encoding = snapshot.disk?.encoding ?? 'utf-8';
  const bom = snapshot.disk?.bom ?? false;
  // A UTF-16 unit is at most 3 UTF-8 bytes: a text well under the limit needs no count.
  if (3 * newText.length + 3 <= ctx.settings.maxFileSize) return undefined;
  const bytes = encoding === 'utf-8' ? byteLength(newTextOf(change)) + (bom ? 3 : 0) : 2 * newText.length + (bom ? 2 : 0);
  return resultBytesTooLarge(snapshot.resolved.relPath, bytes, ctx.settings.maxFileSize, command);
}

/** UTF-8 bytes of a text, piece by piece for an EditedText (whose pieces never split a surrogate pair). */
function byteLength(text: string | EditedText): number {
  let n = 0;
  for (const p of piecesOf(text)) n += Buffer.byteLength(p, 'utf8');
  return n;
}

/** What a command's count counts, singular and plural, for the summary line ("replacement"/"replacements"). */
export type Noun = readonly [singular: string, plural: string];
const REPLACEMENTS: Noun = ['replacement', 'replacements'];

/**
 * The contract's success result for changes that went through ctx.apply (any number of files), and
 * the one-line summary it also sends (window/showMessage with `summary: "message"`). `previewId`
 * marks a preview: nothing changed, the store remembers it under that id.
 */
export function editResult(
  ctx: RequestPort,
  command: string,
  changes: readonly PlannedChange[],
  outcome: ApplyOutcome,
  options: {
    previewId?: string | undefined;
    noun?: Noun | undefined;
    extra?: Record<string, unknown> | undefined;
    maxDiffChars?: number | undefined;
    /** resultDiffs(changes, diffPlan(changes.length, maxDiffChars)), when the command worked them out already (e.g. while its writes waited on the disk). */
    diffs?: readonly ResultDiff[] | undefined;
  } = {},
): EditResult {
  const preview = options.previewId !== undefined;
  const budget = options.maxDiffChars ?? ctx.settings.maxDiffChars;
  // After a review, only what landed is reported (a file left out is not; one applied in part by its own diff).
  const landed = outcome.landed;
  const shown = landed ? landed.flatMap((c, i) => (c === null ? [] : [{ c, via: outcome.via[i] ?? null }])) : changes.map((c, i) => ({ c, via: outcome.via[i] ?? null }));
  const diffs = (!landed && options.diffs) || resultDiffs(shown.map((s) => s.c), diffPlan(shown.length, budget));
  const files: FileResult[] = shown.map(({ c, via }, i) => ({
    path: c.snapshot.resolved.relPath,
    uri: c.snapshot.uri,
    replacements: c.replacements,
    created: c.created,
    via,
    diff: diffs[i]!.text,
  }));
  const omitted = diffs.reduce((n, d) => n + (d.omitted ? 1 : 0), 0);
  const leftOut = landed ? landed.flatMap((c, i) => (c === null ? [changes[i]!.snapshot.resolved.relPath] : [])) : [];
  const inPart = landed ? landed.flatMap((c, i) => (c !== null && c !== changes[i] ? [c.snapshot.resolved.relPath] : [])) : [];
  const message =
    summaryLine(command, files, options.previewId, options.noun ?? REPLACEMENTS) +
    (leftOut.length > 0 ? `; left out in the review: ${leftOut.join(', ')}` : '') +
    (inPart.length > 0 ? `; applied in part: ${inPart.join(', ')}` : '');
  ctx.summarize(message);
  return {
    success: true,
    status: preview ? 'preview' : 'applied',
    applied: !preview,
    filesChanged: files.length,
    replacements: files.reduce((n, f) => n + f.replacements, 0),
    files,
    unifiedDiff: files.map((f) => f.diff).join('') + (omitted > 0 ? omittedNotice(omitted) : ''),
    ...(outcome.edit ? { edit: outcome.edit } : {}),
    ...(outcome.editOmitted ? { editOmitted: outcome.editOmitted } : {}),
    message,
    ...(outcome.notes.length > 0 ? { notes: outcome.notes } : {}),
    ...(options.extra ?? {}),
    ...(diffs.some((d) => d.truncated) ? { diffTruncated: true } : {}),
    ...(omitted > 0 ? { diffsOmitted: omitted } : {}),
    ...(preview ? { previewId: options.previewId } : {}),
  };
}

export interface ResultDiff {
  text: string;
  truncated: boolean;
  /** Left out (text ''): the result's diffs had used up their share (diffPlan). */
  omitted?: true;
}

/** The diffs of a result with several files share about this many characters (or one file's budget, when larger). */
export const TOTAL_DIFF_CHARS = 200_000;
/** Each file's diff gets at least this many characters, as long as the share lasts. */
const MIN_FILE_DIFF_CHARS = 2_000;
/** The most files a result has diffs of (TOTAL_DIFF_CHARS shared at MIN_FILE_DIFF_CHARS each): a command's other changes may let their texts go (WriteAhead.add). */
export const DIFF_FILES = TOTAL_DIFF_CHARS / MIN_FILE_DIFF_CHARS;

/** How a result's diffs are cut: each at `perFile` characters (0 = unlimited), the first `files` of them given one. */
export interface DiffPlan {
  perFile: number;
  files: number;
}

/**
 * The diffs of `n` files under a per-file `budget` (0 = unlimited): one file keeps its budget; several
 * share max(TOTAL_DIFF_CHARS, budget) characters, each cut at its part of that (at least
 * MIN_FILE_DIFF_CHARS, at most the budget), and the files past the share get none. So a result's
 * diffs stay within that total for any number of files (20,000 changed files once answered 16 MB).
 */
export function diffPlan(n: number, budget: number): DiffPlan {
  if (budget <= 0) return { perFile: 0, files: n };
  const total = Math.max(TOTAL_DIFF_CHARS, budget);
  const perFile = Math.min(budget, Math.max(MIN_FILE_DIFF_CHARS, Math.floor(total / Math.max(1, n))));
  return { perFile, files: Math.min(n, Math.floor(total / perFile)) };
}

/**
 * Each change's unified diff for the result, as `plan` says: its first `plan.files` changes that still
 * hold their texts get one (the rest none; a command lets go the texts of no more than its changes
 * past the first DIFF_FILES it works out).
 */
export function resultDiffs(changes: readonly PlannedChange[], plan: DiffPlan): ResultDiff[] {
  let given = 0;
  return changes.map((c) => {
    if (c.released || given >= plan.files) return { text: '', truncated: true, omitted: true };
    given++;
    const f = asInFile(c);
    return c.created
      ? cutDiff(unifiedDiff(c.snapshot.resolved.relPath, null, f.after, f.edits), plan.perFile)
      : boundedDiff(c.snapshot.resolved.relPath, f.before, f.after, f.edits, plan.perFile);
  });
}

/** The line closing a unified diff some of whose files' diffs were left out. */
function omittedNotice(n: number): string {
  return `[diffs of ${n} more file${n === 1 ? '' : 's'} left out: a result's diffs share about ${formatCount(TOTAL_DIFF_CHARS)} characters; \`files\` and \`edit\` list every change]\n`;
}

/**
 * The texts a diff is built on, as they are in the file, so that it applies there with git apply or
 * patch: a disk file's BOM (not part of snapshot.text) goes back in front of line 1.
 */
function asInFile(c: PlannedChange): { before: string; after: string | EditedText; edits: readonly SpanEdit[] } {
  if (c.created) return { before: c.snapshot.text, after: c.newText, edits: c.edits };
  if (c.snapshot.source !== 'disk' || c.snapshot.disk?.bom !== true) return { before: c.snapshot.text, after: newTextOf(c), edits: c.edits };
  const before = `\uFEFF${c.snapshot.text}`;
  const edits = c.edits.map((e) => ({ start: e.start + 1, end: e.end + 1, newText: e.newText }));
  return { before, after: throughEdits(before, edits, `\uFEFF${c.newText}`), edits };
}

/**
 * A change's new text read through its edits (EditedText), so that neither the diff nor the size
 * check builds it: V8 makes a concatenated string flat when it is first read, twice the file's size
 * for a large file with one non-ASCII character.
 */
function newTextOf(c: Pick<PlannedChange, 'snapshot' | 'newText' | 'edits' | 'created'>): string | EditedText {
  return c.created ? c.newText : throughEdits(c.snapshot.text, c.edits, c.newText);
}

function count(n: number, noun: Noun): string {
  return `${n} ${n === 1 ? noun[0] : noun[1]}`;
}

/** "editls.edit: 1 replacement in a.txt; written to disk", "…: 3 replacements in 2 files; 1 file written to disk, 1 changed in the editor". */
export function summaryLine(command: string, files: readonly FileResult[], previewId: string | undefined, noun: Noun = REPLACEMENTS): string {
  const total = files.reduce((n, f) => n + f.replacements, 0);
  const only = files.length === 1 ? files[0] : undefined;
  const what = only?.created ? `create ${only.path}` : `${count(total, noun)} in ${only ? only.path : count(files.length, ['file', 'files'])}`;
  if (previewId !== undefined) {
    return `${command}: preview ${previewId}: ${what}; nothing changed yet (apply with editls.applyPreview or the code action)`;
  }
  const done = only?.created ? `created ${only.path}` : what;
  const disk = files.filter((f) => f.via === 'disk').length;
  const editor = files.filter((f) => f.via === 'editor').length;
  const where = only
    ? only.via === 'disk'
      ? 'written to disk'
      : 'changed in the editor (unsaved)'
    : [disk > 0 ? `${count(disk, ['file', 'files'])} written to disk` : '', editor > 0 ? `${count(editor, ['file', 'files'])} changed in the editor (unsaved)` : '']
        .filter(Boolean)
        .join(', ');
  return `${command}: ${done}; ${where}`;
}

/** A missing file reaching a computation that needs one. */
export function missingFile(snapshot: Snapshot): Failure {
  return fail(
    'file_not_found',
    `${snapshot.resolved.relPath} does not exist; create it with editls.edit and an empty old_string`,
    { path: snapshot.resolved.relPath },
  );
}
