// editls.readFile: what an agent's Read tool returns — a file as `cat -n`-style numbered lines, from
// the editor's open buffer when there is one (unsaved text included), else from disk; binary files
// and files in unknown encodings are refused like every command refuses them.
import { z } from 'zod';
import { fail } from '../core/result.js';
import { numberedSlice } from '../core/read/numberedLines.js';
import { filePath, wholeNumber } from './args.js';
import { defineCommand } from './registry.js';
import type { ReadFileResult } from './results.js';
import type { FilesPort } from './ports/files.js';
import type { RequestPort } from './ports/request.js';

const ID = 'editls.readFile';
/** Lines returned without a `limit`, and the longest line shown (characters), as in Claude Code's Read. */
export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;

const args = () =>
  z
    .object({
      file_path: filePath(),
      offset: wholeNumber(1).optional().describe('1-based line to start from (default 1).'),
      limit: wholeNumber(1).optional().describe(`Number of lines (default ${READ_DEFAULT_LIMIT}).`),
    })
    .strict();

export const readFileCommand = defineCommand({
  id: ID,
  title: 'Read a file (the open buffer if any) as numbered lines',
  args,
  effect: 'read',
  idempotent: true,
  tool: {
    name: 'read_file',
    render: 'read',
    params: ['file_path', 'offset', 'limit'],
    description:
      "Read a file as cat -n numbered lines (number, tab, line). Reads what the user sees: the editor's open buffer with unsaved changes when the file is open, else the disk. " +
      `Use it before editing; the numbers are not part of the file. Lines over ${READ_MAX_LINE_CHARS} characters are cut; use offset/limit for long files. Binary files are refused (binary_file).`,
  },
  run: async (ctx: FilesPort & RequestPort, a) => {
    const resolved = await ctx.resolvePath(a.file_path);
    if (!resolved.ok) return resolved;
    const snapshot = await ctx.snapshot(resolved);
    if (!snapshot.ok) return snapshot;
    const rel = resolved.relPath;
    if (snapshot.source === 'missing') return fail('file_not_found', `${rel} does not exist; check the path (editls.searchFiles finds files by content)`, { path: rel });
    const sliced = numberedSlice(snapshot.text, { offset: a.offset ?? 1, limit: a.limit ?? READ_DEFAULT_LIMIT, maxLineChars: READ_MAX_LINE_CHARS }, rel);
    if (!sliced.ok) return sliced;
    const s = sliced.slice;
    const from = snapshot.source === 'editor' ? 'the open buffer' : 'disk';
    const range = s.totalLines === 0 ? `${rel} is empty` : `lines ${s.startLine}-${s.endLine} of ${s.totalLines} in ${rel}`;
    const message = `${ID}: ${range} (from ${from})${s.more ? `; more lines follow: read on with offset ${s.endLine + 1}` : ''}${s.truncatedLines > 0 ? `; ${s.truncatedLines} long line${s.truncatedLines === 1 ? '' : 's'} cut at ${READ_MAX_LINE_CHARS} characters` : ''}`;
    ctx.log(message);
    const value: ReadFileResult = {
      success: true,
      path: rel,
      uri: snapshot.uri,
      source: snapshot.source,
      content: s.content,
      startLine: s.startLine,
      endLine: s.endLine,
      totalLines: s.totalLines,
      truncatedLines: s.truncatedLines,
      more: s.more,
      message,
    };
    return { ok: true as const, value };
  },
});
