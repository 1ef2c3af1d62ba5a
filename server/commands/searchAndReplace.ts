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
import { applyOptions, filePath, flag, text, wholeNumber } from './args.js';
import { maxResultChars, missingFile, type EditPorts } from './fileEdit.js';
import type { SearchPort } from './ports/search.js';
import { defineCommand } from './registry.js';
import { editToolText } from './toolText.js';
import { runFileEditAllowingNoChange } from './unchanged.js';

const ID = 'editls.searchAndReplace';

const args = () =>
  z
    .object({
      path: filePath(),
      // Matched on \n-normalised text.
      search: text().min(1, 'must not be empty').describe('Text to find (a JavaScript regular expression with use_regex).'),
      replace: text().describe('Replacement text: verbatim, or with use_regex $1 $& $$ $<name>.'),
      start_line: wholeNumber(1).optional().describe('First line of the scope (1-based).'),
      end_line: wholeNumber(1).optional().describe('Last line of the scope (1-based, inclusive).'),
      use_regex: flag().optional().describe('search is a JavaScript regular expression.'),
      ignore_case: flag().optional().describe('Case-insensitive.'),
      maxDiffChars: wholeNumber(0, 'must be 0 (unlimited) or more').optional().describe('The diff in the result is cut after this many characters (0 = unlimited).'),
      ...applyOptions(),
    })
    .strict();

export const searchAndReplaceCommand = defineCommand({
  id: ID,
  title: 'Replace every match of a text or regex in a file, optionally within a line range',
  args,
  effect: 'edit',
  idempotent: true,
  tool: {
    name: 'search_and_replace',
    render: 'edit',
    params: ['path', 'search', 'replace', 'start_line', 'end_line', 'use_regex', 'ignore_case', 'apply'],
    description: editToolText(
      'Replace every occurrence of a literal string (or a JavaScript regex with use_regex; $1, $<name> in replace) in one file, optionally only within 1-based lines start_line..end_line. ' +
        'Use it for renames within a file. A regex running too long is stopped (regex_timeout).',
    ),
  },
  run: (ctx: EditPorts & Pick<SearchPort, 'scanRegex'>, a) => {
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
});
