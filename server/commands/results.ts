// What each way of rendering a result for an agent's model reads of it (mcp/results.ts): the result
// types a command must return to take that rendering. registry.ts types a command's result by its
// `tool.render`, so a command cannot name a rendering that would misread its result.
import type { NumberedSlice } from '../core/read/numberedLines.js';
import type { SearchMatch } from '../core/search/layout.js';

/** A result read as an edit: the one-line summary, then the diff; the other fields go to structuredContent. */
export interface EditLikeResult {
  success: true;
  message: string;
  unifiedDiff?: string;
  /** Per file; its `diff` and `uri` are left out of structuredContent (the diff is in the text). */
  files?: readonly { diff?: string; uri?: string }[];
  notes?: string[];
  [field: string]: unknown;
}

/** editls.readFile's result, read as a page of numbered lines. */
export interface ReadFileResult extends NumberedSlice {
  success: true;
  path: string;
  uri: string;
  source: 'editor' | 'disk';
  message: string;
}

/** editls.searchFiles' result, read as its text layout. */
export interface SearchFilesResult {
  success: true;
  /** The hits laid out for reading: per file, numbered lines, `>` on matching ones (core/search/layout.ts). */
  text: string;
  /** Each match with its LSP range. */
  matches: SearchMatch[];
  /** Matching lines found (the first maxResults when truncated). */
  count: number;
  truncated: boolean;
  message: string;
  notes?: string[];
}

/** Each rendering and the result it reads. */
export interface RenderedResults {
  edit: EditLikeResult;
  read: ReadFileResult;
  search: SearchFilesResult;
}
