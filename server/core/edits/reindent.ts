// Owns re-indenting strReplace's `new` when `old` matched only after an indentation change or
// whitespace-insensitively: indentation is read as levels (the agent's width for old/new, the file's
// style for the file), the level shift is taken from the lines that matched, checked on all of them,
// and new is rendered in the file's own style (tabs or spaces of the file's width).

/** How indentation is written: tabs (spaces after them align) or spaces, `width` columns per level. */
export interface IndentStyle {
  tabs: boolean;
  width: number;
}

interface Level {
  levels: number;
  rem: number;
}

/** An old line's indentation and the indentation of the file line it matched. */
export interface IndentPair {
  agent: string;
  file: string;
}

export type Reindent = { ok: true; map: (indent: string) => string | undefined } | { ok: false; reason: string };

const WIDTHS = [2, 3, 4, 5, 6, 7, 8];

export function leadingWhitespace(line: string): string {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return line.slice(0, i);
}

function parse(indent: string, width: number): Level {
  let cols = 0;
  for (let i = 0; i < indent.length; i++) cols = indent.charCodeAt(i) === 9 ? (Math.floor(cols / width) + 1) * width : cols + 1;
  return { levels: Math.floor(cols / width), rem: cols % width };
}

function render(l: Level, style: IndentStyle): string {
  return style.tabs ? '\t'.repeat(l.levels) + ' '.repeat(l.rem) : ' '.repeat(l.levels * style.width + l.rem);
}

/**
 * The most common increase of space indentation between consecutive non-blank lines (2-8 columns),
 * over several texts; else the gcd of the space indentations when it is 2-8; else undefined.
 */
export function inferWidth(texts: readonly string[]): number | undefined {
  const counts = new Map<number, number>();
  let gcd = 0;
  const g = (a: number, b: number): number => (b === 0 ? a : g(b, a % b));
  for (const text of texts) {
    let prev = -1;
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      let i = start;
      while (i < end && text.charCodeAt(i) === 32) i++;
      const c = text.charCodeAt(i);
      if (i < end && c !== 9 && c !== 13) {
        const w = i - start;
        if (w > 0) gcd = g(w, gcd);
        if (prev >= 0 && w - prev >= 2 && w - prev <= 8) counts.set(w - prev, (counts.get(w - prev) ?? 0) + 1);
        prev = w;
      } else if (i < end && c === 9) {
        prev = -1;
      }
      start = end + 1;
    }
  }
  let best: number | undefined;
  for (const [w, n] of counts) if (best === undefined || n > (counts.get(best) as number) || (n === counts.get(best) && w < best)) best = w;
  if (best !== undefined) return best;
  return gcd >= 2 && gcd <= 8 ? gcd : undefined;
}

/** Tabs when more indented lines of `text` start with a tab than with a space; undefined when none is indented. */
export function inferTabs(text: string, from = 0, to = text.length): boolean | undefined {
  let tabs = 0;
  let spaces = 0;
  for (let start = from; start < to; ) {
    let end = text.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    const c = text.charCodeAt(start);
    if (start < end && (c === 9 || c === 32)) {
      let i = start;
      while (i < end && (text.charCodeAt(i) === 9 || text.charCodeAt(i) === 32)) i++;
      if (i < end && text.charCodeAt(i) !== 13) {
        if (c === 9) tabs++;
        else spaces++;
      }
    }
    start = end + 1;
  }
  if (tabs + spaces === 0) return undefined;
  return tabs > spaces;
}

export interface StyleEvidence {
  /** Tabs or spaces for the matched region (undefined: nothing indented there). */
  regionTabs: boolean | undefined;
  fileTabs: boolean | undefined;
  regionWidth: number | undefined;
  fileWidth: number | undefined;
  /** old and new, for the agent's width. */
  agentTexts: readonly string[];
}

/**
 * A mapping from the agent's indentation to the file's, anchored on the first pair and checked on
 * every pair (each must come out exactly as the file has it). Several widths are tried, best
 * evidence first; the first consistent one wins. `mapped` indentations never go below column 0.
 */
export function buildReindent(pairs: readonly IndentPair[], ev: StyleEvidence): Reindent {
  const anchor = pairs[0];
  if (anchor === undefined) return { ok: true, map: (indent) => indent };
  const agentTabs = ev.agentTexts.some((t) => /(^|\n)\t/.test(t));
  const tabs = ev.regionTabs ?? ev.fileTabs ?? agentTabs;
  const agentWidth = inferWidth(ev.agentTexts);
  const fileWidths = unique([ev.regionWidth, ev.fileWidth, agentWidth, 4, 2, 8]);
  const agentWidths = unique([agentWidth, ev.regionWidth, ev.fileWidth, 4, 2, 8]);
  let firstProblem: string | undefined;
  for (const fw of fileWidths) {
    const style: IndentStyle = { tabs, width: fw };
    for (const aw of agentWidths) {
      const a = parse(anchor.agent, aw);
      const f = parse(anchor.file, fw);
      const shift = f.levels - a.levels;
      const remShift = f.rem - a.rem;
      const map = (indent: string): string | undefined => {
        const l = parse(indent, aw);
        const levels = l.levels + shift;
        const rem = l.rem + remShift;
        return levels < 0 || rem < 0 ? undefined : render({ levels, rem }, style);
      };
      const bad = pairs.find((p) => map(p.agent) !== p.file);
      if (bad === undefined) return { ok: true, map };
      firstProblem ??= `old's indentation ${show(bad.agent)} matched ${show(bad.file)} in the file, which does not follow from ${show(anchor.agent)} matching ${show(anchor.file)}`;
    }
  }
  return { ok: false, reason: firstProblem ?? 'the indentation does not map consistently' };
}

function unique(values: readonly (number | undefined)[]): number[] {
  const out: number[] = [];
  for (const v of values) if (v !== undefined && WIDTHS.includes(v) && !out.includes(v)) out.push(v);
  return out;
}

/** "2 tabs", "4 spaces", "1 tab + 2 spaces", "no indentation". */
export function show(indent: string): string {
  if (indent === '') return 'no indentation';
  const tabs = (indent.match(/\t/g) ?? []).length;
  const spaces = indent.length - tabs;
  const parts = [tabs > 0 ? `${tabs} tab${tabs === 1 ? '' : 's'}` : '', spaces > 0 ? `${spaces} space${spaces === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `"${parts.join(' + ')}"`;
}

/**
 * `newText` re-indented with `map`, line by line: whitespace-only lines become empty (except a last
 * line that indents what follows the match), line 0 only when the match starts a line. Undefined
 * when a line cannot be mapped (it would go left of column 0); the reason names the line.
 */
export function reindentText(
  newText: string,
  map: (indent: string) => string | undefined,
  firstStartsLine: boolean,
  lastIndentsRest: boolean,
): { ok: true; text: string } | { ok: false; reason: string } {
  const lines = newText.split('\n');
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    if (line === '' || (k === 0 && !firstStartsLine)) {
      out.push(line);
      continue;
    }
    const indent = leadingWhitespace(line);
    const blank = indent.length === line.length;
    const last = k === lines.length - 1;
    if (blank && !(last && lastIndentsRest)) {
      out.push('');
      continue;
    }
    const mapped = map(indent);
    if (mapped === undefined) return { ok: false, reason: `line ${k + 1} of new (${show(indent)}) would go left of the file's first column` };
    out.push(mapped + line.slice(indent.length));
  }
  return { ok: true, text: out.join('\n') };
}
