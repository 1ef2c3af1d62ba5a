// The MCP tools and the one place each maps onto editls: a tool name, its input shape (zod, with
// descriptions written for models) and the LSP request it becomes — nearly always an editls command
// run with the agent's arguments unchanged, so editls's own schema validates them (`invalid_args`).
import { z } from 'zod';

export interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodRawShape;
  /** The editls command the arguments go to (workspace/executeCommand), or workspace/symbol. */
  command: string | { method: 'workspace/symbol' };
  /** Arguments added when the agent leaves them out. */
  defaults?: Record<string, unknown>;
  /** A read-only tool (MCP annotation readOnlyHint). */
  readOnly?: boolean;
}

const LANDS_IN_EDITOR =
  'When an editor is attached, the edit goes into the user\'s open buffer (unsaved, one undo step in the editor) instead of writing behind it; files not open are written to disk atomically. ' +
  'Line endings, BOM and encoding are kept.';
const ERRORS =
  'On failure nothing changes and the result is an error whose text starts with its kind: not_found (old text not in the file; the message shows the closest region — read_file and copy the text exactly), ' +
  'ambiguous (several matches: add context or use replace_all), stale (the file changed meanwhile: read it again), outside_workspace, file_not_found, binary_file, invalid_args, apply_rejected (the user or the editor refused the edit: do not retry without asking).';

const apply = z
  .enum(['auto', 'editor', 'disk', 'preview'])
  .optional()
  .describe('Leave out (auto). "preview" changes nothing and returns a previewId for apply_preview / discard_preview.');
