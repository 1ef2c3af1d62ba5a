// editls.trimTrailingWhitespace and editls.normalizeLineEndings: the edits a user takes without
// typing anything (offered as code actions), computed by core and applied like every edit command.
import { z } from 'zod';
import { normalizeLineEndings, trimTrailingWhitespace, endingName } from '../core/edits/whitespace.js';
import { applyOptions, intish, pathString } from './args.js';
import { maxResultChars, missingFile, runFileEdit } from './fileEdit.js';
import type { CommandDefinition } from './registry.js';

const trimArgs = z
  .object({
    path: pathString,
    /** 1-based, inclusive; both omitted means the whole file. */
    start_line: intish.optional(),
    end_line: intish.optional(),
    ...applyOptions,
  })
  .strict();

export const trimTrailingWhitespaceCommand: CommandDefinition<typeof trimArgs> = {
  id: 'editls.trimTrailingWhitespace',
  title: 'Remove trailing whitespace (whole file or a line range)',
  args: trimArgs,
  run: (ctx, a) =>
    runFileEdit(ctx, {
      command: 'editls.trimTrailingWhitespace',
      path: a.path,
      apply: a.apply ?? 'auto',
      confirm: a.confirm ?? false,
      noun: ['line trimmed', 'lines trimmed'],
      compute: (snapshot) => {
        if (snapshot.source === 'missing') return missingFile(snapshot);
        const rel = snapshot.resolved.relPath;
        if (a.start_line === undefined && a.end_line === undefined) return trimTrailingWhitespace(snapshot.text, rel);
        const start = a.start_line ?? 1;
        const end = a.end_line ?? Number.MAX_SAFE_INTEGER;
        return trimTrailingWhitespace(snapshot.text, rel, { start, end });
      },
    }),
};

const normalizeArgs = z.object({ path: pathString, ...applyOptions }).strict();

export const normalizeLineEndingsCommand: CommandDefinition<typeof normalizeArgs> = {
  id: 'editls.normalizeLineEndings',
  title: "Normalise mixed line endings to the file's dominant one",
  args: normalizeArgs,
  run: (ctx, a) =>
    runFileEdit(ctx, {
      command: 'editls.normalizeLineEndings',
      path: a.path,
      apply: a.apply ?? 'auto',
      confirm: a.confirm ?? false,
      noun: ['line ending rewritten', 'line endings rewritten'],
      compute: (snapshot) => {
        if (snapshot.source === 'missing') return missingFile(snapshot);
        const r = normalizeLineEndings(snapshot.text, snapshot.resolved.relPath, maxResultChars(ctx));
        if (!r.ok) return r;
        return { ok: true, newText: r.newText, edits: r.edits, replacements: r.replacements, extra: { lineEnding: endingName(r.eol) } };
      },
    }),
};
