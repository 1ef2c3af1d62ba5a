// editls.strReplace and editls.proposeStrReplace: Codebuff-style ordered replacements, tolerant of
// indentation and whitespace but never ambiguous; the propose variant is the same as a preview.
import { z } from 'zod';
import { computeStrReplace } from '../core/edits/strReplace.js';
import { applyOptions, filePath, flag, text } from './args.js';
import { maxResultChars, missingFile, runFileEdit, type EditPorts } from './fileEdit.js';
import { defineCommand } from './registry.js';
import { editToolText } from './toolText.js';

const replacement = () =>
  z
    .object({
      old: text().refine((s) => s !== '', {
        message: 'must not be empty: give the exact text to replace (to create a file use editls.edit with an empty old_string)',
      }),
      new: text(),
      allowMultiple: flag().optional().describe('Replace every occurrence of old.'),
    })
    .strict();

const args = () =>
  z
    .object({
      path: filePath(),
      replacements: z.array(replacement()).min(1, 'give at least one replacement').describe('Replacements applied in order: {old, new, allowMultiple?}.'),
      atomic: flag().optional().describe('All or nothing (default false).'),
      ...applyOptions(),
    })
    .strict();

type Args = z.output<ReturnType<typeof args>>;

function run(id: string, forcePreview: boolean) {
  return (ctx: EditPorts, a: Args) =>
    runFileEdit(ctx, {
      command: id,
      path: a.path,
      apply: forcePreview ? 'preview' : (a.apply ?? 'auto'),
      confirm: a.confirm ?? false,
      compute: (snapshot) => {
        if (snapshot.source === 'missing') return missingFile(snapshot);
        const entries = a.replacements.map((r) => ({ old: r.old, new: r.new, allowMultiple: r.allowMultiple ?? false }));
        const result = computeStrReplace(snapshot.text, entries, a.atomic ?? false, snapshot.resolved.relPath, maxResultChars(ctx));
        if (!result.ok) return result;
        return {
          ok: true,
          newText: result.newText,
          edits: result.edits,
          replacements: result.replacements,
          extra: {
            details: result.details,
            ...(result.details.length === 1 ? { matchedBy: result.details[0]!.matchedBy } : {}),
            ...(result.failedReplacements.length > 0 ? { failedReplacements: result.failedReplacements } : {}),
          },
        };
      },
    });
}

export const strReplaceCommand = defineCommand({
  id: 'editls.strReplace',
  title: 'Apply ordered str_replace edits to a file',
  args,
  effect: 'edit',
  idempotent: true,
  tool: {
    name: 'str_replace',
    render: 'edit',
    params: ['path', 'replacements', 'atomic', 'apply'],
    description: editToolText(
      "Several replacements in one file, in order, as one change. Each entry's old must match exactly (a unique match); if not, editls retries ignoring indentation, then whitespace, and says which matched. " +
        'With atomic true, one failing entry cancels all; otherwise the others apply and failedReplacements lists the rest.',
    ),
  },
  run: run('editls.strReplace', false),
});

export const proposeStrReplaceCommand = defineCommand({
  id: 'editls.proposeStrReplace',
  title: 'Preview ordered str_replace edits without changing anything',
  args,
  effect: 'preview',
  idempotent: false,
  run: run('editls.proposeStrReplace', true),
});
