// editls.undo: the text editor tools' `undo_edit` — reverts the most recent editls change to a file
// (or, without a path, the most recent editls command, all its files together) to exactly what it
// replaced, through the editor for open buffers and atomically on disk otherwise; refused as `stale`
// when a file no longer holds what editls left.
import { z } from 'zod';
import { fail, type Result } from '../core/result.js';
import { applySpanEdits } from '../core/text/spanEdit.js';
import { filePath } from './args.js';
import type { PlannedChange } from './ports/apply.js';
import type { FilesPort } from './ports/files.js';
import type { JournalEntry, JournalFile } from './ports/review.js';
import { editResult, type EditPorts, type EditResult } from './fileEdit.js';
import { defineCommand } from './registry.js';

const ID = 'editls.undo';

const args = () =>
  z
    .object({
      path: filePath().optional().describe('The file whose last editls change to revert; without it, the last editls command (all its files).'),
    })
    .strict();

export const undoCommand = defineCommand({
  id: ID,
  title: 'Undo the last editls change (to a file, or the last command)',
  args,
  effect: 'undo',
  idempotent: false,
  tool: {
    name: 'undo',
    render: 'edit',
    params: ['path'],
    description:
      'Undo the last editls change to a file (or, without path, the last editls command), restoring exactly what it replaced. Refused as stale when the file changed since (someone typed or saved): nothing is lost.',
  },
  run: async (ctx: EditPorts, a) => {
    let target: string | undefined;
    if (a.path !== undefined) {
      const resolved = await ctx.resolvePath(a.path);
      if (!resolved.ok) return resolved;
      target = resolved.absPath;
    }
    const first = ctx.journal.latest(target);
    if (!first) return nothingLeft(a.path);
    const paths = (target !== undefined ? [target] : first.files.map((f) => f.absPath)).slice();
    return ctx.withFiles(paths, async () => {
      // Another command may have been recorded or undone while this one waited for the files.
      const entry = ctx.journal.latest(target);
      if (!entry) return nothingLeft(a.path);
      const files = target !== undefined ? entry.files.filter((f) => f.absPath === target) : entry.files;
      if (files.some((f) => !paths.includes(f.absPath))) {
        return fail('stale', 'another editls command changed these files while undo waited; run editls.undo again');
      }
      return undoEntry(ctx, entry, files);
    });
  },
});

function nothingLeft(path: string | undefined): Result<never> {
  return fail('no_change', path === undefined ? 'nothing to undo: editls has applied no change it still remembers' : `nothing to undo for ${path}: editls has applied no change to it that it still remembers`);
}

async function undoEntry(ctx: EditPorts, entry: JournalEntry, files: readonly JournalFile[]): Promise<Result<{ value: EditResult }>> {
  // Every file is checked before anything changes: all of them revert, or none.
  const changes: PlannedChange[] = [];
  const removals: { file: JournalFile; resolved: Extract<Awaited<ReturnType<FilesPort['resolvePath']>>, { ok: true }> }[] = [];
  for (const file of files) {
    const resolved = await ctx.resolvePath(file.absPath);
    if (!resolved.ok) return resolved;
    const snapshot = await ctx.snapshot(resolved);
    if (!snapshot.ok) return snapshot;
    if (snapshot.source === 'missing') {
      return fail('stale', `${file.relPath} no longer exists; editls cannot undo its change to it, so nothing was changed`);
    }
    if (!ctx.journal.holdsWhatEditlsLeft(file, snapshot.text) || (file.created && snapshot.disk?.bom === true)) {
      return fail('stale', `${file.relPath} changed since editls's ${entry.command.split(' ')[0]} (it no longer holds what editls left); undoing would lose those changes, so nothing was changed`, {
        path: file.relPath,
      });
    }
    if (file.created) {
      removals.push({ file, resolved });
      continue;
    }
    changes.push({ snapshot, newText: applySpanEdits(snapshot.text, file.inverse), edits: file.inverse, created: false, replacements: 1 });
  }
  const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: `${ID} ${files.map((f) => f.relPath).join(', ')}`, record: false });
  if (!outcome.ok) return outcome;
  for (const r of removals) {
    const removed = await ctx.removeCreatedFile(r.resolved, r.file);
    if (!removed.ok) return removed;
  }
  ctx.journal.forget(entry.seq, files.map((f) => f.absPath));
  const extra = {
    undone: entry.command,
    ...(removals.length > 0 ? { deleted: removals.map((r) => r.file.relPath) } : {}),
    remaining: Object.fromEntries(files.map((f) => [f.relPath, ctx.journal.depthOf(f.absPath)])),
  };
  const deleted = `deleted ${removals.map((r) => r.file.relPath).join(', ')} (created by editls)`;
  if (changes.length === 0) {
    // Only creations undone: the files are gone, there is no text edit to show.
    const message = `${ID}: ${deleted}`;
    ctx.summarize(message);
    const value: EditResult = {
      success: true,
      status: 'applied',
      applied: true,
      filesChanged: removals.length,
      replacements: removals.length,
      files: removals.map((r) => ({ path: r.file.relPath, uri: r.file.uri, replacements: 1, created: false, via: 'disk' as const, diff: '' })),
      unifiedDiff: '',
      message,
      ...extra,
    };
    return { ok: true as const, value };
  }
  const value = editResult(ctx, ID, changes, outcome, { noun: ['change', 'changes'], extra });
  if (removals.length > 0) {
    value.message = `${value.message}; ${deleted}`;
    value.filesChanged += removals.length;
  }
  return { ok: true as const, value };
}
