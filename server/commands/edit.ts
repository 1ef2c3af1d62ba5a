// editls.edit: Claude-Code-style exact, unique old_string -> new_string; an empty old_string
// creates a missing file (empty when new_string is empty too) or fills an existing empty one, an
// empty new_string deletes the matched text.
import { z } from 'zod';
import { computeEdit } from '../core/edits/edit.js';
import { applyOptions, boolish, pathString, text } from './args.js';
import { maxResultChars, missingFile, runFileEdit } from './fileEdit.js';
import type { CommandDefinition } from './registry.js';

const args = z
  .object({
    file_path: pathString,
    old_string: text,
    new_string: text,
    replace_all: boolish.optional(),
    ...applyOptions,
  })
  .strict();

export const editCommand: CommandDefinition<typeof args> = {
  id: 'editls.edit',
  title: 'Edit a file: replace an exact, unique string',
  args,
  run: (ctx, a) =>
    runFileEdit(ctx, {
      command: 'editls.edit',
      path: a.file_path,
      apply: a.apply ?? 'auto',
      confirm: a.confirm ?? false,
      compute: (snapshot) => {
        if (snapshot.source === 'missing') {
          if (a.old_string !== '') return missingFile(snapshot);
          // An empty new_string creates an empty file (__init__.py, .gitkeep); creation never replaces a file.
          return {
            ok: true,
            newText: a.new_string,
            edits: a.new_string === '' ? [] : [{ start: 0, end: 0, newText: a.new_string }],
            replacements: 1,
            created: true,
          };
        }
        return computeEdit(
          snapshot.text,
          { oldString: a.old_string, newString: a.new_string, replaceAll: a.replace_all ?? false, maxResultChars: maxResultChars(ctx) },
          snapshot.resolved.relPath,
        );
      },
    }),
};
