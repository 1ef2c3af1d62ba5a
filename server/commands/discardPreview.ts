// editls.discardPreview: forgets remembered previews (one by id, or every preview touching a file)
// and clears their hint diagnostics; nothing in the editor or on disk changes.
import { z } from 'zod';
import { filePath } from './args.js';
import { selectPreviews } from './applyPreview.js';
import { defineCommand } from './registry.js';
import type { FilesPort } from './ports/files.js';
import type { RequestPort } from './ports/request.js';
import type { ReviewPort } from './ports/review.js';

const args = () =>
  z
    .object({
      id: z.string().min(1).optional().describe('The previewId from a preview result.'),
      path: filePath().optional().describe('Instead of id: discard every pending preview touching this file.'),
    })
    .strict()
    .refine((a) => (a.id === undefined) !== (a.path === undefined), { message: 'give either id (a previewId) or path (discard every preview of that file)' });

export const discardPreviewCommand = defineCommand({
  id: 'editls.discardPreview',
  title: 'Discard a previewed edit (by previewId, or all previews of a file)',
  args,
  effect: 'preview',
  idempotent: true,
  tool: {
    name: 'discard_preview',
    render: 'edit',
    params: ['id'],
    required: ['id'],
    description: 'Forget a previewed edit (its hints disappear from the editor).',
  },
  run: async (ctx: ReviewPort & RequestPort & Pick<FilesPort, 'resolvePath'>, a) => {
    const selected = await selectPreviews(ctx, a);
    if (!selected.ok) return selected;
    const ids = selected.previews.map((p) => p.id);
    ctx.previews.remove(ids, { how: 'discarded' });
    const message = `editls.discardPreview: discarded preview${ids.length === 1 ? '' : 's'} ${ids.join(', ')}; nothing changed`;
    ctx.summarize(message);
    return { ok: true as const, value: { success: true, discarded: ids, message } };
  },
});
