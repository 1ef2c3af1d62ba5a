// editls.readFile's layout: a slice of a text as `cat -n`-style numbered lines (the agents' own Read
// tool: the 1-based number right-aligned in six columns, a tab, the line), long lines cut on a
// character boundary. Pure: the command finds the text (open buffer or disk).
import { fail, type Result } from '../result.js';
import { truncateLine } from '../search/lineText.js';

export interface NumberedSlice {
  /** The numbered lines, joined with "\n" (no final break). */
  content: string;
  /** 1-based first and last line shown (0 and 0 for an empty file). */
  startLine: number;
  endLine: number;
  /** Lines in the whole text, counted as editors count them (a final line break ends the last line). */
  totalLines: number;
  /** How many shown lines were cut at maxLineChars. */
  truncatedLines: number;
  /** More lines follow endLine. */
  more: boolean;
}

/** Lines of `text` (breaks \r\n, \n, \r), without their terminators; "" has none, a final break adds none. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function numberedSlice(text: string, options: { offset: number; limit: number; maxLineChars: number }, relPath: string): Result<{ slice: NumberedSlice }> {
  if (options.offset < 1) return fail('invalid_range', `offset must be a 1-based line number (1 or more), got ${options.offset}`, { path: relPath });
  if (options.limit < 1) return fail('invalid_range', `limit must be 1 or more lines, got ${options.limit}`, { path: relPath });
  const lines = splitLines(text);
  const total = lines.length;
  if (total === 0) {
    if (options.offset > 1) return fail('invalid_range', `${relPath} is empty; offset ${options.offset} is past its end`, { path: relPath, lineCount: 0 });
    return { ok: true, slice: { content: '', startLine: 0, endLine: 0, totalLines: 0, truncatedLines: 0, more: false } };
  }
  if (options.offset > total) {
    return fail('invalid_range', `${relPath} has ${total} line${total === 1 ? '' : 's'}; offset ${options.offset} is past its end (read from 1 to ${total})`, { path: relPath, lineCount: total });
  }
  const end = Math.min(total, options.offset - 1 + options.limit);
  const out: string[] = [];
  let truncatedLines = 0;
  for (let n = options.offset; n <= end; n++) {
    const cut = truncateLine(lines[n - 1]!, options.maxLineChars);
    if (cut.truncated) truncatedLines++;
    out.push(`${String(n).padStart(6)}\t${cut.text}`);
  }
  return { ok: true, slice: { content: out.join('\n'), startLine: options.offset, endLine: end, totalLines: total, truncatedLines, more: end < total } };
}
