// searchFiles' `file_pattern`: a glob compiled to a path test, plus the narrowest pre-filter that can
// be handed to ripgrep without re-including ignored files (a `--type-add` file-name glob, never `--glob`).
// Semantics: a pattern without `/` matches the file name at any depth; one with `/` matches the path
// relative to the searched folder. `*` `?` `[...]` `{a,b}` `**` and `\` escapes, case-sensitive.

export interface CompiledGlob {
  /** The pattern as given. */
  source: string;
  /** True when the pattern names a path (contains `/`), false when it names a file. */
  matchesPath: boolean;
  /** Tests a `/`-separated path relative to the searched folder. */
  test(relPath: string): boolean;
  /**
   * A file-name glob that every matching file's name also matches, safe for ripgrep's
   * `--type-add name:GLOB` (file types narrow the walk but, unlike `--glob`, never re-include an
   * ignored file). Undefined when no such narrowing is possible (e.g. the pattern ends in `**`).
   */
  fileNameGlob?: string;
}

export type GlobResult = { ok: true; glob: CompiledGlob } | { ok: false; message: string };

/** Compiles `pattern`; an empty pattern (or one that is only `**`) matches everything. */
export function compileGlob(pattern: string): GlobResult {
  let p = pattern.trim();
  while (p.startsWith('./')) p = p.slice(2);
  const anchored = p.startsWith('/');
  if (anchored) p = p.replace(/^\/+/, '');
  // gitignore habit: `dir/` means everything below dir.
  if (p.endsWith('/') && !p.endsWith('\\/')) p = `${p}**`;
  if (p === '' || p === '**' || p === '**/*') {
    return { ok: true, glob: { source: pattern, matchesPath: false, test: () => true } };
  }
  const segments = splitSegments(p);
  const matchesPath = anchored || segments.length > 1;
  let source: string;
  try {
    source = toRegExpSource(p);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  let re: RegExp;
  try {
    re = new RegExp(`^${source}$`, 'u');
  } catch (error) {
    return { ok: false, message: `cannot compile the glob: ${error instanceof Error ? error.message : String(error)}` };
  }
  const last = segments[segments.length - 1]!;
  const fileNameGlob = isRipgrepTypeSafe(last) ? last : undefined;
  const test = matchesPath
    ? (rel: string) => re.test(rel)
    : (rel: string) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
  return { ok: true, glob: { source: pattern, matchesPath, test, ...(fileNameGlob !== undefined ? { fileNameGlob } : {}) } };
}

/** Splits on `/` outside `{...}` and `[...]`; an alternation that contains `/` keeps its segment whole. */
function splitSegments(p: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) {
      cur += c + p[i + 1]!;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      cur += c;
      continue;
    }
    if (c === '[' && p.indexOf(']', i + 2) !== -1) inClass = true;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === '/' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * ripgrep's type globs match the file name with the same `*` `?` `{}` rules; keep to a subset whose
 * meaning is identical in both (no classes, escapes, `**`, separators, or the `:` that type
 * definitions split on), so the pre-filter can never drop a file the pattern accepts.
 */
function isRipgrepTypeSafe(segment: string): boolean {
  if (segment === '' || segment.includes('**')) return false;
  if (/[\\[\]:/]/.test(segment)) return false;
  let depth = 0;
  for (const c of segment) {
    if (c === '{') {
      if (++depth > 1) return false;
    } else if (c === '}') {
      if (--depth < 0) return false;
    }
  }
  return depth === 0;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/;

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}

function toRegExpSource(p: string): string {
  let out = '';
  let depth = 0;
  const chars = [...p];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      if (i + 1 < chars.length) out += escapeChar(chars[++i]!);
      else out += '\\\\';
      continue;
    }
    if (c === '*') {
      if (chars[i + 1] === '*') {
        const prev = chars[i - 1];
        let j = i + 2;
        while (chars[j] === '*') j++;
        const next = chars[j];
        const atStart = prev === undefined || prev === '/' || ((prev === '{' || prev === ',') && depth > 0);
        if (atStart && next === '/') {
          out += '(?:[^/]*/)*'; // `**/`: zero or more whole segments
          i = j;
          continue;
        }
        if (atStart && (next === undefined || ((next === ',' || next === '}') && depth > 0))) {
          out += '.*'; // a trailing `**`: everything below
          i = j - 1;
          continue;
        }
        out += '[^/]*';
        i = j - 1;
        continue;
      }
      out += '[^/]*';
      continue;
    }
    if (c === '?') {
      out += '[^/]';
      continue;
    }
    if (c === '[') {
      const close = findClassEnd(chars, i);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = chars.slice(i + 1, close);
      let negate = false;
      if (body[0] === '!' || body[0] === '^') {
        negate = true;
        body = body.slice(1);
      }
      const cls = body.map((b) => (b === '\\' || b === ']' || b === '[' || b === '^' ? `\\${b}` : b)).join('');
      out += negate ? `(?![/])[^${cls}]` : `[${cls}]`;
      i = close;
      continue;
    }
    if (c === '{') {
      depth++;
      out += '(?:';
      continue;
    }
    if (c === '}' && depth > 0) {
      depth--;
      out += ')';
      continue;
    }
    if (c === ',' && depth > 0) {
      out += '|';
      continue;
    }
    out += escapeChar(c);
  }
  if (depth > 0) throw new Error(`unclosed "{" in the glob; close it or escape it as \\{`);
  return out;
}

/** Index of the `]` closing a class opened at `open` (a `]` right after `[` or `[!` is literal), or -1. */
function findClassEnd(chars: string[], open: number): number {
  let j = open + 1;
  if (chars[j] === '!' || chars[j] === '^') j++;
  if (chars[j] === ']') j++;
  for (; j < chars.length; j++) {
    if (chars[j] === ']') return j;
    if (chars[j] === '/') return -1;
  }
  return -1;
}
