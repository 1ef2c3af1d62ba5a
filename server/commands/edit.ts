// editls.edit: Claude-Code-style exact, unique old_string -> new_string; an empty old_string
// creates a missing file (empty when new_string is empty too) or fills an existing empty one, an
// empty new_string deletes the matched text.
import { z } from 'zod';
import { computeEdit } from '../core/edits/edit.js';
import { applyOptions, filePath, flag, text } from './args.js';
import { maxResultChars, missingFile, runFileEdit, type EditPorts } from './fileEdit.js';
import { defineCommand } from './registry.js';
import { editToolText } from './toolText.js';

const args = () =>
  z
    .object({
      file_path: filePath(),
      old_string: text().describe('The exact text to replace (without read_file line numbers); "" creates the file.'),
      new_string: text().describe('The replacement text (must differ from old_string); "" deletes the match.'),
      replace_all: flag().optional().describe('Replace every occurrence (default false).'),
      ...applyOptions(),
    })
    .strict();

export const editCommand = defineCommand({
  id: 'editls.edit',
  title: 'Edit a file: replace an exact, unique string',
  args,
  effect: 'edit',
  idempotent: true,
  tool: {
    name: 'edit',
    render: 'edit',
    params: ['file_path', 'old_string', 'new_string', 'replace_all', 'apply'],
    description: editToolText(
      'Replace an exact string in a file: old_string must match the file exactly (indentation included) and be unique unless replace_all is true. ' +
        'An empty old_string creates a new file with new_string as content.',
    ),
  },
  run: (ctx: EditPorts, a) =>
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
});
