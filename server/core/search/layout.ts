// The searchFiles result: the contract's text layout (a count or the cap notice, then per file
// `# path` and blocks of `  N | line` separated by `----`; consecutive lines share a block, so with
// one context line hits within three lines merge) and the structured matches with ranges in the
// negotiated position encoding.
import { columnIn, type PositionEncoding } from '../text/positions.js';
import type { FileHits, SearchLine } from './collect.js';
import { truncateLine } from './lineText.js';

export interface SearchMatch {
  path: string;
  uri: string;
  /** 1-based, as in the text. */
  line: number;
  /** LSP range (0-based line, character in the negotiated encoding) on the untruncated line. */
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** The line, cut like in the text when longer than maxLineLength. */
  text: string;
}

export interface LayoutOptions {
  maxResults: number;
  maxLineLength: number;
  encoding: PositionEncoding;
}

export function capNotice(maxResults: number): string {
  return `Showing first ${maxResults} of ${maxResults}+ results. Use a more specific search if necessary.`;
}

export function countLine(count: number): string {
  return `Found ${count === 1 ? '1 result' : `${count} results`}.`;
}

/** Splits a file's lines into blocks of consecutive line numbers. */
export function blocksOf(lines: readonly SearchLine[]): SearchLine[][] {
  const blocks: SearchLine[][] = [];
  let current: SearchLine[] = [];
  for (const l of lines) {
    const prev = current[current.length - 1];
    if (prev && l.line !== prev.line + 1) {
      blocks.push(current);
      current = [];
    }
    current.push(l);
  }
  if (current.length > 0) blocks.push(current);
  return blocks;
}

export function layoutText(files: readonly FileHits[], matchCount: number, truncated: boolean, options: Pick<LayoutOptions, 'maxResults' | 'maxLineLength'>): string {
  const parts: string[] = [truncated ? capNotice(options.maxResults) : countLine(matchCount)];
  for (const file of files) {
    const out: string[] = [`# ${file.path}`];
    for (const block of blocksOf(file.lines)) {
      for (const l of block) out.push(`${String(l.line).padStart(3, ' ')} | ${truncateLine(l.text, options.maxLineLength).text.trimEnd()}`);
      out.push('----');
    }
    parts.push(out.join('\n'));
  }
  return parts.join('\n\n');
}

/** Columns in `encoding` of several UTF-16 offsets on one line, in one pass (a minified line can hold thousands of hits). */
export function columnsIn(text: string, offsets: readonly number[], encoding: PositionEncoding): number[] {
  if (encoding === 'utf-16') return offsets.map((o) => Math.max(0, Math.min(o, text.length)));
  const order = offsets.map((o, i) => [o, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(offsets.length);
  let at = 0;
  let units = 0;
  for (const [offset, index] of order) {
    const target = Math.max(0, Math.min(offset, text.length));
    if (target > at) {
      units += columnIn(text.slice(at, target), target - at, encoding);
      at = target;
    }
    out[index] = units;
  }
  return out;
}

export function structuredMatches(files: readonly FileHits[], options: Pick<LayoutOptions, 'maxLineLength' | 'encoding'>): SearchMatch[] {
  const out: SearchMatch[] = [];
  for (const file of files) {
    for (const l of file.lines) {
      if (!l.match) continue;
      const shown = truncateLine(l.text, options.maxLineLength).text;
      // A matching line always yields at least one entry (an empty range at its start if ripgrep named no span).
      const offsets: number[] = [];
      for (const m of l.submatches) offsets.push(m.start, m.end);
      if (offsets.length === 0) offsets.push(0, 0);
      const cols = columnsIn(l.text, offsets, options.encoding);
      for (let i = 0; i < cols.length; i += 2) {
        out.push({
          path: file.path,
          uri: file.uri,
          line: l.line,
          range: { start: { line: l.line - 1, character: cols[i]! }, end: { line: l.line - 1, character: cols[i + 1]! } },
          text: shown,
        });
      }
    }
  }
  return out;
}
