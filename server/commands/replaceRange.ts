// editls.replaceRange: Glider-style guarded replace of an exact 1-based line/UTF-16-column range,
// refused (stale) unless the range still holds expectedText; reports the old and new ranges and
// shapes the diff (includeDiff, maxDiffChars).
import { z } from 'zod';
import { computeReplaceRange } from '../core/edits/replaceRange.js';
import { applyOptions, filePath, flag, text, wholeNumber } from './args.js';
import { maxResultChars, missingFile, type EditPorts } from './fileEdit.js';
import { defineCommand } from './registry.js';
import { editToolText } from './toolText.js';
import { runFileEditAllowingNoChange } from './unchanged.js';

const ID = 'editls.replaceRange';

const args = () =>
  z
    .object({
      // 1-based lines, 1-based UTF-16 columns (whatever the session's position encoding), exclusive end.
      filePath: filePath(),
      startLine: wholeNumber(1).describe('1-based start line.'),
      startColumn: wholeNumber(1).describe('1-based start column.'),
      endLine: wholeNumber(1).describe('1-based end line.'),
      endColumn: wholeNumber(1).describe('1-based end column (exclusive).'),
      expectedText: z.string().min(1, 'must not be empty (replaceRange replaces existing text)').describe('The current text of the range, exactly (line endings included).'),
      replacementText: text().describe('The new text, verbatim.'),
      applyChanges: flag().optional().describe('false = preview (same as apply "preview").'),
      includeDiff: flag().optional().describe('false leaves the diffs out of the result (default true).'),
      maxDiffChars: wholeNumber(0, 'must be 0 (unlimited) or more').optional().describe('A longer diff is cut (0 = unlimited).'),
      ...applyOptions(),
    })
    .strict()
    .refine((a) => !(a.applyChanges === false && a.apply !== undefined && a.apply !== 'preview'), {
      message: 'applyChanges false means a preview; it contradicts apply other than "preview"',
      path: ['applyChanges'],
    });

export const replaceRangeCommand = defineCommand({
  id: ID,
  title: 'Replace an exact line/column range, guarded by the text it must still hold',
  args,
  effect: 'edit',
  idempotent: true,
  tool: {
    name: 'replace_range',
    render: 'edit',
    params: ['filePath', 'startLine', 'startColumn', 'endLine', 'endColumn', 'expectedText', 'replacementText', 'apply'],
    defaults: { includeDiff: true },
    description: editToolText(
      'Replace the text between two positions (1-based lines, 1-based columns, end exclusive) after checking it still equals expectedText exactly; stale (with the actual text) when it does not.',
    ),
  },
  run: async (ctx: EditPorts, a) => {
    const apply = a.applyChanges === false ? 'preview' : (a.apply ?? 'auto');
    const result = await runFileEditAllowingNoChange(
      ctx,
      {
        command: ID,
        path: a.filePath,
        apply,
        confirm: a.confirm ?? false,
        // Without a diff wanted, a 1-character budget keeps its cost near zero; it is blanked below.
        maxDiffChars: a.includeDiff === false ? 1 : (a.maxDiffChars ?? ctx.settings.maxDiffChars),
        compute: (snapshot) => {
          if (snapshot.source === 'missing') return missingFile(snapshot);
          const r = computeReplaceRange(snapshot.text, { ...a, maxResultChars: maxResultChars(ctx) }, snapshot.resolved.relPath);
          if (!r.ok) return r;
          return {
            ok: true,
            newText: r.newText,
            edits: r.edits,
            replacements: r.replacements,
            extra: { oldRange: r.oldRange, newRange: r.newRange, wouldChange: r.wouldChange },
          };
        },
      },
      (snapshot) => `${ID}: the replacement equals the text at ${a.startLine}:${a.startColumn}-${a.endLine}:${a.endColumn} in ${snapshot.resolved.relPath}; nothing changed`,
    );
    if (!result.ok) return result;
    if (a.includeDiff === false) {
      const value = result.value;
      value.unifiedDiff = '';
      for (const f of value.files) f.diff = '';
      delete value.diffTruncated;
    }
    return result;
  },
});
