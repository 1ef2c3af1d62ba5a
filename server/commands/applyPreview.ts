// editls.applyPreview: applies remembered previews (one by id, or every preview touching a file)
// after re-checking that each document still holds the text the preview was computed on; the
// edits then go out exactly like the original command's would have (editor first, then disk).
import { z } from 'zod';
import { fail, type Result } from '../core/result.js';
import { applySpanEdits, type SpanEdit } from '../core/text/spanEdit.js';
import { filePath } from './args.js';
import type { PlannedChange } from './ports/apply.js';
import type { PreviewRecord } from './ports/review.js';
import { resultTooLong } from '../core/edits/resultSize.js';
import { editResult, maxResultChars, resultTooLarge, type EditPorts, type EditResult } from './fileEdit.js';
import type { FilesPort } from './ports/files.js';
import type { ReviewPort } from './ports/review.js';
import { defineCommand } from './registry.js';

const args = () =>
  z
    .object({
      id: z.string().min(1).optional().describe('The previewId from a preview result.'),
      path: filePath().optional().describe('Instead of id: apply every pending preview touching this file.'),
      // A preview of a preview makes no sense.
      apply: z.enum(['auto', 'editor', 'disk']).optional().describe('Where the edits go, as for any edit command (default auto).'),
    })
    .strict()
    .refine((a) => (a.id === undefined) !== (a.path === undefined), { message: 'give either id (a previewId) or path (apply every preview of that file)' });

export const applyPreviewCommand = defineCommand({
  id: 'editls.applyPreview',
  title: 'Apply a previewed edit (by previewId, or all previews of a file)',
  args,
  effect: 'applyPreview',
  idempotent: true,
  tool: {
    name: 'apply_preview',
    render: 'edit',
    params: ['id'],
    required: ['id'],
    description: 'Apply an edit previewed earlier with apply "preview", by its previewId; stale or not_found when the file changed since (run the edit again).',
  },
  run: async (ctx, a) => {
    const records = await selectPreviews(ctx, a);
    if (!records.ok) return records;
    const theirs = records.previews.filter((p) => p.writer !== undefined);
    if (theirs.length === 0) return applyPreviews(ctx, 'editls.applyPreview', records.previews, a.apply ?? 'auto');
    const accepted = acceptForWriters(ctx, theirs);
    const ours = records.previews.filter((p) => p.writer === undefined);
    if (ours.length === 0) return { ok: true as const, value: accepted };
    const applied = await applyPreviews(ctx, 'editls.applyPreview', ours, a.apply ?? 'auto');
    return applied.ok ? { ok: true as const, value: { ...applied.value, message: `${applied.value.message}; ${accepted.message}`, accepted: accepted.accepted } } : applied;
  },
});

/** The previews an id or a path names; not_found when there are none. Shared with editls.discardPreview. */
export async function selectPreviews(ctx: ReviewPort & Pick<FilesPort, 'resolvePath'>, a: { id?: string | undefined; path?: string | undefined }): Promise<Result<{ previews: PreviewRecord[] }>> {
  if (a.id !== undefined) {
    const record = ctx.previews.get(a.id);
    if (!record) {
      return fail('not_found', `no pending preview ${a.id}: it was applied, discarded, or a document it touches changed; run the command again to get a new preview`, {
        id: a.id,
      });
    }
    return { ok: true, previews: [record] };
  }
  const resolved = await ctx.resolvePath(a.path!);
  if (!resolved.ok) return resolved;
  const previews = ctx.previews.touching(resolved.absPath);
  if (previews.length === 0) return fail('not_found', `no pending previews touch ${resolved.relPath}; nothing to apply or discard`, { path: resolved.relPath });
  return { ok: true, previews };
}

/**
 * Previews of an agent CLI's own edits (an IDE review): accepting one writes nothing here — the agent
 * hears "accepted" through the preview's end and writes the file itself.
 */
function acceptForWriters(ctx: EditPorts, previews: readonly PreviewRecord[]): EditResult & { accepted: string[] } {
  const ids = previews.map((p) => p.id);
  const files = [...new Set(previews.flatMap((p) => p.changes.map((c) => c.snapshot.resolved.relPath)))];
  const writers = [...new Set(previews.map((p) => p.writer))].join(', ');
  ctx.previews.remove(ids, { how: 'applied', value: { accepted: true } });
  const message = `editls.applyPreview: accepted ${writers}'s change to ${files.join(', ')} (preview ${ids.join(', ')}); ${writers} writes ${files.length === 1 ? 'it' : 'them'}`;
  ctx.summarize(message);
  return { success: true, status: 'applied', applied: false, filesChanged: 0, replacements: 0, files: [], unifiedDiff: '', message, accepted: ids, writtenBy: writers };
}

interface FileGroup {
  first: PlannedChange;
  edits: { edit: SpanEdit; previewId: string }[];
  replacements: number;
}

