// editls.trimTrailingWhitespace and editls.normalizeLineEndings: the edits a user takes without
// typing anything (offered as code actions), computed by core and applied like every edit command.
import { z } from 'zod';
import { normalizeLineEndings, trimTrailingWhitespace, endingName } from '../core/edits/whitespace.js';
import { applyOptions, filePath, wholeNumber } from './args.js';
import { maxResultChars, missingFile, runFileEdit, type EditPorts } from './fileEdit.js';
import { defineCommand } from './registry.js';

const trimArgs = () =>
  z
    .object({
      path: filePath(),
      start_line: wholeNumber(1).optional().describe('First line (1-based); without start_line and end_line, the whole file.'),
      end_line: wholeNumber(1).optional().describe('Last line (1-based, inclusive).'),
      ...applyOptions(),
    })
    .strict();

export const trimTrailingWhitespaceCommand = defineCommand({
  id: 'editls.trimTrailingWhitespace',
  title: 'Remove trailing whitespace (whole file or a line range)',
  args: trimArgs,
  effect: 'edit',
  idempotent: true,
  run: (ctx: EditPorts, a) =>
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
});

const normalizeArgs = () => z.object({ path: filePath(), ...applyOptions() }).strict();

export const normalizeLineEndingsCommand = defineCommand({
  id: 'editls.normalizeLineEndings',
  title: "Normalise mixed line endings to the file's dominant one",
  args: normalizeArgs,
  effect: 'edit',
  idempotent: true,
  run: (ctx: EditPorts, a) =>
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
});
