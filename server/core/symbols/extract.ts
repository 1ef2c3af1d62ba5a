// Turns lines of one file into definitions with the rules of core/symbols/languages.ts, tracking
// enclosing scopes by indentation (a definition nests in the last scope-opening definition that
// is less indented) for `containerName` and to tell methods from functions.
import { PREFILTER_JS, type Language, type Rule } from './languages.js';
import type { SymbolDef, SymbolKindName } from './types.js';

/** Lines longer than this (in UTF-8 bytes) are skipped: minified code; ripgrep gets the same `--max-columns`. */
export const MAX_LINE_BYTES = 1000;

/** Words the broad shapes (`name(...)`, members) catch that are statements, not definitions. */
const NOT_NAMES = new Set([
  'if', 'else', 'elif', 'elseif', 'for', 'foreach', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally', 'return', 'sizeof', 'typeof', 'instanceof', 'await', 'yield', 'super', 'this', 'throw', 'with', 'when', 'using', 'lock', 'fixed',
  'synchronized', 'assert', 'print', 'echo', 'function', 'defined', 'static_assert', 'alignof', 'decltype', 'checked', 'unchecked',
  'nameof', 'unless', 'until', 'import', 'export', 'operator',
]);

interface Scope {
  indent: number;
  name: string;
  classLike: boolean;
}

/**
 * Extraction state for one file; feed it the file's candidate lines in order. Definitions are kept
 * column-wise (no object per symbol on a 100,000-symbol build); `symbols` assembles them.
 */
export class FileExtractor {
  readonly names: string[] = [];
  readonly kinds: SymbolKindName[] = [];
  readonly containers: (string | undefined)[] = [];
  /** line, start, end (UTF-16 columns of the name) for each symbol, in a row. */
  readonly positions: number[] = [];
  private readonly scopes: Scope[] = [];

  get count(): number {
    return this.names.length;
  }

  get symbols(): SymbolDef[] {
    return this.names.map((name, i) => ({
      name,
      kind: this.kinds[i]!,
      container: this.containers[i],
      line: this.positions[3 * i]!,
      start: this.positions[3 * i + 1]!,
      end: this.positions[3 * i + 2]!,
    }));
  }

  /**
   * `prefiltered`: the lines already passed the prefilter (they come from ripgrep); otherwise each
   * line is tested here, so ripgrep's build and in-process extraction see the same lines.
   */
  private readonly matcher: Matcher;

  constructor(
    private readonly language: Language,
    private readonly prefiltered = false,
  ) {
    this.matcher = matcherOf(language);
  }

  /** `line` is 0-based; `text` is the line without its terminator. */
  addLine(line: number, text: string): void {
    if (text.length > MAX_LINE_BYTES / 3 && utf8Length(text) > MAX_LINE_BYTES) return;
    if (!this.prefiltered && !PREFILTER_JS.test(text)) return;
    // One regex with every rule as an alternative finds the first rule whose pattern fits; only
    // when that rule's other conditions refuse the line are the later rules tried one by one.
    const matcher = this.matcher;
    const m = matcher.combined.exec(text);
    if (!m) return;
    const rules = this.language.rules;
    let i = 0;
    while (i < rules.length && m[matcher.nameGroup[i]!] === undefined && m[matcher.ownerGroup[i]!] === undefined) i++;
    if (i < rules.length && this.apply(rules[i]!, m[matcher.nameGroup[i]!], m[matcher.ownerGroup[i]!], m.index + m[0].length, line, text)) return;
    for (i++; i < rules.length; i++) {
      const rule = rules[i]!;
      if (!hasHint(text, rule.hint)) continue;
      const r = rule.re.exec(text);
      if (!r?.groups) continue;
      if (this.apply(rule, r.groups.name, r.groups.owner, r.index + r[0].length, line, text)) return;
    }
  }

