// searchFiles' `file_pattern`: a glob compiled to a path test, plus the narrowest pre-filter that can
// be handed to ripgrep without re-including ignored files (a `--type-add` file-name glob, never `--glob`).
// Semantics: a pattern without `/` matches the file name at any depth; one with `/` matches the path
// relative to the searched folder. `*` `?` `[...]` `{a,b}` `**` and `\` escapes, case-sensitive.
// Matching is a Thompson NFA run in one pass (time O(path × pattern), no backtracking: a hostile
// `*a*a*a…*[b]` cannot pin the thread), and patterns are at most MAX_GLOB_LENGTH characters.

/** Longest `file_pattern` accepted; beyond it the glob is refused (matching cost grows with it). */
export const MAX_GLOB_LENGTH = 1024;

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
  if (p.length > MAX_GLOB_LENGTH) {
    return { ok: false, message: `the glob is ${p.length} characters long, over the limit of ${MAX_GLOB_LENGTH}; use a shorter pattern` };
  }
  const segments = splitSegments(p);
  const matchesPath = anchored || segments.length > 1;
  let nfa: Nfa;
  try {
    nfa = compileNfa(parseGlob(p));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const last = segments[segments.length - 1]!;
  const fileNameGlob = isRipgrepTypeSafe(last) ? last : undefined;
  const test = matchesPath ? (rel: string) => runNfa(nfa, rel) : (rel: string) => runNfa(nfa, rel.slice(rel.lastIndexOf('/') + 1));
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

// The glob as a tree: code points, `?`, classes, `*` (within a segment), `**/` (whole segments),
// a trailing `**` (anything), and `{...}` alternatives.
type GlobNode =
  | { k: 'char'; cp: number }
  | { k: 'any' }
  | { k: 'class'; ranges: number[]; negate: boolean }
  | { k: 'star' }
  | { k: 'segments' }
  | { k: 'all' }
  | { k: 'alt'; alts: GlobNode[][] };

const SLASH = 0x2f;

function parseGlob(p: string): GlobNode[] {
  const chars = [...p];
  const cp = (c: string) => c.codePointAt(0)!;
  // Open `{`: the alternatives so far of each, innermost last; `seq` is where nodes go now.
  const groups: GlobNode[][][] = [];
  const top: GlobNode[] = [];
  let seq = top;
  const depth = () => groups.length;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      seq.push({ k: 'char', cp: i + 1 < chars.length ? cp(chars[++i]!) : 0x5c });
      continue;
    }
    if (c === '*') {
      if (chars[i + 1] === '*') {
        const prev = chars[i - 1];
        let j = i + 2;
        while (chars[j] === '*') j++;
        const next = chars[j];
        const atStart = prev === undefined || prev === '/' || ((prev === '{' || prev === ',') && depth() > 0);
        if (atStart && next === '/') {
          seq.push({ k: 'segments' }); // `**/`: zero or more whole segments
          i = j;
          continue;
        }
        if (atStart && (next === undefined || ((next === ',' || next === '}') && depth() > 0))) {
          seq.push({ k: 'all' }); // a trailing `**`: everything below
          i = j - 1;
          continue;
        }
        seq.push({ k: 'star' });
        i = j - 1;
        continue;
      }
      seq.push({ k: 'star' });
      continue;
    }
    if (c === '?') {
      seq.push({ k: 'any' });
      continue;
    }
    if (c === '[') {
      const close = findClassEnd(chars, i);
      if (close === -1) {
        seq.push({ k: 'char', cp: cp(c) });
        continue;
      }
      let body = chars.slice(i + 1, close);
      let negate = false;
      if (body[0] === '!' || body[0] === '^') {
        negate = true;
        body = body.slice(1);
      }
      const ranges: number[] = [];
      for (let b = 0; b < body.length; ) {
        if (body[b + 1] === '-' && b + 2 < body.length) {
          const lo = cp(body[b]!);
          const hi = cp(body[b + 2]!);
          if (lo > hi) throw new Error(`the range ${body[b]}-${body[b + 2]} in "[${chars.slice(i + 1, close).join('')}]" is out of order; write the lower character first`);
          ranges.push(lo, hi);
          b += 3;
        } else {
          ranges.push(cp(body[b]!), cp(body[b]!));
          b++;
        }
      }
      seq.push({ k: 'class', ranges, negate });
      i = close;
      continue;
    }
    if (c === '{') {
      const alts: GlobNode[][] = [[]];
      groups.push(alts);
      seq = alts[0]!;
      continue;
    }
    if (c === '}' && depth() > 0) {
      const alts = groups.pop()!;
      const parent = groups.length > 0 ? groups[groups.length - 1]! : undefined;
      seq = parent ? parent[parent.length - 1]! : top;
      seq.push({ k: 'alt', alts });
      continue;
    }
    if (c === ',' && depth() > 0) {
      const alts = groups[groups.length - 1]!;
      seq = [];
      alts.push(seq);
      continue;
    }
    seq.push({ k: 'char', cp: cp(c) });
  }
  if (depth() > 0) throw new Error(`unclosed "{" in the glob; close it or escape it as \{`);
  return top;
}

