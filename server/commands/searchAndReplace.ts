// editls.searchAndReplace: Roo-Code-style search and replace of every match, literal or JavaScript
// regex, optionally within 1-based inclusive lines; the regex runs off the main thread with a deadline.
import { z } from 'zod';
import {
  finishSearchAndReplace,
  noMatchMessage,
  prepareSearchAndReplace,
  scanHere,
  type PreparedSearch,
} from '../core/edits/searchAndReplace.js';
import { MAX_RESULT_CHARS_CAP } from '../core/edits/resultSize.js';
import { applyOptions, boolish, intish, pathString, text } from './args.js';
import { maxResultChars, missingFile } from './fileEdit.js';
import type { CommandDefinition } from './registry.js';
import { runFileEditAllowingNoChange } from './unchanged.js';

const ID = 'editls.searchAndReplace';

const args = z
  .object({
    path: pathString,
    /** The text (or, with use_regex, the JavaScript pattern) to find; matched on \n-normalised text. */
    search: text.min(1, 'must not be empty'),
    /** Verbatim in literal mode; with use_regex it understands $1 $& $$ $<name> (and $` $'). */
    replace: text,
    start_line: intish.optional(),
    end_line: intish.optional(),
    use_regex: boolish.optional(),
    ignore_case: boolish.optional(),
    /** The diff in the result is cut after this many characters (0 = unlimited). */
    maxDiffChars: intish.refine((n) => n >= 0, 'must be 0 (unlimited) or more').optional(),
    ...applyOptions,
  })
  .strict();

export const searchAndReplaceCommand: CommandDefinition<typeof args> = {
  id: ID,
  title: 'Replace every match of a text or regex in a file, optionally within a line range',
  args,
  run: (ctx, a) => {
    let prepared: PreparedSearch | undefined;
    return runFileEditAllowingNoChange(
      ctx,
      {
        command: ID,
        path: a.path,
        apply: a.apply ?? 'auto',
        confirm: a.confirm ?? false,
        maxDiffChars: a.maxDiffChars ?? ctx.settings.maxDiffChars,
        compute: async (snapshot) => {
          if (snapshot.source === 'missing') return missingFile(snapshot);
          const p = prepareSearchAndReplace(
            snapshot.text,
            {
              search: a.search,
              replace: a.replace,
              ...(a.start_line !== undefined ? { startLine: a.start_line } : {}),
              ...(a.end_line !== undefined ? { endLine: a.end_line } : {}),
              useRegex: a.use_regex ?? false,
              ignoreCase: a.ignore_case ?? false,
              // Memory for the replacement texts (a result may also shrink: the final length is checked apart).
              maxOutput: Math.min(2 * ctx.settings.maxFileSize, MAX_RESULT_CHARS_CAP),
              maxResultChars: maxResultChars(ctx),
            },
            snapshot.resolved.relPath,
          );
          if (!p.ok) return p;
          prepared = p.prepared;
          // Anything that runs the regex engine gets a worker and a deadline; a plain literal is indexOf.
          const reply = prepared.usesRegex ? await ctx.scanRegex(prepared.job) : scanHere(prepared);
          const r = finishSearchAndReplace(prepared, reply);
          if (!r.ok) return r;
          return { ok: true, newText: r.newText, edits: r.edits, replacements: r.replacements, ...(r.lines ? { extra: { lines: r.lines } } : {}) };
        },
      },
      (snapshot, computed) =>
        computed.replacements === 0 && prepared
          ? noMatchMessage(ID, prepared)
          : `${ID}: ${computed.replacements} match${computed.replacements === 1 ? '' : 'es'} in ${snapshot.resolved.relPath}, each replaced by identical text; nothing changed`,
    );
  },
};
