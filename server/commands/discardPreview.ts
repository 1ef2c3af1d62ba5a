// editls.discardPreview: forgets remembered previews (one by id, or every preview touching a file)
// and clears their hint diagnostics; nothing in the editor or on disk changes.
import { z } from 'zod';
import { pathString } from './args.js';
import { selectPreviews } from './applyPreview.js';
import type { CommandDefinition } from './registry.js';

const args = z
  .object({
    /** The previewId a preview result returned. */
    id: z.string().min(1).optional(),
    /** Instead of id: discard every live preview touching this file. */
    path: pathString.optional(),
  })
  .strict()
  .refine((a) => (a.id === undefined) !== (a.path === undefined), { message: 'give either id (a previewId) or path (discard every preview of that file)' });

export const discardPreviewCommand: CommandDefinition<typeof args> = {
  id: 'editls.discardPreview',
  title: 'Discard a previewed edit (by previewId, or all previews of a file)',
  args,
  run: async (ctx, a) => {
    const selected = await selectPreviews(ctx, a);
    if (!selected.ok) return selected;
    const ids = selected.previews.map((p) => p.id);
    ctx.previews.remove(ids, { how: 'discarded' });
    const message = `editls.discardPreview: discarded preview${ids.length === 1 ? '' : 's'} ${ids.join(', ')}; nothing changed`;
    ctx.summarize(message);
    return { ok: true as const, value: { success: true, discarded: ids, message } };
  },
};