export async function applyPreviews(ctx: EditPorts, command: string, previews: readonly PreviewRecord[], mode: 'auto' | 'editor' | 'disk'): Promise<Result<{ value: EditResult }>> {
  // Previews of one file were all computed on its current text (any change ends them), so their
  // edits combine into one change per file, provided they do not overlap.
  const groups = new Map<string, FileGroup>();
  for (const p of previews) {
    for (const c of p.changes) {
      const key = c.snapshot.resolved.absPath;
      const group = groups.get(key) ?? { first: c, edits: [], replacements: 0 };
      if (group.first.snapshot.text !== c.snapshot.text || group.first.created !== c.created) {
        return fail('stale', `previews ${previewIds(previews)} were computed on different versions of ${c.snapshot.resolved.relPath}; apply them one at a time`);
      }
      group.edits.push(...c.edits.map((edit) => ({ edit, previewId: p.id })));
      group.replacements += c.replacements;
      groups.set(key, group);
    }
  }
  const ids = previews.map((p) => p.id);
  return ctx.withFiles([...groups.keys()], async () => {
    const applying = ctx.previews.applying(ids);
    try {
      return await applyGroups(ctx, command, previews, groups, mode);
    } finally {
      applying.done();
    }
  });
}

/** Re-checks each file and applies the previews' combined changes; the previews end as applied, or as expired when their text moved on. */
async function applyGroups(ctx: EditPorts, command: string, previews: readonly PreviewRecord[], groups: Map<string, FileGroup>, mode: 'auto' | 'editor' | 'disk'): Promise<Result<{ value: EditResult }>> {
  const ids = previews.map((p) => p.id);
  const changes: PlannedChange[] = [];
  for (const group of groups.values()) {
    const change = await recheck(ctx, group);
    if (!change.ok) {
      if (change.kind === 'stale') ctx.previews.remove(ids, { how: 'expired', why: change.message });
      return change;
    }
    changes.push(change.change);
  }
  // Named in the journal (and undo's review prompt) after what the previews do, not after applying them.
  const label = `${[...new Set(previews.map((p) => p.command))].join('+')} ${changes.map((c) => c.snapshot.resolved.relPath).join(', ')} (preview ${ids.join(', ')})`;
  const outcome = await ctx.apply(changes, mode, { confirm: false, label });
  if (!outcome.ok) {
    if (outcome.kind === 'stale') ctx.previews.remove(ids, { how: 'expired', why: outcome.message });
    return outcome;
  }
  const value = editResult(ctx, command, changes, outcome, { extra: { previewIds: ids } });
  ctx.previews.remove(ids, { how: 'applied', value });
  return { ok: true as const, value };
}

/** Re-reads the file and rebuilds its change on the fresh snapshot, or fails stale when its text moved on. */
async function recheck(ctx: EditPorts, group: FileGroup): Promise<Result<{ change: PlannedChange }>> {
  const before = group.first.snapshot;
  const rel = before.resolved.relPath;
  const resolved = await ctx.resolvePath(before.resolved.absPath);
  if (!resolved.ok) return resolved;
  if (resolved.absPath !== before.resolved.absPath) {
    return fail('stale', `${rel} now leads to another file (${resolved.relPath}): a folder on its path was moved or replaced since the preview; nothing applied`);
  }
  const fresh = await ctx.snapshot(resolved);
  if (!fresh.ok) return fresh;
  if (group.first.created) {
    if (fresh.source !== 'missing') return fail('stale', `${rel} was created since the preview; nothing applied, run the command again`, { actual: fresh.text });
  } else if (fresh.source === 'missing') {
    return fail('stale', `${rel} was deleted since the preview; nothing applied`);
  } else if (fresh.text !== before.text) {
    return fail('stale', `${rel} changed since the preview was computed; nothing applied, run the command again for a new preview`, { actual: fresh.text });
  }
  const sorted = [...group.edits].sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const next = sorted[i]!;
    if (next.edit.start < prev.edit.end || (next.edit.start === prev.edit.start && prev.previewId !== next.previewId)) {
      return fail('ambiguous', `previews ${prev.previewId} and ${next.previewId} change the same text in ${rel}; apply one of them by id and run the other command again`, {
        previews: [prev.previewId, next.previewId],
      });
    }
  }
  const edits = sorted.map((e) => e.edit);
  const base = group.first.created ? '' : fresh.text;
  // Previews combined may grow past what each one did alone: the length first, then the bytes.
  let length = base.length;
  for (const e of edits) length += e.newText.length - (e.end - e.start);
  const tooLong = resultTooLong(rel, length, maxResultChars(ctx), 'applying these previews together');
  if (tooLong) return tooLong;
  const newText = applySpanEdits(base, edits);
  const tooLarge = resultTooLarge(ctx, 'applying these previews together', { snapshot: fresh, newText, edits, created: group.first.created });
  if (tooLarge) return tooLarge;
  return {
    ok: true,
    change: { snapshot: fresh, newText, edits, created: group.first.created, replacements: group.replacements },
  };
}

function previewIds(previews: readonly PreviewRecord[]): string {
  return previews.map((p) => p.id).join(', ');
}
