// Turns lines of one file into definitions with the rules of core/symbols/languages.ts, tracking
// enclosing scopes by indentation (a definition nests in the last scope-opening definition that
// is less indented) for `containerName` and to tell methods from functions.
import { prefilter, type Language } from './languages.js';
import { kindCode, SYMBOL_KINDS, type SymbolDef } from './types.js';
import { flatCopy } from '../text/flatCopy.js';

/** Lines of this many UTF-8 bytes or more (with the line break, more than this) are skipped: minified code; ripgrep gets the same `--max-columns`. */
export const MAX_LINE_BYTES = 1000;

/** Words the broad shapes (`name(...)`, members) catch that are statements, not definitions. */
const NOT_NAMES = new Set([
  'if', 'else', 'elif', 'elseif', 'for', 'foreach', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally', 'return', 'sizeof', 'typeof', 'instanceof', 'await', 'yield', 'super', 'this', 'throw', 'with', 'when', 'using', 'lock', 'fixed',
  'synchronized', 'assert', 'print', 'echo', 'function', 'defined', 'static_assert', 'alignof', 'decltype', 'checked', 'unchecked',
  'nameof', 'unless', 'until', 'import', 'export', 'operator', 'noexcept', 'alignas', '__attribute__', '__catch', '__try', 'constexpr', 'explicit',
]);

/** Fields per symbol in FileExtractor.data: line, name start, name end (UTF-16 columns), kind (position in SYMBOL_KINDS). */
export const DEF_FIELDS = 4;

const METHOD = kindCode('method');
const CONSTRUCTOR = kindCode('constructor');
const CONSTANT = kindCode('constant');
const VARIABLE = kindCode('variable');
const TYPE = kindCode('typeParameter');
const STRUCT = kindCode('struct');
const INTERFACE = kindCode('interface');

