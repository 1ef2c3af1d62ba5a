// editls.insert: the text editor tools' `insert` — new lines after a 1-based line (0 = at the start,
// the line count = at the end), into the open buffer or the file on disk like every edit.
import { z } from 'zod';
import { computeInsert } from '../core/edits/insert.js';
import { applyOptions, filePath, text, wholeNumber } from './args.js';
import { missingFile, runFileEdit, type EditPorts } from './fileEdit.js';
import { defineCommand } from './registry.js';
import { editToolText } from './toolText.js';

const ID = 'editls.insert';

const args = () =>
  z
    .object({
      path: filePath(),
      insert_line: wholeNumber(0).describe('Insert after this 1-based line (0 = before the first, the line count = at the end).'),
      // A missing final line break is added; breaks take the file's dominant ending.
      new_str: text().describe('The lines to insert.'),
      ...applyOptions(),
    })
    .strict();

export const insertCommand = defineCommand({
  id: ID,
  title: 'Insert lines after a given line',
  args,
  effect: 'edit',
  idempotent: false,
  additive: true,
  tool: {
    name: 'insert',
    render: 'edit',
    params: ['path', 'insert_line', 'new_str', 'apply'],
    description: editToolText('Insert whole lines after a 1-based line (0 = at the start, the line count = at the end), without quoting existing text.'),
  },
  run: (ctx: EditPorts, a) =>
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
});
