// Edit commands that may legitimately change nothing (searchAndReplace without a match, replaceRange
// with an identical replacement): runFileEdit with a success result that applies nothing, writes
// nothing, remembers no preview, has filesChanged 0 and still sends its one-line summary.
import { fail, type Result } from '../core/result.js';
import type { Snapshot } from './ports/files.js';
import { runFileEdit, type Computed, type EditPorts, type EditResult, type FileEditRequest } from './fileEdit.js';

/**
 * Like runFileEdit, but a computation with no edits ends (still under the file lock) in a success
 * whose `message` comes from `describe`. `replacements` keeps the computed count (matches whose
 * replacement equals the matched text still count).
 */
export async function runFileEditAllowingNoChange(
  ctx: EditPorts,
  req: FileEditRequest,
  describe: (snapshot: Snapshot, computed: Computed) => string,
): Promise<Result<{ value: EditResult }>> {
  let unchanged: { snapshot: Snapshot; computed: Computed } | undefined;
  const result = await runFileEdit(ctx, {
    ...req,
    compute: async (snapshot) => {
      const computed = await req.compute(snapshot);
      if (computed.ok && computed.edits.length === 0 && !computed.created) {
        unchanged = { snapshot, computed };
        // Leaves runFileEdit before anything is applied; turned into the success below.
        return fail('no_change', 'nothing to change');
      }
      return computed;
    },
  });
  if (result.ok || unchanged === undefined) return result;
  const { snapshot, computed } = unchanged;
  const message = describe(snapshot, computed);
  ctx.summarize(message);
  const preview = req.apply === 'preview';
  const value: EditResult = {
    success: true,
    status: preview ? 'preview' : 'applied',
    applied: !preview,
    filesChanged: 0,
    replacements: computed.replacements,
    files: [],
    unifiedDiff: '',
    edit: { changes: {} },
    message,
    ...(computed.extra ?? {}),
  };
  return { ok: true, value };
}