/** A Go declaration group's last line: `)` alone (a comment may follow). */
const GROUP_CLOSE = /\)[ \t]*(?:\/\/[^\n]*)?(?=\r?\n|$)/y;
/** A Go declaration group's first line (sticky, inside a chunk of ripgrep output: `$` before the line break). */
const GROUP_OPEN = /(const|var|type)[ \t]*\([ \t]*(?:\/\/[^\n]*)?(?=\r?\n|$)/y;
/**
 * An entry of a group: one tab, the names, at most one type word (`struct {`, `struct{ a int }` too),
 * then `=` (no `;` but in a trailing comment), a comment or the line's end (after a `,` when the names go on); the same shape as the prefilter's branch (GO_GROUP_ENTRY).
 */
const GROUP_ENTRY = /\t([A-Za-z_]\w*)(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*((?:[ \t]+[\w.*[\]<>-]+(?:[ \t]*\{[^}\n]*\}?)?)?)[ \t]*,?[ \t]*(?:=(?:[^=;\n][^;\n]*|[^=;\n][^\n]*\/\/[^\n]*)?(?=\r?\n|$)|\/\/|(?=\r?\n|$))/y;
/** The rule an entry is recorded as, per kind code. */
const GROUP_RULES: CompiledRule[] = [];
for (const kind of [CONSTANT, VARIABLE, TYPE, STRUCT, INTERFACE]) {
  GROUP_RULES[kind] = { re: GROUP_ENTRY, hint: [], kindCode: kind, inClassCode: -1, withOwnerCode: -1, scope: 0, scopeOnly: false, member: false, topLevel: false, ctorByName: false, shape: false, notNames: NOT_NAMES, then: null };
}

/**
 * After a Ruby `<<`: a here-document's `~` or `-` (its terminator may be indented), its quote, and its ID,
 * which starts with a capital or `_` (the lines the prefilter passes as terminators: `^[ \t]*[A-Z_]\w*$`);
 * a bare one (no `~`, `-` or quote) with a capital, as the prefilter passes its line.
 */
const HEREDOC = /([~-]?)(["'`]?)([A-Z_][A-Za-z0-9_]*)\2(?![^\x00-\x7f])/y;
/** What a Ruby line read so far ends with, as far as a here-document's `<<` cares (rubyOpens). */
const R_START = 0; // the line's start or an operator: a value may start (`x = <<EOS`, `f(<<EOS`)
const R_WORD = 1; // an identifier, just now (`a<<B` is a shift)
const R_ARG = 2; // an identifier and blanks: a command's argument may start (`raise <<EOS`, `x /re/`)
const R_VALUE = 3; // a value (`)`, `]`, `}`, a string, a number, `@x`) or `class`: `<<B` is a shift or a singleton class
const R_DOT = 4; // `.`: a method name follows

/**
 * Extraction state for one file; feed it the file's candidate lines in order. Definitions are kept
 * column-wise (no object per symbol on a 100,000-symbol build); `symbols` assembles them. The
 * index build reuses one extractor per language (`reset` between files), so these arrays grow once.
 */
export class FileExtractor {
  /** Definitions found: the first `count` entries of `names`, `containers` and (DEF_FIELDS each) `data`. */
  count = 0;
  // Arrays made with their final element kinds (strings, numbers) in every instance, so that the
  // optimised build code never meets an array of another shape (which would undo the optimisation).
  readonly names: string[] = new Array<string>(16).fill('');
  readonly containers: (string | undefined)[] = new Array<string | undefined>(16).fill(undefined);
  /** DEF_FIELDS numbers per symbol, in a row; replaced by a bigger array when full. */
  data = new Int32Array(16 * DEF_FIELDS);
  /** Whether any symbol has a container (most files have none). */
  hasContainers = false;
  // The open scopes, innermost last, as parallel arrays (no object per scope): indentation * 2 + 1
  // when class-like, name (possibly a slice of a big chunk of ripgrep output), and its copy once
  // used as a container.
  private depth = 0;
  private scopeKey = new Int32Array(16);
  private readonly scopeName: string[] = new Array<string>(16).fill('');
  private readonly scopeCopy: (string | undefined)[] = new Array<string | undefined>(16).fill(undefined);
  private readonly matcher: Matcher;
  /** How the language's strings span lines (languages.ts, multiLineStrings): 0 not at all, 1 python, 2 triple, 3 backtick. */
  private readonly stringMode: number;
  /** The delimiter of the multi-line string open now (0 none, 34 `"""`, 39 `'''`, 96 a backquote). */
  private openQuote = 0;
  /** Go's `const (`/`var (`/`type (` groups are read; the kind of the open one's entries (-1: none open). */
  private readonly groups: boolean;
  private groupKind = -1;
  /** Comments and strings spanning lines (languages.ts, regions): 0 none, 1 Ruby, 2 Lua. */
  private readonly regionMode: number;
  /** The region open now: 0 none, 1 a Ruby `=begin` block, 2 Ruby here-document bodies, 3 a Lua long comment. */
  private region = 0;
  /** A region opened on the last line read: what it may have to undo is saved when the next line comes. */
  private opened = false;
  /** Ruby: the terminators of the open here-documents in order (the next at `heredocAt`), and whether each may be indented. */
  private readonly heredocIds: string[] = new Array<string>(4).fill('');
  private readonly heredocIndented: boolean[] = new Array<boolean>(4).fill(false);
  private heredocCount = 0;
  private heredocAt = 0;
  /** Lua: the number of `=` in the open long comment's brackets. */
  private level = 0;
  // The lines inside a region are read as code for now; when it closes, what they defined is dropped
  // and the scopes are those before it: a line misread as opening one (never Ruby's or Lua's own)
  // loses nothing unless a closing line comes. The state before the region, saved:
  private savedCount = 0;
  private savedContainers = false;
  private savedDepth = 0;
  private savedKey = new Int32Array(16);
  private readonly savedName: string[] = new Array<string>(16).fill('');
  private readonly savedCopy: (string | undefined)[] = new Array<string | undefined>(16).fill(undefined);

  /**
   * `prefiltered`: the lines already passed the prefilter (they come from ripgrep); otherwise each
   * line is tested here, so ripgrep's build and in-process extraction see the same lines.
   */
  constructor(
    language: Language,
    private readonly prefiltered = false,
  ) {
    this.matcher = matcherOf(language);
    const mode = language.multiLineStrings;
    this.stringMode = mode === 'python' ? 1 : mode === 'triple' ? 2 : mode === 'backtick' ? 3 : 0;
    this.groups = language.declarationGroups === true;
    this.regionMode = language.regions === 'ruby' ? 1 : language.regions === 'lua' ? 2 : 0;
  }

  /** Forgets the file's definitions and scopes, for the next file of the same language. */
  reset(): void {
    // The arrays keep their storage (setting `length` would release it). Names and scope names
    // are slices of ripgrep's output: cleared, so that the chunks they come from can go.
    this.names.fill('', 0, this.count);
    this.scopeName.fill('');
    this.count = 0;
    this.hasContainers = false;
    this.depth = 0;
    this.openQuote = 0;
    this.groupKind = -1;
    this.region = 0;
    this.opened = false;
    this.heredocIds.fill('', 0, this.heredocCount);
    this.heredocCount = 0;
    this.heredocAt = 0;
    this.savedName.fill('');
  }

  get symbols(): SymbolDef[] {
    return this.names.slice(0, this.count).map((name, i) => ({
      name,
      kind: SYMBOL_KINDS[this.data[DEF_FIELDS * i + 3]!]!,
      container: this.containers[i],
      line: this.data[DEF_FIELDS * i]!,
      start: this.data[DEF_FIELDS * i + 1]!,
      end: this.data[DEF_FIELDS * i + 2]!,
    }));
  }

  /** `line` is 0-based; `text` is the line without its terminator. */
  addLine(line: number, text: string): void {
    // ripgrep already replaced such lines with a notice: `--max-columns` counts the line break too.
    if (!this.prefiltered && text.length >= MAX_LINE_BYTES / 3 && utf8Length(text) >= MAX_LINE_BYTES) return;
    if (!this.prefiltered && !prefilter().js.test(text)) return;
    this.addLineIn(line, text, 0, text.length);
  }

  /**
   * addLine for the line `s.slice(from, to)` of a larger string (a chunk of ripgrep's output, its
   * lines prefiltered) without making that string: the index build's path. One regex with every
   * rule as an alternative finds the first rule whose pattern fits at `from`; only when that rule's
   * other conditions refuse the line does it become a string, for the later rules one by one.
   */
  addLineIn(line: number, s: string, from: number, to: number): void {
    // A line that starts inside a triple-quoted string defines nothing (the prefilter lets every
    // delimiter line through, so each string's start and end are seen).
    if (this.stringMode !== 0 && this.insideString(s, from, to)) return;
    if (this.groups && this.inGroup(line, s, from)) return;
    if (this.regionMode !== 0 && this.inRegion(s, from, to)) return;
    const matcher = this.matcher;
    const combined = matcher.combined;
    combined.lastIndex = from;
    const m = combined.exec(s);
    if (m === null) return;
    // The matched alternative is the rule owning the first group that took part (every rule has
    // a name or an owner group that does).
    let g = 1;
    while (m[g] === undefined) g++;
    const i = matcher.ruleAt[g]!;
    const indent = indentOf(s, from);
    const rule = matcher.rules[i]!;
    const end = m.index + m[0].length - from;
    if (this.apply(rule, m[matcher.nameGroup[i]!], m[matcher.ownerGroup[i]!], end, line, indent)) {
      if (rule.then !== null) this.more(rule, rule.then, s, from, to, end, line, indent);
      return;
    }
    this.laterRules(i + 1, line, s.slice(from, to), indent);
  }

  /** A rule's further definitions on the line (Rule.then), each nested in the one before it at the same indentation. */
  private more(rule: CompiledRule, then: RegExp, s: string, from: number, to: number, end: number, line: number, indent: number): void {
    for (;;) {
      then.lastIndex = from + end;
      const m = then.exec(s);
      if (m === null || m.index + m[0].length > to) return;
      end = m.index + m[0].length - from;
      if (!this.apply(rule, m[1], undefined, end, line, indent, true)) return;
    }
  }

  /**
   * Whether the line `s[from, to)` starts inside a multi-line string; reads the line as the
   * language's tokenizer would (one-line strings, backslash escapes, comments) to know whether the
   * next line does. Only lines holding a delimiter can change that, and the prefilter passes them all.
   */
  private insideString(s: string, from: number, to: number): boolean {
    const started = this.openQuote !== 0;
    const mode = this.stringMode;
    // Python comments start with `#`, the others with `//`; Go's raw strings have no escapes.
    const hashComments = mode === 1;
    const width = mode === 3 ? 1 : 3;
    let quote = this.openQuote;
    let i = from;
    while (i < to) {
      const c = s.charCodeAt(i);
      if (quote !== 0) {
        // Inside a multi-line string: up to its own closing delimiter (`\"` is text but in a raw string).
        if (c === 92 && mode !== 3) i += 2;
        else if (c === quote && (width === 1 || (s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === c && i + 2 < to))) {
          quote = 0;
          i += width;
        } else i++;
      } else if (hashComments ? c === 35 : c === 47 && s.charCodeAt(i + 1) === 47) {
        break;
      } else if (mode === 3 && c === 96) {
        quote = c;
        i++;
      } else if (c === 34 || c === 39) {
        if (mode !== 3 && (c === 34 || mode === 1) && s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === c && i + 2 < to) {
          quote = c;
          i += 3;
        } else {
          // A one-line string: to its closing quote (a line that ends inside it ends it).
          i++;
          while (i < to && s.charCodeAt(i) !== c) i += s.charCodeAt(i) === 92 ? 2 : 1;
          i++;
        }
      } else i++;
    }
    this.openQuote = quote;
    return started;
  }

  /**
   * Ruby's and Lua's regions (Language.regions): whether the line `s[from, to)` closes one (it then
   * defines nothing). A line outside any is read for what opens one; its own definitions count. The
   * prefilter passes every line that can open or close one, so each region's start and end are seen.
   */
  private inRegion(s: string, from: number, to: number): boolean {
    if (this.region === 0) {
      if (this.regionMode === 1) this.rubyOpens(s, from, to);
      else this.luaOpens(s, from, to);
      return false;
    }
    if (this.opened) this.save();
    if (this.regionMode === 2) return this.luaCloses(s, from, to);
    if (this.region === 1) {
      if (s.charCodeAt(from) !== 61 || !wordAt(s, from + 1, to, 'end')) return false;
      this.restore();
      return true;
    }
    // A here-document's terminator: its ID alone on the line (after blanks for `<<~` and `<<-`).
    const at = this.heredocAt;
    const id = this.heredocIds[at]!;
    let k = from;
    if (this.heredocIndented[at]) while (k < to && (s.charCodeAt(k) === 32 || s.charCodeAt(k) === 9)) k++;
    if (to - k !== id.length || !s.startsWith(id, k)) return false;
    this.heredocAt = at + 1;
    if (this.heredocAt === this.heredocCount) this.restore();
    return true;
  }

  /**
   * A Ruby line outside any region: `=begin` at its start, or here-document openers, read as Ruby's
   * lexer would (strings, comments, regex and `%` literals; `<<ID` only where an argument may start,
   * which `a <<b`, `x<<Y`, `[1] <<Y`, `class <<Foo` and `a << B` are not).
   */
  private rubyOpens(s: string, from: number, to: number): void {
    if (s.charCodeAt(from) === 61 && wordAt(s, from + 1, to, 'begin')) {
      this.region = 1;
      this.opened = true;
      return;
    }
    let state = R_START;
    let word = from;
    let i = from;
    while (i < to) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9) {
        // A word that takes arguments (a method, a keyword): not a number, a variable or `class`.
        if (state === R_WORD) state = isLetter(s.charCodeAt(word)) && !(i - word === 5 && s.startsWith('class', word)) ? R_ARG : R_VALUE;
        i++;
      } else if (isLetter(c) || (c >= 48 && c <= 57) || c === 64 || (state === R_WORD && (c === 63 || c === 33))) {
        // Identifiers, numbers, `@x`; `?` and `!` ending a method name.
        if (state !== R_WORD) word = i;
        state = R_WORD;
        i++;
      } else if (c === 35) {
        break;
      } else if (c === 34 || c === 39 || c === 96) {
        i = quotedEnd(s, i, to, c);
        state = R_VALUE;
      } else if (c === 36) {
        // `$"`, `$'`, `$/`: globals named by a character; `$x` is a word.
        if (i + 1 < to && !isLetter(s.charCodeAt(i + 1))) {
          i += 2;
          state = R_VALUE;
        } else {
          word = i++;
          state = R_WORD;
        }
      } else if (c === 60 && s.charCodeAt(i + 1) === 60 && i + 1 < to) {
        HEREDOC.lastIndex = i + 2;
        const m = HEREDOC.exec(s);
        const end = m === null ? -1 : i + 2 + m[0].length;
        // `<<~ID` and `<<-ID` where anything but a method name follows; a bare `<<ID` where a value or an argument starts.
        if (m !== null && end <= to && (m[1] !== '' ? state !== R_DOT : (state === R_START || state === R_ARG) && (m[2] !== '' || m[3]!.charCodeAt(0) !== 95))) {
          const n = this.heredocCount++;
          this.heredocIds[n] = m[3]!;
          this.heredocIndented[n] = m[1] !== '';
          i = end;
          state = R_VALUE;
        } else {
          i += 2;
          state = R_START;
        }
      } else if ((state === R_START || (state === R_ARG && !isBlankAt(s, i + 1, to))) && (c === 47 || c === 37 || c === 63)) {
        // A regex `/.../`, a `%w[...]` literal or a character `?x` where a value starts (elsewhere: division, modulo, a ternary).
        i = c === 47 ? quotedEnd(s, i, to, 47) : c === 37 ? percentEnd(s, i, to) : i + (s.charCodeAt(i + 1) === 92 ? 3 : 2);
        state = R_VALUE;
      } else {
        state = c === 41 || c === 93 || c === 125 ? R_VALUE : c === 46 ? R_DOT : R_START;
        i++;
      }
    }
    if (this.heredocCount > 0) {
      this.region = 2;
      this.opened = true;
    }
  }

  /**
   * A Lua line outside any region: a long comment `--[[`, `--[==[` starting it and not ending on it.
   * Only there (and its ends only at a line's start, `]]` or `--]]`): the prefilter would have to pass
   * every line holding `[[` or `]]` of every language to see the others (3% of ripgrep's time each).
   */
  private luaOpens(s: string, from: number, to: number): void {
    const at = luaCommentAt(s, from, to);
    if (at < 0) return;
    const level = longBracketLevel(s, at + 2, to);
    if (longBracketEnd(s, at + level + 4, to, level) >= 0) return;
    this.region = 3;
    this.level = level;
    this.opened = true;
  }

  /**
   * A Lua line inside a long comment: whether it defines nothing. Its end at the line's start closes
   * the comment. An end after other text (a line passed for another reason), or a long comment
   * starting the line, may come after an end the prefilter did not pass (`text ]]`): the comment
   * closes keeping what its lines defined, as before this reading, and the line is read anew.
   */
  private luaCloses(s: string, from: number, to: number): boolean {
    const end = longBracketEnd(s, from, to, this.level);
    if (end >= 0) {
      let k = from;
      while (k < to && (s.charCodeAt(k) === 32 || s.charCodeAt(k) === 9)) k++;
      if (s.charCodeAt(k) === 45 && s.charCodeAt(k + 1) === 45) k += 2;
      if (end - k === this.level + 2) {
        this.restore();
        return true;
      }
      this.region = 0;
      return false;
    }
    if (luaCommentAt(s, from, to) < 0) return false;
    this.region = 0;
    this.luaOpens(s, from, to);
    return true;
  }

  /** Saves the definitions' count and the scopes before a region (after its opening line). */
  private save(): void {
    this.opened = false;
    this.savedCount = this.count;
    this.savedContainers = this.hasContainers;
    const depth = this.depth;
    this.savedDepth = depth;
    if (depth > this.savedKey.length) this.savedKey = new Int32Array(this.scopeKey.length);
    for (let i = 0; i < depth; i++) {
      this.savedKey[i] = this.scopeKey[i]!;
      this.savedName[i] = this.scopeName[i]!;
      this.savedCopy[i] = this.scopeCopy[i];
    }
  }

  /** Closes the region: what its lines defined is dropped, the scopes are those before it. */
  private restore(): void {
    this.region = 0;
    this.heredocIds.fill('', 0, this.heredocCount);
    this.heredocCount = 0;
    this.heredocAt = 0;
    const count = this.savedCount;
    this.names.fill('', count, this.count);
    this.count = count;
    this.hasContainers = this.savedContainers;
    const depth = this.savedDepth;
    for (let i = 0; i < depth; i++) {
      this.scopeKey[i] = this.savedKey[i]!;
      this.scopeName[i] = this.savedName[i]!;
      this.scopeCopy[i] = this.savedCopy[i];
    }
    this.depth = depth;
  }

  /**
   * Go's grouped declarations: `const (` (or `var (`, `type (`) at column 0 opens a group that a
   * `)` at column 0 closes; each entry indented by one tab defines its first name. Whether the
   * line was the group's (then no rule applies to it).
   */
  private inGroup(line: number, s: string, from: number): boolean {
    if (this.groupKind < 0) {
      GROUP_OPEN.lastIndex = from;
      const m = GROUP_OPEN.exec(s);
      if (m === null) return false;
      this.groupKind = m[1] === 'const' ? CONSTANT : m[1] === 'var' ? VARIABLE : TYPE;
      this.depth = 0;
      return true;
    }
    GROUP_CLOSE.lastIndex = from;
    if (GROUP_CLOSE.test(s)) {
      this.groupKind = -1;
      return true;
    }
    GROUP_ENTRY.lastIndex = from;
    const m = GROUP_ENTRY.exec(s);
    // `_` (the blank identifier) names nothing.
    if (m !== null && m[1] !== '_') {
      const name = m[1]!;
      const type = m[2]!;
      const kind = this.groupKind !== TYPE ? this.groupKind : /^[ \t]+struct\b/.test(type) ? STRUCT : /^[ \t]+interface\b/.test(type) ? INTERFACE : TYPE;
      const rule = GROUP_RULES[kind]!;
      this.apply(rule, name, undefined, 1 + name.length, line, 4);
    }
    return true;
  }

  /** The rules after one whose other conditions refused the line, one by one. */
  private laterRules(first: number, line: number, text: string, indent: number): void {
    const rules = this.matcher.rules;
    for (let i = first; i < rules.length; i++) {
      const rule = rules[i]!;
      if (!hasHint(text, rule.hint)) continue;
      const r = rule.re.exec(text);
      if (!r?.groups) continue;
      if (this.apply(rule, r.groups.name, r.groups.owner, r.index + r[0].length, line, indent)) {
        if (rule.then !== null) this.more(rule, rule.then, text, 0, text.length, r.index + r[0].length, line, indent);
        return;
      }
    }
  }

  /**
   * `end`: where the match ended, which is where the name (or owner) ends. `nested`: the definition
   * goes in the scope the last definition opened, whatever its indentation (Rule.then).
   */
  private apply(rule: CompiledRule, name: string | undefined, owner: string | undefined, end: number, line: number, indent: number, nested = false): boolean {
    if (rule.topLevel && indent !== 0) return false;
    // Scopes end where a definition at the same or a smaller indentation starts.
    const scopeKey = this.scopeKey;
    let top = this.depth;
    while (!nested && top > 0 && scopeKey[top - 1]! >> 1 >= indent) top--;
    const inClass = top > 0 && (scopeKey[top - 1]! & 1) === 1;
    if (rule.member && !inClass) return false;
    if (rule.scopeOnly) {
      if (owner === undefined) return false;
      this.open(top, indent, owner, true);
      return true;
    }
    if (name === undefined || (rule.shape && rule.notNames.has(name))) return false;
    // What follows runs the same operations for every definition, whatever the language: one that
    // only some languages reach (an owner, a constructor by name), met for the first time late in
    // an index build, would make V8 throw away the optimised code. Hence comparisons that run
    // before the `&&` that would skip them, and one call site of flat for owners and scopes.
    let kind = rule.kindCode;
    if (rule.withOwnerCode >= 0 && owner !== undefined) kind = rule.withOwnerCode;
    else if (rule.inClassCode >= 0 && inClass) kind = rule.inClassCode;
    const enclosingName = top > 0 ? this.scopeName[top - 1] : undefined;
    const ctorName = rule.ctorByName ? (owner ?? enclosingName) : undefined;
    if (name === ctorName || (kind === METHOD && name === 'constructor')) kind = CONSTRUCTOR;
    // Containers are copies, not slices of the line (which is a slice of a chunk of ripgrep output
    // that would otherwise stay alive with them); a scope's copy is made once, when first used.
    let container = owner === undefined && top > 0 ? this.scopeCopy[top - 1] : undefined;
    if (container === undefined) {
      const source = owner ?? (top > 0 ? this.scopeName[top - 1] : undefined);
      if (source !== undefined) {
        container = flatCopy(source);
        if (owner === undefined) this.scopeCopy[top - 1] = container;
      }
    }
    if (container !== undefined) this.hasContainers = true;
    const n = this.count++;
    this.names[n] = name;
    this.containers[n] = container;
    const at = n * DEF_FIELDS;
    if (at + DEF_FIELDS > this.data.length) this.data = grown(this.data);
    const data = this.data;
    // Rules end their match at the name (core/symbols/languages.ts, re()).
    data[at] = line;
    data[at + 1] = end - name.length;
    data[at + 2] = end;
    data[at + 3] = kind;
    if (rule.scope !== 0) this.open(top, indent, name, rule.scope === 2);
    else this.depth = top;
    return true;
  }

  /** Closes the scopes above `top` and opens one there. */
  private open(top: number, indent: number, name: string, classLike: boolean): void {
    if (top === this.scopeKey.length) this.scopeKey = grown(this.scopeKey);
    this.scopeKey[top] = indent * 2 + (classLike ? 1 : 0);
    this.scopeName[top] = name;
    this.scopeCopy[top] = undefined;
    this.depth = top + 1;
  }
}

/** Whether `s` has `word` at `at`, then a blank or the line's end `to` (Ruby's `=begin`, `=end`). */
function wordAt(s: string, at: number, to: number, word: string): boolean {
  const end = at + word.length;
  return end <= to && s.startsWith(word, at) && (end === to || s.charCodeAt(end) === 32 || s.charCodeAt(end) === 9);
}

/** ASCII letters, `_` and any non-ASCII character (Ruby identifiers). */
function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 128;
}

