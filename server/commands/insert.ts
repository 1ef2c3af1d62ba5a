// editls.insert: the text editor tools' `insert` — new lines after a 1-based line (0 = at the start,
// the line count = at the end), into the open buffer or the file on disk like every edit.
import { z } from 'zod';
import { computeInsert } from '../core/edits/insert.js';
import { applyOptions, intish, pathString, text } from './args.js';
import { missingFile, runFileEdit } from './fileEdit.js';
import type { CommandDefinition } from './registry.js';

const ID = 'editls.insert';

const args = z
  .object({
    path: pathString,
    /** The new lines go after this 1-based line; 0 = before the first line, the line count = at the end. */
    insert_line: intish,
    /** The lines to insert; a missing final line break is added, breaks take the file's dominant ending. */
    new_str: text,
    ...applyOptions,
  })
  .strict();

export const insertCommand: CommandDefinition<typeof args> = {
  id: ID,
  title: 'Insert lines after a given line',
  args,
  run: (ctx, a) =>
    runFileEdit(ctx, {
      command: ID,
      path: a.path,
      apply: a.apply ?? 'auto',
      confirm: a.confirm ?? false,
      noun: ['insertion', 'insertions'],
      compute: (snapshot) => {
        if (snapshot.source === 'missing') return missingFile(snapshot);
        const r = computeInsert(snapshot.text, a.insert_line, a.new_str, snapshot.resolved.relPath);
        if (!r.ok) return r;
        return { ok: true, newText: r.newText, edits: r.edits, replacements: r.replacements, extra: { insertedLines: r.insertedLines } };
      },
    }),
};
