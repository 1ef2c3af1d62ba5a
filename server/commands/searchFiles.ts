// editls.searchFiles: Roo-Code-style search_files on ripgrep (Rust regex syntax) with its quirks
// fixed: ignore files honoured outside git, file_pattern that never re-includes ignored files, a
// cap with a notice, character-safe line cuts, open buffers searched as the editor shows them.
import { z } from 'zod';
import { fail } from '../core/result.js';
import { layoutText, structuredMatches } from '../core/search/layout.js';
import { SETTINGS_DEFAULTS } from '../settings.js';
import { filePattern, flag, pathString, type SchemaMeta } from './args.js';
import { defineCommand } from './registry.js';
import type { SearchFilesResult } from './results.js';
import type { ProgressPort } from './ports/progress.js';
import type { RequestPort } from './ports/request.js';
import type { SearchPort } from './ports/search.js';

/** A non-negative integer, also as a numeric string (agents stringify numbers too). */
const count = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\s*\d+\s*$/, 'must be a whole number').transform(Number)])
    .pipe(z.number().int().min(min).max(max))
    .meta({ json: { type: 'integer', minimum: min, maximum: max } } satisfies SchemaMeta);

const args = () =>
  z
    .object({
      path: pathString().describe('Folder or file to search, relative to the workspace folder; "." is the workspace folder.'),
      regex: z.string().min(1, 'must be a non-empty regular expression').describe('Rust regex (ripgrep syntax: no look-around).'),
      // With a "/" the glob matches the path below `path`.
      file_pattern: z.string().optional().describe('Glob narrowing the files, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
      respect_gitignore: flag().optional().describe('false also searches files .gitignore excludes (default true).'),
      context_lines: count(0, 50).optional().describe(`Lines of context around each hit (default ${SETTINGS_DEFAULTS.contextLines}).`),
      max_results: count(1, 100_000).optional().describe(`Cap on matching lines (default ${SETTINGS_DEFAULTS.maxResults}).`),
    })
    .strict();

/** Whether a search honours .gitignore when respect_gitignore is not given. */
export const RESPECT_GITIGNORE_BY_DEFAULT = true;

/** Searches taking longer than this show $/progress on a token editls creates (a client-sent token shows at once). */
const PROGRESS_DELAY_MS = 500;

export const searchFilesCommand = defineCommand({
  id: 'editls.searchFiles',
  title: 'Search files with ripgrep (regex, file pattern, context lines)',
  args,
  effect: 'read',
  idempotent: true,
  tool: {
    name: 'search_files',
    render: 'search',
    params: ['path', 'regex', 'file_pattern', 'context_lines', 'max_results'],
    description:
      'Search file contents with a regex (ripgrep, Rust syntax: no look-around) under a folder, honouring .gitignore; open buffers are searched as the editor shows them. Returns matching lines with context, grouped per file.',
  },
  run: async (ctx: RequestPort & SearchPort & ProgressPort, a) => {
    const pattern = filePattern(a.file_pattern);
    if (!pattern.ok) return pattern;
    const glob = pattern.glob;
    const scope = await ctx.resolveSearchScope(a.path);
    if (!scope.ok) return scope;
    if (!scope.exists) {
      return fail('file_not_found', `${scope.relPath} does not exist; pass a folder or file inside the workspace ("." for the whole folder)`, { path: scope.relPath });
    }
    if (ctx.signal.aborted) return fail('cancelled', 'searchFiles was cancelled');
    const maxResults = a.max_results ?? ctx.settings.maxResults;
    const contextLines = a.context_lines ?? ctx.settings.contextLines;
    const progress = ctx.startProgress(`editls: searching ${scope.relPath === '.' ? 'the workspace' : scope.relPath}`, { delayMs: PROGRESS_DELAY_MS });
    let outcome;
    try {
      outcome = await ctx.searchFiles({
        scope,
        regex: a.regex,
        ...(glob ? { glob } : {}),
        respectIgnore: a.respect_gitignore ?? RESPECT_GITIGNORE_BY_DEFAULT,
        contextLines,
        maxResults,
        signal: AbortSignal.any([ctx.signal, progress.signal]),
        onProgress: (lines, files) => progress.report(`${lines} matching line${lines === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`),
      });
    } finally {
      progress.done();
    }
    if (!outcome.ok) return outcome;
    const options = { maxResults, maxLineLength: ctx.settings.maxLineLength, encoding: ctx.encoding };
    const text = layoutText(outcome.files, outcome.matchCount, outcome.truncated, options);
    const matches = structuredMatches(outcome.files, options);
    const files = outcome.files.length;
    const message = `editls.searchFiles: ${outcome.truncated ? `first ${maxResults}+` : outcome.matchCount} matching line${outcome.matchCount === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} for /${a.regex}/${glob ? ` (${glob.source})` : ''} in ${scope.relPath}`;
    ctx.summarize(message);
    const value: SearchFilesResult = {
      success: true,
      text,
      matches,
      count: outcome.matchCount,
      truncated: outcome.truncated,
      message,
      ...(outcome.notes.length > 0 ? { notes: outcome.notes } : {}),
    };
    return { ok: true as const, value };
  },
});