function isBlankAt(s: string, i: number, to: number): boolean {
  if (i >= to) return true;
  const c = s.charCodeAt(i);
  return c === 32 || c === 9 || c === 61;
}

/** The index after the string (or regex) opened by `quote` at `i`, backslash escapes skipped; the line's end when it goes on. */
function quotedEnd(s: string, i: number, to: number, quote: number): number {
  for (i++; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i + 1;
  }
  return to;
}

/** A Ruby `%` literal at `i` (`%w[a b]`, `%q(x)`, `%(x)`, `%r{x}`): the index after it, brackets nested; the line's end when it goes on. */
function percentEnd(s: string, i: number, to: number): number {
  let k = i + 1;
  if (k < to && 'qQwWiIrsx'.includes(s[k]!)) k++;
  const open = k < to ? s.charCodeAt(k) : 32;
  // `%` then a blank, a letter or a digit is the modulo operator.
  if (open === 32 || open === 9 || open === 61 || isLetter(open) || (open >= 48 && open <= 57)) return i + 1;
  const close = open === 40 ? 41 : open === 91 ? 93 : open === 123 ? 125 : open === 60 ? 62 : open;
  let depth = 1;
  for (k++; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c === 92) k++;
    else if (c === close && --depth === 0) return k + 1;
    else if (c === open) depth++;
  }
  return to;
}