// The NFA: state i consumes one code point (kind CHAR/ANY/ALL/CLASS, then goes to out1) or is an
// epsilon split (SPLIT, to out1 and out2), or accepts (MATCH).
const CHAR = 0;
const ANY = 1; // anything but `/`
const ALL = 2; // anything
const CLASS = 3;
const SPLIT = 4;
const MATCH = 5;

interface Nfa {
  kind: number[];
  arg: number[];
  out1: number[];
  out2: number[];
  classes: { ranges: number[]; negate: boolean }[];
  start: number;
}

function compileNfa(nodes: GlobNode[]): Nfa {
  const nfa: Nfa = { kind: [], arg: [], out1: [], out2: [], classes: [], start: 0 };
  const add = (kind: number, arg: number, out1: number, out2 = -1): number => {
    nfa.kind.push(kind);
    nfa.arg.push(arg);
    nfa.out1.push(out1);
    nfa.out2.push(out2);
    return nfa.kind.length - 1;
  };
  const seq = (list: GlobNode[], next: number): number => {
    for (let i = list.length - 1; i >= 0; i--) next = node(list[i]!, next);
    return next;
  };
  const loop = (kind: number, next: number): number => {
    const split = add(SPLIT, 0, -1, next);
    nfa.out1[split] = add(kind, 0, split);
    return split;
  };
  const node = (n: GlobNode, next: number): number => {
    switch (n.k) {
      case 'char':
        return add(CHAR, n.cp, next);
      case 'any':
        return add(ANY, 0, next);
      case 'class':
        nfa.classes.push({ ranges: n.ranges, negate: n.negate });
        return add(CLASS, nfa.classes.length - 1, next);
      case 'star':
        return loop(ANY, next);
      case 'all':
        return loop(ALL, next);
      case 'segments': {
        // (?:[^/]*/)*
        const outer = add(SPLIT, 0, -1, next);
        const slash = add(CHAR, SLASH, outer);
        nfa.out1[outer] = loop(ANY, slash);
        return outer;
      }
      case 'alt': {
        const starts = n.alts.map((alt) => seq(alt, next));
        let s = starts[starts.length - 1]!;
        for (let i = starts.length - 2; i >= 0; i--) s = add(SPLIT, 0, starts[i]!, s);
        return s;
      }
    }
  };
  nfa.start = seq(nodes, add(MATCH, 0, -1));
  return nfa;
}

function inClass(cls: { ranges: number[]; negate: boolean }, c: number): boolean {
  let found = false;
  for (let i = 0; i < cls.ranges.length && !found; i += 2) found = c >= cls.ranges[i]! && c <= cls.ranges[i + 1]!;
  return cls.negate ? !found && c !== SLASH : found;
}

/** Runs the NFA over `subject`'s code points with a set of live states: linear in the subject. */
function runNfa(nfa: Nfa, subject: string): boolean {
  const n = nfa.kind.length;
  const mark = new Int32Array(n).fill(-1);
  let current: number[] = [];
  let next: number[] = [];
  const stack: number[] = [];
  const addState = (list: number[], s: number, gen: number) => {
    stack.push(s);
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (mark[t] === gen) continue;
      mark[t] = gen;
      if (nfa.kind[t] === SPLIT) {
        stack.push(nfa.out2[t]!, nfa.out1[t]!);
      } else {
        list.push(t);
      }
    }
  };
  let gen = 0;
  addState(current, nfa.start, gen);
  for (const ch of subject) {
    if (current.length === 0) return false;
    const c = ch.codePointAt(0)!;
    gen++;
    next.length = 0;
    for (const s of current) {
      const kind = nfa.kind[s];
      let ok: boolean;
      if (kind === CHAR) ok = nfa.arg[s] === c;
      else if (kind === ANY) ok = c !== SLASH;
      else if (kind === ALL) ok = true;
      else if (kind === CLASS) ok = inClass(nfa.classes[nfa.arg[s]!]!, c);
      else ok = false;
      if (ok) addState(next, nfa.out1[s]!, gen);
    }
    [current, next] = [next, current];
  }
  return current.some((s) => nfa.kind[s] === MATCH);
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