/** A whole number of at least `min` (the tool schema says so: a model does not send -1 then). */
const int = (min: number, d: string) => z.number().int().min(min).describe(d);
const bool = (d: string) => z.boolean().describe(d);
const filePath = z.string().describe('The file: relative to the workspace folder, or absolute inside it.');

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    command: 'editls.readFile',
    readOnly: true,
    description:
      'Read a file as cat -n numbered lines (number, tab, line). Reads what the user sees: the editor\'s open buffer with unsaved changes when the file is open, else the disk. ' +
      'Use it before editing; the numbers are not part of the file. Lines over 2000 characters are cut; use offset/limit for long files. Binary files are refused (binary_file).',
    input: { file_path: filePath, offset: int(1, '1-based line to start from (default 1).').optional(), limit: int(1, 'Number of lines (default 2000).').optional() },
  },
  {
    name: 'edit',
    command: 'editls.edit',
    description:
      'Replace an exact string in a file: old_string must match the file exactly (indentation included) and be unique unless replace_all is true. ' +
      'An empty old_string creates a new file with new_string as content. ' + LANDS_IN_EDITOR + ' ' + ERRORS,
    input: {
      file_path: filePath,
      old_string: z.string().describe('The exact text to replace (without read_file line numbers).'),
      new_string: z.string().describe('The replacement text (must differ from old_string).'),
      replace_all: bool('Replace every occurrence (default false).').optional(),
      apply,
    },
  },
  {
    name: 'str_replace',
    command: 'editls.strReplace',
    description:
      'Several replacements in one file, in order, as one change. Each entry\'s old must match exactly (a unique match); if not, editls retries ignoring indentation, then whitespace, and says which matched. ' +
      'With atomic true, one failing entry cancels all; otherwise the others apply and failedReplacements lists the rest. ' + LANDS_IN_EDITOR + ' ' + ERRORS,
    input: {
      path: filePath,
      replacements: z
        .array(z.object({ old: z.string(), new: z.string(), allowMultiple: z.boolean().optional().describe('Replace every occurrence of old.') }))
        .describe('Replacements applied in order.'),
      atomic: bool('All or nothing (default false).').optional(),
      apply,
    },
  },
  {
    name: 'search_and_replace',
    command: 'editls.searchAndReplace',
    description:
      'Replace every occurrence of a literal string (or a JavaScript regex with use_regex; $1, $<name> in replace) in one file, optionally only within 1-based lines start_line..end_line. ' +
      'Use it for renames within a file. A regex running too long is stopped (regex_timeout). ' + LANDS_IN_EDITOR + ' ' + ERRORS,
    input: {
      path: filePath,
      search: z.string().describe('Text to find (a regex with use_regex).'),
      replace: z.string().describe('Replacement text.'),
      start_line: int(1, 'First line of the scope (1-based).').optional(),
      end_line: int(1, 'Last line of the scope (1-based, inclusive).').optional(),
      use_regex: bool('search is a JavaScript regular expression.').optional(),
      ignore_case: bool('Case-insensitive.').optional(),
      apply,
    },
  },
  {
    name: 'replace_range',
    command: 'editls.replaceRange',
    defaults: { includeDiff: true },
    description:
      'Replace the text between two positions (1-based lines, 1-based columns, end exclusive) after checking it still equals expectedText exactly; stale (with the actual text) when it does not. ' +
      LANDS_IN_EDITOR + ' ' + ERRORS,
    input: {
      filePath,
      startLine: int(1, '1-based start line.'),
      startColumn: int(1, '1-based start column.'),
      endLine: int(1, '1-based end line.'),
      endColumn: int(1, '1-based end column (exclusive).'),
      expectedText: z.string().describe('The current text of the range, exactly.'),
      replacementText: z.string().describe('The new text, verbatim.'),
      apply,
    },
  },
  {
    name: 'insert',
    command: 'editls.insert',
    description: 'Insert whole lines after a 1-based line (0 = at the start, the line count = at the end), without quoting existing text. ' + LANDS_IN_EDITOR + ' ' + ERRORS,
    input: { path: filePath, insert_line: int(0, 'Insert after this 1-based line (0 = before the first).'), new_str: z.string().describe('The lines to insert.'), apply },
  },
  {
    name: 'undo',
    command: 'editls.undo',
    description:
      'Undo the last editls change to a file (or, without path, the last editls command), restoring exactly what it replaced. Refused as stale when the file changed since (someone typed or saved): nothing is lost.',
    input: { path: filePath.optional() },
  },
  {
    name: 'search_files',
    command: 'editls.searchFiles',
    readOnly: true,
    description:
      'Search file contents with a regex (ripgrep, Rust syntax: no look-around) under a folder, honouring .gitignore; open buffers are searched as the editor shows them. Returns matching lines with context, grouped per file.',
    input: {
      path: z.string().describe('Folder or file to search; "." is the workspace folder.'),
      regex: z.string().describe('Rust regex (ripgrep syntax).'),
      file_pattern: z.string().optional().describe('Glob narrowing the files, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
      context_lines: int(0, 'Lines of context around each hit (default 1).').optional(),
      max_results: int(1, 'Cap on matching lines (default 300).').optional(),
    },
  },
  {
    name: 'workspace_symbols',
    command: { method: 'workspace/symbol' },
    readOnly: true,
    description: 'Find definitions (functions, classes, methods, types, constants) by fuzzy name across the workspace (13 languages). Returns name, kind, file:line:column and container.',
    input: { query: z.string().describe('A name or part of one (fuzzy).') },
  },
  {
    name: 'apply_preview',
    command: 'editls.applyPreview',
    description: 'Apply an edit previewed earlier with apply "preview", by its previewId; stale or not_found when the file changed since (run the edit again).',
    input: { id: z.string().describe('The previewId from a preview result.') },
  },
  {
    name: 'discard_preview',
    command: 'editls.discardPreview',
    description: 'Forget a previewed edit (its hints disappear from the editor).',
    input: { id: z.string().describe('The previewId from a preview result.') },
  },
  {
    name: 'replace_in_files',
    command: 'editls.replaceInFiles',
    description:
      'Replace a literal string (or a JavaScript regex with use_regex) in every file under a folder of the workspace at once, honouring .gitignore; open buffers are replaced as the user sees them. ' +
      'All or nothing: every file is computed first; if one changed meanwhile or the editor refuses, nothing changes. Use apply "preview" first for big renames, then apply_preview; undo (without path) reverts the whole command. ' +
      'preserve_case keeps each match\'s case shape (foo/Foo/FOO -> bar/Bar/BAR). More changed files than max_files (1000) is too_large: narrow with path or file_pattern. ' +
      LANDS_IN_EDITOR + ' ' + ERRORS,
    input: {
      path: z.string().describe('Folder (or file) to replace in, relative to the workspace folder; default the whole workspace.').optional(),
      search: z.string().describe('Text to find (a regex with use_regex).'),
      replace: z.string().describe('Replacement text ($1, $<name> with use_regex).'),
      use_regex: bool('search is a JavaScript regular expression.').optional(),
      ignore_case: bool('Case-insensitive.').optional(),
      preserve_case: bool('Each replacement takes the case of the text it replaces.').optional(),
      file_pattern: z.string().describe('Glob narrowing the files, e.g. "*.ts" or "src/**/*.ts".').optional(),
      max_files: int(1, 'Refuse (too_large) when more files than this would change (default 1000).').optional(),
      apply,
    },
  },
];

export function findTool(name: string): ToolSpec | undefined {
  return TOOLS.find((t) => t.name === name);
}