/** Lua: where `--[[` or `--[==[` starts the line `s[from, to)` (after blanks), or -1. */
function luaCommentAt(s: string, from: number, to: number): number {
  let k = from;
  while (k < to && (s.charCodeAt(k) === 32 || s.charCodeAt(k) === 9)) k++;
  return s.charCodeAt(k) === 45 && s.charCodeAt(k + 1) === 45 && longBracketLevel(s, k + 2, to) >= 0 ? k : -1;
}

/** Lua: the level (number of `=`) of a long bracket `[==[` at `i`, or -1. */
function longBracketLevel(s: string, i: number, to: number): number {
  if (s.charCodeAt(i) !== 91) return -1;
  let k = i + 1;
  while (k < to && s.charCodeAt(k) === 61) k++;
  return k < to && s.charCodeAt(k) === 91 ? k - i - 1 : -1;
}

/** Lua: the index after the first `]==]` of `level` in `s[i, to)`, or -1. */
function longBracketEnd(s: string, i: number, to: number, level: number): number {
  for (; i < to; i++) {
    if (s.charCodeAt(i) !== 93) continue;
    let k = i + 1;
    while (k < to && s.charCodeAt(k) === 61) k++;
    if (k - i - 1 === level && k < to && s.charCodeAt(k) === 93) return k + 1;
  }
  return -1;
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

/** A rule in one shape for every rule (the hot path stays monomorphic): kinds as positions in SYMBOL_KINDS (-1: none), scope 0 none, 1 block, 2 class. */
interface CompiledRule {
  re: RegExp;
  hint: readonly string[];
  kindCode: number;
  inClassCode: number;
  withOwnerCode: number;
  scope: number;
  scopeOnly: boolean;
  member: boolean;
  topLevel: boolean;
  ctorByName: boolean;
  shape: boolean;
  notNames: ReadonlySet<string>;
  then: RegExp | null;
}

interface Matcher {
  rules: readonly CompiledRule[];
  /**
   * The rules as ordered alternatives, for a line that starts at `lastIndex` in a larger string:
   * sticky, `$` before the line's `\n` or `\r\n`, no negated class crossing a line break.
   */
  combined: RegExp;
  /** Per rule: the capture group numbers of its `name` and `owner` in `combined` (a never-set group when it has none). */
  nameGroup: Int32Array;
  ownerGroup: Int32Array;
  /**
   * Rule index by capture group number: the first group that took part belongs to the matched
   * alternative (the groups of the alternatives before it did not take part).
   */
  ruleAt: Int32Array;
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
  /** The rule of each capture group. */
  const groupRule: number[] = [-1];
  language.rules.forEach((rule, i) => {
    let out = '';
    // The indentation is matched once, before the alternatives, so that each alternative starts
    // with its keyword or name and irregexp can reject it from its first characters. A rule that
    // wants no indentation (`^`) or some (`^[ \t]+`) checks the character before it instead.
    const [lead, rest] = leading(rule.re.source);
    const src = rest;
    out += lead === 'none' ? '(?<![ \\t])' : lead === 'some' ? '(?<=[ \\t])' : '';
    for (let j = 0; j < src.length; j++) {
      const c = src[j]!;
      if (c === '\\') {
        out += c + (src[j + 1] ?? '');
        j++;
      } else if (c === '[') {
        const k = classEnd(src, j);
        out += src.slice(j, k + 1);
        j = k;
      } else if (c === '(' && src.startsWith('(?<name>', j)) {
        nameGroup[i] = ++groups;
        groupRule[groups] = i;
        out += '(';
        j += '(?<name>'.length - 1;
      } else if (c === '(' && src.startsWith('(?<owner>', j)) {
        ownerGroup[i] = ++groups;
        groupRule[groups] = i;
        out += '(';
        j += '(?<owner>'.length - 1;
      } else {
        if (c === '(' && src[j + 1] !== '?') groupRule[++groups] = i;
        out += c;
      }
    }
    if (nameGroup[i] === 0 && ownerGroup[i] === 0) throw new Error(`a definition rule needs a name or an owner group: ${rule.re.source}`);
    parts.push(out);
  });
  // Group 0 (the whole match) is never undefined: point rules without an owner at a group that
  // never takes part instead, the last one, added empty and unreachable.
  const never = ++groups;
  for (let i = 0; i < language.rules.length; i++) {
    if (nameGroup[i] === 0) nameGroup[i] = never;
    if (ownerGroup[i] === 0) ownerGroup[i] = never;
  }
  const rules = language.rules.map((r): CompiledRule => ({
    re: r.re,
    hint: r.hint,
    kindCode: kindCode(r.kind),
    inClassCode: r.inClass ? kindCode(r.inClass) : -1,
    withOwnerCode: r.withOwner ? kindCode(r.withOwner) : -1,
    scope: r.scope === 'class' ? 2 : r.scope === 'block' ? 1 : 0,
    scopeOnly: r.scopeOnly === true,
    member: r.member === true,
    topLevel: r.topLevel === true,
    ctorByName: r.ctorByName === true,
    shape: r.shape === true,
    notNames: r.notNames ?? NOT_NAMES,
    then: r.then ?? null,
  }));
  const ruleAt = Int32Array.from(groupRule);
  // `(?![ \t])` after the indentation: giving back a blank cannot help an alternative (none starts
  // with one), so a line that fits no rule fails at once instead of once per shorter indentation.
  const body = `[ \\t]*(?![ \\t])(?:${parts.join('|')}|(?!)())`;
  m = { rules, combined: new RegExp(withinLine(body), 'y'), nameGroup, ownerGroup, ruleAt };
  matchers.set(language, m);
  return m;
}

/**
 * A regex source made to match inside one line of a larger string: `\n` added to every negated
 * class, and `$` (the end of a line string) read as the end of the line, before `\r\n`, `\n` or
 * the end of the string. A lone `\r` inside a line stays an ordinary character, as it is in the
 * line as a string of its own.
 */
function withinLine(source: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') {
      i++;
    } else if (source[i] === '$') {
      out += `${source.slice(from, i)}(?=\\r?\\n|$)`;
      from = i + 1;
    } else if (source[i] === '[') {
      const end = classEnd(source, i);
      if (source[i + 1] === '^') {
        out += `${source.slice(from, i + 2)}\\n`;
        from = i + 2;
      }
      i = end;
    }
  }
  return out + source.slice(from);
}

/** Index of the `]` closing the character class that opens at `open` (escapes skipped). */
function classEnd(source: string, open: number): number {
  let k = open + 1;
  while (k < source.length && source[k] !== ']') k += source[k] === '\\' ? 2 : 1;
  return k;
}

/** How a rule's source starts (any indentation, none, or some) and the rest of it. */
function leading(source: string): ['any' | 'none' | 'some', string] {
  if (source.startsWith('^[ \\t]*')) return ['any', source.slice('^[ \\t]*'.length)];
  if (source.startsWith('^[ \\t]+')) return ['some', source.slice('^[ \\t]+'.length)];
  if (source.startsWith('^')) return ['none', source.slice(1)];
  throw new Error(`a definition rule must start at the line start: ${source}`);
}

/** A copy of twice the length. */
function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function hasHint(text: string, hint: readonly string[]): boolean {
  for (let i = 0; i < hint.length; i++) if (text.includes(hint[i]!)) return true;
  return false;
}

/** Spaces count 1, tabs 4 (one addition for both: a tab first met in optimised code would undo it). */
function indentOf(text: string, from: number): number {
  let n = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    n += c === 9 ? 4 : 1;
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