  /** `end`: where the match ended, which is where the name (or owner) ends. */
  private apply(rule: Rule, name: string | undefined, owner: string | undefined, end: number, line: number, text: string): boolean {
    const indent = indentOf(text);
    if (rule.topLevel && indent !== 0) return false;
    // Scopes end where a definition at the same or a smaller indentation starts.
    let top = this.scopes.length;
    while (top > 0 && this.scopes[top - 1]!.indent >= indent) top--;
    const enclosing = top > 0 ? this.scopes[top - 1] : undefined;
    if (rule.member && !enclosing?.classLike) return false;
    if (rule.scopeOnly) {
      if (owner === undefined) return false;
      this.scopes.length = top;
      this.scopes.push({ indent, name: flat(owner), classLike: true });
      return true;
    }
    if (name === undefined || (rule.shape && NOT_NAMES.has(name))) return false;
    let kind: SymbolKindName = rule.kind;
    if (owner !== undefined && rule.withOwner) kind = rule.withOwner;
    else if (enclosing?.classLike && rule.inClass) kind = rule.inClass;
    if ((rule.ctorByName && name === (owner ?? enclosing?.name)) || (kind === 'method' && name === 'constructor')) kind = 'constructor';
    this.scopes.length = top;
    // Rules end their match at the name (core/symbols/languages.ts, re()).
    const start = end - name.length;
    const container = owner === undefined ? enclosing?.name : flat(owner);
    this.names.push(name);
    this.kinds.push(kind);
    this.containers.push(container);
    this.positions.push(line, start, start + name.length);
    // Scope names become containers of later symbols: copies, not slices of the line (which is a
    // slice of a 64 KiB chunk of ripgrep output that would otherwise stay alive with them).
    if (rule.scope) this.scopes.push({ indent, name: flat(name), classLike: rule.scope === 'class' });
    return true;
  }
}

/** All definitions in a whole text (an open buffer, a saved file). */
export function extractSymbols(language: Language, text: string): SymbolDef[] {
  return scanText(new FileExtractor(language), text).symbols;
}

/** Feeds every line of `text` (line breaks \n or \r\n) to the extractor. */
export function scanText(extractor: FileExtractor, text: string): FileExtractor {
  let line = 0;
  let start = 0;
  const n = text.length;
  while (start <= n) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = n;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (lineEnd > start) extractor.addLine(line, text.slice(start, lineEnd));
    line++;
    start = end + 1;
  }
  return extractor;
}

interface Matcher {
  combined: RegExp;
  /** Per rule: the capture group numbers of its `name` and `owner` in `combined` (a never-set group when it has none). */
  nameGroup: Int32Array;
  ownerGroup: Int32Array;
}

const matchers = new Map<Language, Matcher>();

/** All of a language's rules as one regex of ordered alternatives, named groups turned into numbered ones. */
function matcherOf(language: Language): Matcher {
  let m = matchers.get(language);
  if (m) return m;
  const parts: string[] = [];
  const nameGroup = new Int32Array(language.rules.length);
  const ownerGroup = new Int32Array(language.rules.length);
  let groups = 0;
  language.rules.forEach((rule, i) => {
    let out = '';
    const src = rule.re.source;
    for (let j = 0; j < src.length; j++) {
      const c = src[j]!;
      if (c === '\\') {
        out += c + (src[j + 1] ?? '');
        j++;
      } else if (c === '[') {
        let k = j + 1;
        while (k < src.length && src[k] !== ']') k += src[k] === '\\' ? 2 : 1;
        out += src.slice(j, k + 1);
        j = k;
      } else if (c === '(' && src.startsWith('(?<name>', j)) {
        nameGroup[i] = ++groups;
        out += '(';
        j += '(?<name>'.length - 1;
      } else if (c === '(' && src.startsWith('(?<owner>', j)) {
        ownerGroup[i] = ++groups;
        out += '(';
        j += '(?<owner>'.length - 1;
      } else {
        if (c === '(' && src[j + 1] !== '?') groups++;
        out += c;
      }
    }
    parts.push(`(?:${out})`);
  });
  // Group 0 (the whole match) is never undefined: point rules without an owner at a group that
  // never takes part instead, the last one, added empty and unreachable.
  const never = ++groups;
  for (let i = 0; i < language.rules.length; i++) {
    if (nameGroup[i] === 0) nameGroup[i] = never;
    if (ownerGroup[i] === 0) ownerGroup[i] = never;
  }
  m = { combined: new RegExp(`${parts.join('|')}|(?!)()`), nameGroup, ownerGroup };
  matchers.set(language, m);
  return m;
}

function flat(s: string): string {
  return (' ' + s).slice(1);
}

function hasHint(text: string, hint: readonly string[]): boolean {
  for (let i = 0; i < hint.length; i++) if (text.includes(hint[i]!)) return true;
  return false;
}

function indentOf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) n += 1;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 2 : 3;
  }
  return bytes;
}
