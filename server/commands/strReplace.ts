// editls.strReplace and editls.proposeStrReplace: Codebuff-style ordered replacements, tolerant of
// indentation and whitespace but never ambiguous; the propose variant is the same as a preview.
import { z } from 'zod';
import { computeStrReplace } from '../core/edits/strReplace.js';
import { applyOptions, boolish, pathString, text } from './args.js';
import { maxResultChars, missingFile, runFileEdit } from './fileEdit.js';
import type { CommandDefinition } from './registry.js';

const replacement = z
  .object({
    old: text.refine((s) => s !== '', {
      message: 'must not be empty: give the exact text to replace (to create a file use editls.edit with an empty old_string)',
    }),
    new: text,
    allowMultiple: boolish.optional(),
  })
  .strict();

const args = z
  .object({
    path: pathString,
    replacements: z.array(replacement).min(1, 'give at least one replacement'),
    atomic: boolish.optional(),
    ...applyOptions,
  })
  .strict();

type Args = z.output<typeof args>;

function run(id: string, forcePreview: boolean) {
  return (ctx: Parameters<CommandDefinition['run']>[0], a: Args) =>
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

export const strReplaceCommand: CommandDefinition<typeof args> = {
  id: 'editls.strReplace',
  title: 'Apply ordered str_replace edits to a file',
  args,
  run: run('editls.strReplace', false),
};

export const proposeStrReplaceCommand: CommandDefinition<typeof args> = {
  id: 'editls.proposeStrReplace',
  title: 'Preview ordered str_replace edits without changing anything',
  args,
  run: run('editls.proposeStrReplace', true),
};
