// Carries planned changes out: open documents through workspace/applyEdit (versioned, so the editor
// refuses stale edits and can undo), closed files atomically on disk or through the editor, previews
// nowhere. Nothing of a command reaches disk when the editor refuses its part, and nothing is ever
// written to disk under a document the editor has open.
import { promises as fsp, statSync } from 'node:fs';
import type { ApplyWorkspaceEditResult, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { fail, type Failure, type Result } from '../../core/result.js';
import type { PositionEncoding } from '../../core/text/positions.js';
import type { SpanEdit } from '../../core/text/spanEdit.js';
import type { ApplyMode, ApplyOptions, ApplyOutcome, PlannedChange, Via, WriteAhead } from '../../commands/ports/apply.js';
import type { ClientTraits } from '../../protocol/clientTraits.js';
import { buildWorkspaceEdit, toTextEdits, type DocumentChange, type WorkspaceEditForm } from '../../protocol/toProto.js';
import type { Settings } from '../../settings.js';
import { bytesOf, StagingAhead, writeFileAtomic, writeFilesAtomic, type BatchFailure, type BatchTimings, type BatchWrite, type SyncFileSystems, type Writeback } from '../disk/atomicWrite.js';
import { mapLimited } from '../limited.js';
import { encodeEdited, encodeText, fileStamp, readTextFile } from '../disk/fileCodec.js';
import type { OpenDocuments } from './openDocuments.js';
import { askEditor, seconds } from './editorRoundTrip.js';
import { editPresence } from '../../core/edits/editPresence.js';
import { landedAfterReview } from './reviewedEdits.js';
import { releaseTexts, restoreWritten } from './releasedText.js';
import { bytesDigest } from './undoJournal.js';

export interface ApplyDeps {
  encoding: PositionEncoding;
  traits: ClientTraits;
  settings: Settings;
  documents: OpenDocuments;
  sendApplyEdit: (label: string, edit: WorkspaceEdit, signal: AbortSignal) => Promise<ApplyWorkspaceEditResult>;
  /** Open documents whose last applyEdit went unanswered: URI -> version then (see the check before sending). */
  unconfirmed: Map<string, number>;
  /** The command's cancellation ($/cancelRequest). */
  signal: AbortSignal;
  /** One syncfs for a large batch of disk writes in place of an fsync per file (writeFilesAtomic's option); none: fsyncs. */
  syncFileSystems?: SyncFileSystems;
  log: (message: string) => void;
  /**
   * The editor applied these changes after editls had answered that it did not (timeout, cancelled):
   * they are journalled (so editls.undo reverts them) and the user is told.
   */
  appliedLate?: (changes: readonly PlannedChange[], why: string) => void;
}

let annotationCounter = 0;

export const EDIT_OMITTED_REASON = 'written to disk; more than maxResultEdits TextEdits';

export async function applyChanges(
  deps: ApplyDeps,
  changes: readonly PlannedChange[],
  mode: ApplyMode,
  options: ApplyOptions,
): Promise<Result<ApplyOutcome>> {
  const notes: string[] = [];
  const routes: Via[] = changes.map((c) => route(deps, c, mode));
  for (const [i, c] of changes.entries()) {
    if (routes[i] === 'editor' && c.created && !deps.traits.createFiles) {
      if (mode === 'editor') {
        return fail('apply_rejected', `${c.snapshot.resolved.relPath} does not exist and this editor cannot create files (no resourceOperations "create"); use apply "auto" or "disk"`);
      }
      routes[i] = 'disk';
    }
  }
  const form: WorkspaceEditForm = { documentChanges: deps.traits.documentChanges };
  if (options.confirm && deps.traits.changeAnnotations && form.documentChanges) {
    form.annotation = { id: `editls-${++annotationCounter}`, annotation: { label: options.label, needsConfirmation: true } };
  }
  // A change bound for disk with more TextEdits than maxResultEdits is left out of the result's edit
  // (its TextEdits are never built: at 100,000 edits they cost more than the change itself).
  const buildReported = (from: readonly (PlannedChange | null)[] = changes) => {
    let omittedEdits = 0;
    const docChanges = from.map((c, i) => {
      if (c === null) return null;
      if (routes[i] === 'disk' && c.edits.length > deps.settings.maxResultEdits) {
        omittedEdits += c.edits.length;
        return null;
      }
      return documentChange(deps, c, routes[i] ?? null);
    });
    const shown = docChanges.filter((d): d is DocumentChange => d !== null);
    const fullEdit = shown.length > 0 || omittedEdits === 0 ? buildWorkspaceEdit(shown, form) : undefined;
    const reported = {
      ...(fullEdit ? { edit: fullEdit } : {}),
      ...(omittedEdits > 0 ? { editOmitted: { textEdits: omittedEdits, reason: EDIT_OMITTED_REASON } } : {}),
    };
    return { docChanges, reported };
  };
  const diskOnly = mode !== 'preview' && routes.every((r) => r === 'disk');
  // Only disk writes: the result's TextEdits (and the command's own work) are built while the writes
  // wait on the disk; otherwise first, as the editor part needs them.
  let built = diskOnly ? undefined : buildReported();
  const whileWriting = () => {
    built ??= buildReported();
    options.whileWriting?.();
  };
  if (mode === 'preview') return { ok: true, via: changes.map(() => null), ...built!.reported, notes };
  const docChanges = built?.docChanges ?? [];
  /** After a person's review: the changes as they landed (null: left out). */
  let landed: (PlannedChange | null)[] | undefined;
  /** What the editor holds of this command, for a revert if the disk part fails (after a review: what landed). */
  let inEditor: { changes: readonly PlannedChange[]; idx: readonly number[] } = { changes, idx: [] };

  // 0. With an editor part, every closed file bound for disk must still hold what was read before
  //    anything changes, so that a stale file refuses the whole command before the editor sees any
  //    of it. (Without one, the disk part checks every file before it writes any.)
  const diskIdx = routes.flatMap((r, i) => (r === 'disk' ? [i] : []));
  if (routes.includes('editor')) {
    const before = await firstFailure(diskIdx, (i) => diskUnchanged(deps, changes[i]!));
    if (before) return before;
  }

  // 1. Editor part first: if the editor refuses, nothing is written to disk.
  const editorIdx = routes.flatMap((r, i) => (r === 'editor' ? [i] : []));
  inEditor = { changes, idx: editorIdx };
  if (editorIdx.length > 0) {
    for (const i of editorIdx) {
      const c = changes[i]!;
      const rel = c.snapshot.resolved.relPath;
      if (c.snapshot.source === 'editor') {
        const now = deps.documents.get(c.snapshot.uri);
        if (!now || now.version !== c.snapshot.version || now.text !== c.snapshot.text) {
          return fail('stale', `${rel} changed in the editor while the edit was computed; run the command again`, {
            actual: now?.text,
          });
        }
        // An unanswered earlier edit may still land; without a version in the edit nothing would stop
        // this one from being applied on top of it at the wrong place.
        const unanswered = deps.unconfirmed.get(c.snapshot.uri);
        if (unanswered !== undefined && unanswered !== now.version) deps.unconfirmed.delete(c.snapshot.uri);
        else if (unanswered !== undefined && !form.documentChanges) {
          return fail('stale', `an earlier edit to ${rel} got no answer from the editor, which may still apply it, and this editor's edits carry no version to guard against that; check the buffer (edit or save it), then run the command again`);
        }
      }
      const mangled = carriageReturnProblem(deps, c, docChanges[i]!);
      if (mangled) return fail('apply_rejected', mangled);
    }
    const editorEdit = buildWorkspaceEdit(editorIdx.map((i) => docChanges[i]!), form); // editor changes are never omitted
    const editorFiles = editorIdx.map((i) => changes[i]!.snapshot.resolved.relPath).join(', ');
    // A person reviewing the edit (VS Code's Refactor Preview, for needsConfirmation) has no deadline.
    const reviewed = form.annotation !== undefined;
    let gaveUp = '';
    const answer = await askEditor(
      {
        send: deps.sendApplyEdit,
        timeoutMs: reviewed ? Infinity : deps.settings.applyTimeoutMs,
        signal: deps.signal,
        onLate: (late) => {
          const what = late.kind === 'reply' ? `applied=${String(late.reply.applied)}` : late.kind === 'error' ? `error: ${oneLine(late.message)}` : late.kind;
          deps.log(`late answer from the editor to "${options.label}" (${what}); editls follows ${editorFiles} through didChange`);
          if (late.kind !== 'reply' || !late.reply.applied) for (const i of editorIdx) deps.unconfirmed.delete(changes[i]!.snapshot.uri);
          else deps.appliedLate?.(editorIdx.map((i) => changes[i]!), gaveUp);
        },
      },
      options.label,
      editorEdit,
    );
    if (answer.kind === 'timeout' || answer.kind === 'cancelled') {
      gaveUp = answer.kind === 'timeout' ? `the editor did not answer within ${seconds(deps.settings.applyTimeoutMs)}` : 'the command was cancelled';
      for (const i of editorIdx) {
        const c = changes[i]!;
        if (c.snapshot.source === 'editor' && c.snapshot.version !== null) deps.unconfirmed.set(c.snapshot.uri, c.snapshot.version);
      }
      const why = answer.kind === 'timeout' ? `the editor did not answer within ${seconds(deps.settings.applyTimeoutMs)}` : 'the command was cancelled while waiting for the editor';
      return fail(answer.kind === 'timeout' ? 'apply_rejected' : 'cancelled', `${why}; the edit to ${editorFiles} may still be applied by the editor later; nothing was written to disk`, {
        mayStillApply: editorIdx.map((i) => changes[i]!.snapshot.resolved.relPath),
      });
    }
    if (answer.kind === 'error') return refusal(answer.message, changes, editorIdx);
    const reply = answer.reply;
    if (!reply.applied && reviewed && !STALE_REASON.test(reply.failureReason ?? '')) {
      return fail('apply_rejected', `the edit to ${editorFiles} was not applied in the editor's review (Discard, or Apply with nothing ticked); nothing was changed`, {
        review: 'discarded',
        ...(reply.failureReason ? { reason: reply.failureReason } : {}),
      });
    }
    if (!reply.applied) return refusal(reply.failureReason ?? 'the editor did not apply the edit', changes, editorIdx);
    if (reviewed) {
      // The person may have unticked files or single edits: what landed is read back from the buffers.
      const review = await afterReview(deps, changes, editorIdx, diskIdx.length);
      if (!review.ok) return review;
      notes.push(...review.notes);
      landed = review.landed;
      for (const [i, c] of landed.entries()) if (c === null) routes[i] = null;
      const now = landed;
      inEditor = { changes: now.map((c, i) => c ?? changes[i]!), idx: editorIdx.filter((i) => now[i] !== null) };
      if (review.differs) built = buildReported(landed);
    }
    for (const i of reviewed ? [] : editorIdx) {
      const c = changes[i]!;
      if (c.snapshot.source !== 'editor') {
        notes.push(`${c.snapshot.resolved.relPath} was not open: the editor now holds the edit in an unsaved buffer; save it (:wa, :write-all, save-some-buffers)`);
        continue;
      }
      const confirmed = await confirmApplied(deps, c);
      if (!confirmed.ok) return confirmed;
      if (confirmed.note) notes.push(confirmed.note);
    }
  }

  // 2. Disk part: every file re-checked (still closed and unchanged) before any is written, then each
  //    written atomically. A file that changed meanwhile refuses the command: nothing reaches disk, and
  //    the editor part (already applied) is reverted in the editor where its buffers still hold it.
  // (Without an editor part no time passed since the check above; the writes check once more anyway.)
  if (editorIdx.length > 0) {
    const stale = await firstFailure(diskIdx, (i) => diskUnchanged(deps, changes[i]!));
    if (stale) return withEditorReverted(deps, stale, inEditor.changes, inEditor.idx, form, options.label, []);
  }
  // 3. The disk part is all or nothing too: files to create first (each exclusive, never replacing),
  //    then the existing files, as one batch when there are several (temp files fsynced concurrently,
  //    folders once; a failure among its renames rolls the batch back). Any failure removes the files
  //    created here and reverts the editor part; what could not be taken back is named (and journalled).
  const toCreate = diskIdx.filter((i) => changes[i]!.created);
  const existing = diskIdx.filter((i) => !changes[i]!.created);
  const created: number[] = [];
  const undoCreates = async (failure: Failure, holdingNew: number[]): Promise<Failure> => {
    const left = [...holdingNew];
    for (const i of created) if (!(await removeIfStillOurs(changes[i]!))) left.push(i);
    return withEditorReverted(deps, failure, inEditor.changes, inEditor.idx, form, options.label, left);
  };
  for (const i of toCreate) {
    const written = await writeToDisk(deps, changes[i]!);
    if (!written.ok) return undoCreates(written, []);
    created.push(i);
    notes.push(...written.notes);
  }
  let diskTimings: ApplyOutcome['diskTimings'];
  if (existing.length >= 2) {
    const ahead = options.ahead instanceof DiskWriteAhead ? options.ahead : undefined;
    const written = await writeManyToDisk(deps, existing.map((i) => changes[i]!), diskOnly ? whileWriting : undefined, ahead);
    if (!written.ok) return undoCreates(written, 'holdingNew' in written ? (written as BatchFailure).holdingNew.map((k) => existing[k]!) : []);
    notes.push(...written.notes);
    diskTimings = written.timings;
  } else if (existing.length === 1) {
    const written = await writeToDisk(deps, changes[existing[0]!]!);
    if (!written.ok) return undoCreates(written, []);
    notes.push(...written.notes);
  }
  built ??= buildReported();
  return { ok: true, via: routes, ...built.reported, notes, ...(diskTimings ? { diskTimings } : {}), ...(landed ? { landed } : {}) };
}

/**
 * After a reviewed edit the editor answered applied: per change, what landed (landedAfterReview).
 * None of it at all (and nothing for disk) is a refusal; otherwise the changes as they landed (null
 * for one left out) and a note per file left out, applied in part, or holding other changes too.
 */
async function afterReview(
  deps: ApplyDeps,
  changes: readonly PlannedChange[],
  editorIdx: readonly number[],
  diskCount: number,
): Promise<Result<{ landed: (PlannedChange | null)[]; differs: boolean; notes: string[] }>> {
  const landings = await landedAfterReview(deps.documents, editorIdx.map((i) => changes[i]!), deps.settings.applyConfirmTimeoutMs);
  const landed: (PlannedChange | null)[] = [...changes];
  const leftOut: string[] = [];
  const inPart: string[] = [];
  const unclear: string[] = [];
  landings.forEach((l, k) => {
    const i = editorIdx[k]!;
    const rel = changes[i]!.snapshot.resolved.relPath;
    if (l.kind === 'applied') {
      landed[i] = l.change;
      if (!l.whole) inPart.push(rel);
    } else {
      // Not journalled: an unclear buffer holds other changes too, which editls.undo must not take back.
      landed[i] = null;
      (l.kind === 'leftOut' ? leftOut : unclear).push(rel);
    }
  });
  if (leftOut.length === editorIdx.length && diskCount === 0) {
    return fail('apply_rejected', `the editor answered that it applied the reviewed edit, but none of it is in ${leftOut.join(', ')}; nothing was changed`, { review: 'leftOut' });
  }
  const notes: string[] = [];
  if (leftOut.length > 0) notes.push(`left out in the review (unticked), unchanged: ${leftOut.join(', ')}`);
  if (inPart.length > 0) notes.push(`applied in part (some edits unticked in the review): ${inPart.join(', ')}`);
  if (unclear.length > 0) notes.push(`${unclear.join(', ')} also changed otherwise in the editor: editls cannot tell which of its edits are in ${unclear.length === 1 ? 'it' : 'them'} and will not undo ${unclear.length === 1 ? 'it' : 'them'}; check the buffer`);
  return { ok: true, landed, differs: leftOut.length + inPart.length + unclear.length > 0, notes };
}

/**
 * A failure after part of the command was carried out: the editor part (if any) is reverted, and the
 * failure says what still holds the new text: `data.partiallyApplied` (change indices: disk files
 * the rollback could not restore, editor buffers the revert could not reach), which the caller
 * journals so that editls.undo reverts exactly them.
 */
async function withEditorReverted(deps: ApplyDeps, failure: Failure, changes: readonly PlannedChange[], editorIdx: readonly number[], form: WorkspaceEditForm, label: string, diskLeft: readonly number[]): Promise<Failure> {
  let message = failure.message;
  const left = [...diskLeft];
  if (editorIdx.length > 0) {
    const reverted = await revertEditorPart(deps, changes, editorIdx, form, label);
    message = `${message}; ${reverted.message}`;
    left.push(...reverted.left);
  } else if (diskLeft.length > 0 && !/editls\.undo reverts/.test(message)) {
    message = `${message}; these still hold the new text: ${diskLeft.map((i) => changes[i]!.snapshot.resolved.relPath).join(', ')} (editls.undo reverts them)`;
  }
  return left.length === 0 ? { ...failure, message } : { ...failure, message, data: { ...(failure.data ?? {}), partiallyApplied: [...new Set(left)].sort((a, b) => a - b) } };
}

/** Removes a file this command created, if it still holds exactly what was written there; whether it is gone. */
async function removeIfStillOurs(c: PlannedChange): Promise<boolean> {
  const abs = c.snapshot.resolved.absPath;
  try {
    const now = await fsp.readFile(abs);
    if (!now.equals(Buffer.from(c.newText, 'utf8'))) return false;
    await fsp.unlink(abs);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Confirms an edit the editor reported applied to an open document through its didChange: waits until
 * the buffer holds exactly the expected text (Neovim reports the first change at once and the rest
 * 150 ms later), or until `applyConfirmTimeoutMs`; then judges what the buffer holds. Only an edit
 * demonstrably absent is a failure; an applied edit is never reported as "run it again".
 */
async function confirmApplied(deps: ApplyDeps, c: PlannedChange): Promise<Result<{ note?: string }>> {
  const rel = c.snapshot.resolved.relPath;
  const wait = deps.settings.applyConfirmTimeoutMs;
  const settled = await deps.documents.waitFor(c.snapshot.uri, (doc) => doc === undefined || doc.text === c.newText, wait);
  const doc = settled === 'timeout' ? deps.documents.get(c.snapshot.uri) : settled;
  if (doc === undefined) return { ok: true, note: `${rel} was closed in the editor before editls saw the edit arrive; check the file` };
  if (doc.text === c.newText) return { ok: true };
  if (doc.text === c.snapshot.text) {
    return { ok: true, note: `the editor reported the edit to ${rel} applied, but editls has not seen the buffer change within ${seconds(wait)}; check the buffer (it may still report the change)` };
  }
  const presence = editPresence(c.snapshot.text, c.edits, c.newText, doc.text);
  switch (presence.kind) {
    case 'landed': {
      const where = presence.otherLines ? ` (line${presence.otherLines.first === presence.otherLines.last ? ` ${presence.otherLines.first}` : `s ${presence.otherLines.first}-${presence.otherLines.last}`})` : '';
      return { ok: true, note: `applied, but ${rel} also changed in the editor meanwhile${where}; check the buffer` };
    }
    case 'partial':
      return { ok: true, note: `the editor reported the edit to ${rel} applied; within ${seconds(wait)} editls saw only part of it arrive; check the buffer` };
    case 'absent':
      return fail('stale', `the editor did not apply the edit to ${rel}: its buffer changed first and the edit is not in it; nothing was changed, run the command again`, { actual: doc.text });
    default:
      return fail('stale', `${rel} changed in the editor while the edit was applied, and editls cannot tell whether the edit is in the buffer; check the buffer before running the command again`, {
        actual: doc.text,
        uncertain: true,
      });
  }
}

/**
 * Some editors rewrite carriage returns in an edit's new text (Neovim 0.7-0.11 turns \r and \r\n into
 * a line break, lsp-mode drops \r), so an edit needing one cannot land exactly; it is refused instead.
 * Neovim's "\r\n" is still right in a buffer whose every line ends in CRLF (fileformat=dos).
 */
function carriageReturnProblem(deps: ApplyDeps, c: PlannedChange, change: DocumentChange): string | undefined {
  const mode = deps.traits.carriageReturns;
  if (mode === 'keep') return undefined;
  const needsCr = change.edits.some((e) => e.newText.includes('\r'));
  if (!needsCr) return undefined;
  const base = c.created ? '' : c.snapshot.text;
  if (mode === 'lineBreak' && allCrlf(base) && change.edits.every((e) => !/\r(?!\n)/.test(e.newText) && !/(^|[^\r])\n/.test(e.newText))) return undefined;
  const rel = c.snapshot.resolved.relPath;
  const how = mode === 'lineBreak' ? 'turns carriage returns in edits into line breaks' : 'drops carriage returns from edits';
  // What makes every line CRLF in that editor, stray CRs of a mixed file included (setting the file
  // format alone would write those lines as \r\r\n); test/editors runs both.
  const fix =
    mode === 'lineBreak'
      ? ':%s/\\r$//e | set fileformat=dos | write'
      : 'M-: (progn (save-excursion (goto-char (point-min)) (while (search-forward "\\r" nil t) (replace-match ""))) (set-buffer-file-coding-system (coding-system-change-eol-conversion buffer-file-coding-system \'dos)) (save-buffer))';
  return `this editor (${deps.traits.clientName}) ${how}, and the edit to ${rel} needs one, so it cannot be applied exactly; nothing was changed. To make every line of ${rel} end in CRLF, run ${fix}`;
}

function allCrlf(text: string): boolean {
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (text.charCodeAt(i - 1) !== 13) return false;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return false;
  return true;
}

function route(deps: Pick<ApplyDeps, 'settings'>, c: PlannedChange, mode: ApplyMode): Via {
  if (mode === 'preview') return null;
  if (c.snapshot.source === 'editor') return 'editor';
  if (mode === 'editor') return 'editor';
  if (mode === 'disk') return 'disk';
  return deps.settings.closedFiles === 'editor' ? 'editor' : 'disk';
}

function documentChange(deps: ApplyDeps, c: PlannedChange, via: Via): DocumentChange {
  return {
    uri: c.snapshot.uri,
    version: c.snapshot.source === 'editor' ? c.snapshot.version : null,
    edits: c.released ? releasedTextEdits(c) : toTextEdits(c.created ? '' : c.snapshot.text, c.edits, deps.encoding),
    create: c.created && (via !== 'disk' || deps.traits.createFiles),
  };
}

/** The TextEdits a change built before it let its texts go (it did when it had at most maxResultEdits, as buildReported shows). */
function releasedTextEdits(c: PlannedChange): TextEdit[] {
  const edits = c.released?.textEdits;
  if (!edits) throw new Error(`editls: ${c.snapshot.resolved.relPath} let its text go without its TextEdits`);
  return edits;
}

/** An editor's refusal that says the document changed (the edit's version is old). */
const STALE_REASON = /version|changed|stale|newer|modified/i;

function refusal(reason: string, changes: readonly PlannedChange[], idx: number[]) {
  const files = idx.map((i) => changes[i]!.snapshot.resolved.relPath).join(', ');
  const isStale = STALE_REASON.test(reason);
  return fail(
    isStale ? 'stale' : 'apply_rejected',
    isStale
      ? `the editor refused the edit to ${files}: ${oneLine(reason)}; the buffer changed, run the command again`
      : `the editor refused the edit to ${files}: ${oneLine(reason)}; nothing was changed`,
    { reason },
  );
}

/** Checks run at once (bounded); the first failure in the changes' order, if any. */
async function firstFailure(idx: readonly number[], check: (i: number) => Promise<Result<{}>>): Promise<Failure | undefined> {
  const results = await mapLimited(idx, IO_CONCURRENCY, check);
  return results.find((r): r is Failure => !r.ok);
}

/** File system calls in flight at once for a multi-file command's checks. */
const IO_CONCURRENCY = 16;

/** A closed file bound for disk is still closed and holds what was read (a file to create: nothing to check). */
async function diskUnchanged(deps: ApplyDeps, c: PlannedChange): Promise<Result<{}>> {
  const { resolved } = c.snapshot;
  if (deps.documents.getByPath(resolved.absPath)) {
    return fail('stale', `${resolved.relPath} was opened in the editor while the edit was computed; run the command again`);
  }
  if (c.created) return { ok: true };
  return stampNow(c);
}

/**
 * The stamp the write must find: the one read, when the file's stamp is unchanged; a file that looks
 * touched is re-read and compared, and if it still holds the same text its new stamp counts.
 */
async function stampNow(c: PlannedChange): Promise<Result<{ stamp: string }>> {
  const { resolved } = c.snapshot;
  const disk = c.snapshot.disk;
  if (!disk) return fail('io_error', `${resolved.relPath}: no disk snapshot to write from`);
  // The same stamp (device, inode, size, mtime and ctime in ns): untouched since it was read.
  let info;
  try {
    info = statSync(resolved.absPath, { bigint: true });
  } catch {
    info = undefined;
  }
  if (!info) return fail('stale', `${resolved.relPath} was deleted while the edit was computed; nothing written`);
  if (fileStamp(info) === disk.stamp) return { ok: true, stamp: disk.stamp };
  // Touched since it was read, and the text it was read with let go: not compared, refused.
  if (c.released) return fail('stale', `${resolved.relPath} changed on disk while the edit was computed; nothing written, run the command again`, { changedOnDisk: true, path: resolved.relPath });
  const current = await readTextFile(resolved.absPath, resolved.relPath, Number.MAX_SAFE_INTEGER, { confined: true });
  if (!current.ok) return current.kind === 'file_not_found' ? fail('stale', `${resolved.relPath} was deleted while the edit was computed; nothing written`) : current;
  if (current.text !== disk.text || current.bom !== disk.bom || current.encoding !== disk.encoding) {
    return fail('stale', `${resolved.relPath} changed on disk while the edit was computed; nothing written, run the command again`, { actual: current.text, changedOnDisk: true, path: resolved.relPath });
  }
  return { ok: true, stamp: current.stamp };
}

/**
 * Takes back an applied editor part after the disk part was refused: each open buffer that still holds
 * exactly what editls put there gets the inverse edit. Says what happened, for the error message.
 */
async function revertEditorPart(deps: ApplyDeps, changes: readonly PlannedChange[], editorIdx: readonly number[], form: WorkspaceEditForm, label: string): Promise<{ message: string; left: number[] }> {
  const back: DocumentChange[] = [];
  const backIdx: number[] = [];
  const left: number[] = [];
  for (const i of editorIdx) {
    const c = changes[i]!;
    const now = c.snapshot.source === 'editor' ? deps.documents.get(c.snapshot.uri) : undefined;
    if (!now || now.text !== c.newText) {
      left.push(i);
      continue;
    }
    back.push({ uri: c.snapshot.uri, version: now.version, edits: toTextEdits(c.newText, inverseOf(c), deps.encoding), create: false });
    backIdx.push(i);
  }
  if (back.length > 0) {
    // The command's own cancellation must not stop the revert; the deadline still holds.
    const answer = await askEditor(
      {
        send: deps.sendApplyEdit,
        timeoutMs: deps.settings.applyTimeoutMs,
        signal: new AbortController().signal,
        onLate: () => deps.log(`late answer from the editor to "${label} (reverted)"; ignored`),
      },
      `${label} (reverted)`,
      buildWorkspaceEdit(back, { documentChanges: form.documentChanges }),
    );
    if (answer.kind !== 'reply' || !answer.reply.applied) left.push(...backIdx);
  }
  const names = left.map((i) => changes[i]!.snapshot.resolved.relPath).join(', ');
  return {
    message: left.length === 0 ? 'the edits already made in the editor were reverted' : `the edits already made in the editor to ${names} could not be reverted: undo them there (one undo step)`,
    left,
  };
}

/** Span edits that turn c.newText back into c.snapshot.text. */
function inverseOf(c: PlannedChange): SpanEdit[] {
  const out: SpanEdit[] = [];
  let shift = 0;
  for (const e of c.edits) {
    const start = e.start + shift;
    out.push({ start, end: start + e.newText.length, newText: c.snapshot.text.slice(e.start, e.end) });
    shift += e.newText.length - (e.end - e.start);
  }
  return out;
}

async function writeToDisk(deps: ApplyDeps, c: PlannedChange): Promise<Result<{ notes: string[] }>> {
  const { resolved } = c.snapshot;
  if (deps.documents.getByPath(resolved.absPath)) {
    return fail('stale', `${resolved.relPath} was opened in the editor while the edit was computed; run the command again`);
  }
  if (c.created) {
    return writeFileAtomic(resolved.absPath, Buffer.from(c.newText, 'utf8'), resolved.relPath, { exclusive: true, mkdirs: true, within: resolved.folder });
  }
  const item = await diskWrite(c);
  if (!item.ok) return item;
  // writeFileAtomic checks the stamp again right before its rename, and the replaced file right after.
  return writeFileAtomic(item.write.absPath, bytesOf(item.write), item.write.displayPath, item.write.options);
}

/** Several existing files: written as one batch (all temp files fsynced before any rename; see writeFilesAtomic). */
async function writeManyToDisk(deps: ApplyDeps, cs: readonly PlannedChange[], whileSyncing?: () => void, ahead?: DiskWriteAhead): Promise<Result<{ notes: string[]; timings?: BatchTimings }> | BatchFailure> {
  for (const c of cs) {
    if (deps.documents.getByPath(c.snapshot.resolved.absPath)) {
      return fail('stale', `${c.snapshot.resolved.relPath} was opened in the editor while the edit was computed; nothing written, run the command again`);
    }
  }
  const items = await mapLimited(cs, IO_CONCURRENCY, (c) => ahead?.started(c) ?? diskWrite(c));
  const writes: BatchWrite[] = [];
  for (const item of items) {
    if (!item.ok) return item;
    writes.push(item.write);
  }
  // The batch takes the temp files written ahead: no background writeback of them starts any more.
  // After one that failed, each temp file is fsynced (an fsync reports its own file's write-back
  // error; a sync of the file system would not report the one that sync saw).
  const writebackFailed = (await ahead?.settleWriteback()) === true;
  const syncFileSystems = writebackFailed ? undefined : deps.syncFileSystems;
  return writeFilesAtomic(writes, { ...(whileSyncing ? { whileSyncing } : {}), ...(syncFileSystems ? { syncFileSystems } : {}) });
}

/**
 * WriteAhead for the disk part: a change that `route` sends to an existing closed file on disk has its
 * batch item made (the file checked against the snapshot: diskWrite) and its temp file written
 * (StagingAhead) as soon as it is added; writeManyToDisk takes them. The first such change waits for
 * a second: a single file is written by writeToDisk, not as a batch.
 */
export class DiskWriteAhead implements WriteAhead {
  private readonly staging: StagingAhead;
  private readonly writes = new Map<PlannedChange, Promise<Result<{ write: BatchWrite }>>>();
  private first: PlannedChange | undefined;
  readonly writesClosedFiles: boolean;

  /** `deps.settings`: the requester's (its maxResultEdits says which TextEdits a change let go of still builds). */
  constructor(
    private readonly deps: Pick<ApplyDeps, 'settings' | 'documents' | 'encoding' | 'log'> & { writeback?: Writeback },
    private readonly mode: ApplyMode,
  ) {
    this.writesClosedFiles = mode === 'disk' || (mode === 'auto' && deps.settings.closedFiles !== 'editor');
    this.staging = new StagingAhead(deps.writeback);
  }

  /** StagingAhead.settleWriteback (logged when one failed): before the batch takes the temp files written ahead. */
  async settleWriteback(): Promise<boolean> {
    const failed = await this.staging.settleWriteback();
    if (failed) this.deps.log('a background writeback (sync -f) of the temporary files failed: each is fsynced instead');
    return failed;
  }

  add(c: PlannedChange, keepText: boolean): void {
    if (c.created || c.snapshot.source !== 'disk' || route(this.deps, c, this.mode) !== 'disk') return;
    // (A change that came without its texts and is opened since is never applied: the command reads
    // the file again, ReadAhead.outcome.)
    if (this.deps.documents.getByPath(c.snapshot.resolved.absPath)) return;
    if (c.released?.toWrite) {
      // Its temp file can only be written from those bytes: never held back.
      this.start(c, false);
      return;
    }
    if (this.writes.size === 0 && this.first === undefined) {
      this.first = c;
      return;
    }
    // (The first keeps its texts: had it stayed alone, writeToDisk would have written it from them.)
    if (this.first) this.start(this.first, true);
    this.first = undefined;
    this.start(c, keepText);
  }

  /** The batch item of a change added here, its temp file being written (undefined: not added, or held back alone). */
  started(c: PlannedChange): Promise<Result<{ write: BatchWrite }>> | undefined {
    return this.writes.get(c);
  }

  private start(c: PlannedChange, keepText: boolean): void {
    this.writes.set(
      c,
      diskWrite(c).then((item) => {
        if (!item.ok) return item;
        if (keepText || c.released) {
          const ahead = this.staging.stage(item.write);
          // Came without its texts: once its temp file is written, its bytes go too.
          if (c.released) void ahead.done.finally(() => delete c.released?.toWrite);
          return { ok: true, write: { ...item.write, ahead } };
        }
        // The digest of the bytes as they are made for the temp file; once it is written, the texts go
        // (before the batch, which awaits the same stage after this, takes the item).
        let digest: string | undefined;
        const made = item.write.data;
        const write: BatchWrite = {
          ...item.write,
          data: () => {
            const bytes = typeof made === 'function' ? made() : made;
            digest = bytesDigest(bytes);
            return bytes;
          },
        };
        const ahead = this.staging.stage(write);
        void ahead.done.then((r) => {
          if (!r.ok || digest === undefined) return;
          try {
            releaseTexts(c, write, digest, this.deps.encoding, this.deps.settings.maxResultEdits);
          } catch (error) {
            this.deps.log(`could not let go of ${c.snapshot.resolved.relPath}'s text: ${String(error)}`);
          }
        });
        return { ok: true, write: { ...write, ahead } };
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.writes.values());
    await this.staging.close();
  }
}

/** The atomic write of an existing file's new text, expecting the file as it was read (its stamp). */
async function diskWrite(c: PlannedChange): Promise<Result<{ write: BatchWrite }>> {
  const { resolved } = c.snapshot;
  const disk = c.snapshot.disk;
  const released = c.released;
  // A change that came without its texts cannot be compared again: its stamp is the one read, which
  // the temp file's checks (atomicWrite.ts prepareStage) look at a moment later, and the rename again.
  const now = released && disk ? { ok: true as const, stamp: disk.stamp } : await stampNow(c);
  if (!now.ok) return now;
  if (!disk) return fail('io_error', `${resolved.relPath}: no disk snapshot to write from`);
  if (released) {
    // Came without its texts (ReleasedText.toWrite): written from its bytes, rolled back from them.
    const gone = () => fail('io_error', `${resolved.relPath}: its new bytes were let go before it was written; nothing written, run the command again`);
    if (!released.toWrite) return gone();
    const { encoding, bom } = disk;
    return {
      ok: true,
      write: {
        absPath: resolved.absPath,
        // Read from the change each time (not kept here): they go once the temp file is written.
        data: () => {
          const bytes = released.toWrite;
          if (!bytes) throw new Error(gone().message);
          return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        },
        displayPath: resolved.relPath,
        options: { mode: disk.mode, within: resolved.folder, expect: { stamp: now.stamp, restore: (written) => restoreWritten(written, released.inverse, encoding, bom, released.newLength) } },
      },
    };
  }
  return {
    ok: true,
    write: {
      absPath: resolved.absPath,
      data: () => encodeEdited(c.snapshot.text, c.edits, c.newText, disk.encoding, disk.bom),
      displayPath: resolved.relPath,
      options: { mode: disk.mode, within: resolved.folder, expect: { stamp: now.stamp, bytes: () => encodeText(disk.text, disk.encoding, disk.bom) } },
    },
  };
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
