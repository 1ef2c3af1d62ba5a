// Definition patterns per language (TypeScript/JavaScript, Python, Rust, Go, C/C++, Java, Kotlin,
// C#, Ruby, PHP, Lua, shell, Swift): line-anchored regexes naming the symbol, its kind, and whether
// it opens a scope later definitions nest in. Regex-based like ctags' simplest parsers: it finds
// definitions that start a line, not every declaration a compiler would see.
import type { SymbolKindName } from './types.js';

export interface Rule {
  /** Named groups: `name` (the symbol), optional `owner` (an explicit container: Go receiver, Lua table). */
  re: RegExp;
  /** The rule is tried only on lines containing one of these (a cheap test before the regex). */
  hint: readonly string[];
  kind: SymbolKindName;
  /** Kind when the innermost scope is class-like (a Python `def` in a class is a method). */
  inClass?: SymbolKindName;
  /** Kind when the `owner` group matched (Go receiver, Lua `M:f`). */
  withOwner?: SymbolKindName;
  /** The definition opens a scope: 'class' (its functions are members) or 'block'. */
  scope?: 'class' | 'block';
  /** No symbol, only a class-like scope named by `owner` (Rust impl, Swift extension). */
  scopeOnly?: boolean;
  /** Only inside a class-like scope (members found by shape rather than keyword). */
  member?: boolean;
  /** Only at indentation 0. */
  topLevel?: boolean;
  /** `constructor` when the name equals the enclosing class's (or the owner's) name (Java, C#, C++). */
  ctorByName?: boolean;
  /** Found by shape (`name(...)`), not by a keyword: statement words like `if` or `while` are refused. */
  shape?: boolean;
  /** The statement words a shape rule refuses, when not every language's (`lock`, `print`, `with` are Java method names). */
  notNames?: ReadonlySet<string>;
  /**
   * More definitions of this rule further on the line: a sticky pattern tried where the last name
   * ended, its group 1 the next name, each nested in the one before (`namespace a { namespace b {`,
   * `namespace a::b::c`). Blanks are spaces and tabs; it never goes past the line's end.
   */
  then?: RegExp;
}

export interface Language {
  id: string;
  /** The languages as people name them that these rules serve (one rule set serves C and C++). */
  names: readonly string[];
  extensions: readonly string[];
  rules: readonly Rule[];
  /**
   * Strings that span lines, whose lines define nothing: 'python' (`"""` and `'''`, `#` comments,
   * `'` and `"` one-line strings), 'triple' (Kotlin and Swift `"""`, `//` comments), 'backtick'
   * (Go raw strings, `//` comments, `'` runes and `"` strings).
   */
  multiLineStrings?: 'python' | 'triple' | 'backtick';
  /**
   * Comments and strings spanning lines, read line by line, whose lines define nothing: 'ruby'
   * (`=begin` ... `=end` at column 0; here-documents `<<~ID`, `<<-ID`, `<<ID`, the ID bare or quoted,
   * from the next line to the terminator; only IDs starting with a capital or `_`, the terminators the
   * prefilter passes), 'lua' (long comments `--[[ ]]`, `--[==[ ]==]` starting their line; long strings
   * and comments after code are read as code: the prefilter would have to pass every `[[` and `]]`).
   * Tentatively: a region that never closes (a misread line) keeps the definitions it held.
   */
  regions?: 'ruby' | 'lua';
  /** Go's grouped declarations: `const (`, `var (`, `type (` at column 0 up to `)`, one definition per entry. */
  declarationGroups?: boolean;
}

// Identifier characters: ASCII word characters and BMP letters (punctuation, symbol and surrogate
// ranges left out); plain classes rather than \p{L} keep the regexes fast without the `u` flag.
const WORD = String.raw`\u00AA\u00B5\u00BA\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u1FFF\u2070-\u218F\u2C00-\u2DFF\u3040-\uD7FF\uF900-\uFDFF\uFE70-\uFEFF\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFF66-\uFFDC`;
const ID = `[A-Za-z_${WORD}][\\w${WORD}]*`;
const JSID = `[A-Za-z_$${WORD}][\\w$${WORD}]*`;

/**
 * A language whose rules are compiled on first use (the index build, after `initialized`), not when
 * the bundle loads: their regexes cost about 5 ms of every start-up.
 */
function language(def: Omit<Language, 'rules'> & { rules: () => readonly Rule[] }): Language {
  const { rules: make, ...rest } = def;
  let rules: readonly Rule[] | undefined;
  return Object.defineProperty(rest, 'rules', { get: () => (rules ??= make()), enumerable: true }) as Language;
}

/**
 * Compiles a rule. Everything after the `name` group (or `owner`, for scope-only rules) becomes a
 * lookahead, so a match ends where the name ends and its column is `index + match.length -
 * name.length`: no per-match index arrays (the `d` flag) to allocate on a large build.
 */
function re(source: string): RegExp {
  // (blanks before the names are put in: they hold no \s, and it then reads a tenth of the text)
  const full = blanks(source).replaceAll('{ID}', ID).replaceAll('{JSID}', JSID);
  const at = full.includes('(?<name>') ? full.indexOf('(?<name>') : full.indexOf('(?<owner>');
  if (at < 0) return new RegExp(full);
  const end = groupEnd(full, at);
  const tail = full.slice(end + 1);
  return new RegExp(tail === '' ? full : `${full.slice(0, end + 1)}(?=${tail})`);
}

/**
 * `\s` becomes `[ \t]` (inside a class, ` \t`): blanks in a definition are spaces and tabs, as in
 * the ripgrep prefilter, which cannot see a form feed, a vertical tab or a Unicode space the way
 * JavaScript's `\s` does.
 */
function blanks(source: string): string {
  let inClass = false;
  return source.replace(/\\[\s\S]?|[[\]]/g, (m) => {
    if (m === '[' || m === ']') inClass = m === '[';
    else if (m === '\\s') return inClass ? ' \\t' : '[ \\t]';
    return m;
  });
}

/** Index of the `)` closing the group that opens at `open` (escapes and character classes skipped). */
export function groupEnd(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  throw new Error(`unbalanced group in ${source}`);
}

const TS_MODS = String.raw`(?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor|get|set)\s+)*`;

/** What may come before a named function expression on its line besides code: whole one-line strings and comments. */
const JS_PREFIX_PART = String.raw`"[^"\\]*"|'[^'\\]*'|/\*[^*]*\*/`;

/** The JavaScript statement words a member signature (`name(...): T;`) is refused under; `new`, `delete`, `with`, `catch`, `throw`, `finally` and `until` name members. */
const TS_SIGNATURE_NOT_NAMES: ReadonlySet<string> = new Set(['if', 'else', 'for', 'while', 'do', 'switch', 'case', 'try', 'return', 'typeof', 'instanceof', 'await', 'yield', 'super', 'this', 'function', 'import', 'export']);

const typescript = language({
  id: 'typescript',
  names: ['TypeScript', 'JavaScript'],
  extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
  rules: () => [
    { re: re(String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function(?:\s*\*\s*|\s+)(?<name>{JSID})`), hint: ['function'], kind: 'function', scope: 'block' },
    { re: re(String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+(?<name>{JSID})`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*(?:export\s+)?(?:declare\s+)?interface\s+(?<name>{JSID})`), hint: ['interface'], kind: 'interface', scope: 'class' },
    // `type X<` opens its type parameters, which may go on on the next lines (`export type X<\n  T,\n> = ...`).
    { re: re(String.raw`^\s*(?:export\s+)?(?:declare\s+)?type\s+(?<name>{JSID})\s*(?:<.*>\s*=|<|=)`), hint: ['type'], kind: 'typeParameter' },
    { re: re(String.raw`^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+(?<name>{JSID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*(?:export\s+)?(?:declare\s+)?namespace\s+(?<name>{JSID}(?:\.{JSID})*)`), hint: ['namespace'], kind: 'namespace', scope: 'block' },
    { re: re(String.raw`^\s*(?:export\s+)?declare\s+module\s+(?<name>{JSID}(?:\.{JSID})*)`), hint: ['module'], kind: 'module', scope: 'block' },
    // Class expressions `var X = class X {` (bundlers write classes so) and prototype methods `A.prototype.m = function`.
    { re: re(String.raw`^\s*(?:export\s+)?(?:const|let|var)\s+(?<name>{JSID})\s*=\s*class\b`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*(?<owner>{JSID})\.prototype\.(?<name>{JSID})\s*=\s*(?:async\s+)?function\b`), hint: ['prototype'], kind: 'method' },
    // Function values (CommonJS and bundler style): `exports.f = function (`, `var f = function (` at any depth, and a named
    // function expression wherever it opens its body (`return function name(`, `x.on("e", function name() {`): its own name,
    // which stack traces show (a class field `f = function f(` is a method). Not inside a string or in a comment line (`// function f() {`, ` * function f() {`).
    { re: re(String.raw`^\s*(?:{JSID}\.)+(?<name>{JSID})\s*=\s*(?:async\s+)?function\s*(?:\*\s*)?\(`), hint: ['function'], kind: 'function', scope: 'block' },
    { re: re(String.raw`^\s+(?:const|let|var)\s+(?<name>{JSID})\s*=\s*(?:async\s+)?function\b`), hint: ['function'], kind: 'function', scope: 'block' },
    // Object literals bound to a name (`const def = {`): their methods (`code(cxt) {`) are members; an indented one only names them.
    { re: re(String.raw`^(?:export\s+)?const\s+(?<name>{JSID})\s*(?::[^=]+)?=\s*\{\s*$`), hint: ['const'], kind: 'constant', scope: 'class', topLevel: true },
    { re: re(String.raw`^(?:export\s+)?(?:let|var)\s+(?<name>{JSID})\s*(?::[^=]+)?=\s*\{\s*$`), hint: ['let', 'var'], kind: 'variable', scope: 'class', topLevel: true },
    { re: re(String.raw`^\s+(?:const|let|var)\s+(?<owner>{JSID})\s*(?::[^=]+)?=\s*\{\s*$`), hint: ['const', 'let', 'var'], kind: 'class', scopeOnly: true },
    {
      re: re(String.raw`^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+(?<name>{JSID})\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^()]*\)|{JSID})\s*(?::[^=]+)?=>)`), hint: ['='],
      kind: 'function',
      topLevel: true,
    },
    { re: re(String.raw`^(?:export\s+)?(?:declare\s+)?const\s+(?<name>{JSID})\s*[:=]`), hint: ['const'], kind: 'constant', topLevel: true },
    { re: re(String.raw`^(?:export\s+)?(?:declare\s+)?(?:let|var)\s+(?<name>{JSID})\s*[:=;]`), hint: ['let', 'var'], kind: 'variable', topLevel: true },
    // After the bindings: `export const x = 1; export function f() {}` names x. The lookahead first: the build tries
    // this rule on most lines, and a scan for the word is quicker than the lazy walk over the line.
    {
      re: re(String.raw`^\s*(?=[^\n]*?function)(?:(?:[^'"\x60/*\s]|${JS_PREFIX_PART})(?:[^'"\x60/]|${JS_PREFIX_PART})*?[^\w$.'"\x60/])?(?:async\s+)?function\s*(?:\*\s*)?(?<name>{JSID})\s*\((?:[^()]|\([^()]*\))*\)\s*\{`),
      hint: ['function'],
      kind: 'function',
      inClass: 'method',
      scope: 'block',
    },
    // Class members: methods `name(args) {` and arrow-function fields `name = (args) =>`.
    // Parameters may hold one level of parentheses (`a = new M()`, `f: () => any`): a call ending in a callback (`run(function () {`) has no closing one.
    // A generator's `*` touches its name (`*gen() {`): ` * init(a) { }` is a JSDoc line.
    { re: re(String.raw`^\s+${TS_MODS}\*?(?<name>#?{JSID})\s*(?:<[^()]*>)?\s*\((?:[^()]|\([^()]*\))*\)\s*(?::[^;{]*)?\{\s*(?:\}\s*)?$`), hint: ['('], kind: 'method', member: true, shape: true },
    // Member signatures of interfaces, declare classes and abstract or overloaded methods: `name?<T>(params): Type;` (the return type tells them from a call statement).
    // Statement words never take this shape but for `with`, `catch`, `throw` and `until`, which are method names here (`with(index: number, value: T): this;`).
    { re: re(String.raw`^\s+${TS_MODS}(?<name>#?{JSID})\??\s*(?:<.*>)?\s*\(.*\)\s*:.*;\s*$`), hint: [';'], kind: 'method', member: true, shape: true, notNames: TS_SIGNATURE_NOT_NAMES },
    { re: re(String.raw`^\s+(?:(?:public|private|protected)\s+)?(?<name>constructor)\s*\(.*\)\s*;\s*$`), hint: ['constructor'], kind: 'method', member: true },
    { re: re(String.raw`^\s+${TS_MODS}(?<name>#?{JSID})\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^()]*\)|{JSID})\s*(?::[^=]+)?=>`), hint: ['=>'], kind: 'method', member: true, shape: true },
  ],
});

const python = language({
  id: 'python',
  names: ['Python'],
  extensions: ['py', 'pyi', 'pyw'],
  multiLineStrings: 'python',
  rules: () => [
    { re: re(String.raw`^\s*(?:async\s+)?def\s+(?<name>{ID})`), hint: ['def'], kind: 'function', inClass: 'method', scope: 'block' },
    { re: re(String.raw`^\s*class\s+(?<name>{ID})`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^(?<name>[A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=(?!=)`), hint: ['='], kind: 'constant', topLevel: true },
    // Module-level variables in any case (ctags and Python language servers list them), also as a clause's one-line body (`try: x = 1`: `x`, never `try`).
    { re: re(String.raw`^(?:(?:try|else|finally|except)\s*:\s*)?(?!(?:try|except|else|finally)\s*:)(?<name>{ID})\s*(?::[^=]+)?=(?!=)`), hint: ['='], kind: 'variable', topLevel: true },
  ],
});

const RUST_VIS = String.raw`(?:pub(?:\s*\([^)]*\))?\s+)?`;
const rust = language({
  id: 'rust',
  names: ['Rust'],
  extensions: ['rs'],
  rules: () => [
    {
      re: re(String.raw`^\s*(?:#\[[^\]]*\]\s*)*${RUST_VIS}(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:(?:unsafe|safe)\s+)?(?:extern\s+(?:"[^"]*"\s+)?)?fn\s+(?<name>{ID})`), hint: ['fn'],
      kind: 'function',
      inClass: 'method',
      scope: 'block',
    },
    { re: re(String.raw`^\s*${RUST_VIS}(?:struct|union)\s+(?<name>{ID})`), hint: ['struct', 'union'], kind: 'struct', scope: 'class' },
    { re: re(String.raw`^\s*${RUST_VIS}enum\s+(?<name>{ID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${RUST_VIS}(?:const\s+)?(?:unsafe\s+)?(?:auto\s+)?trait\s+(?<name>{ID})`), hint: ['trait'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*${RUST_VIS}type\s+(?<name>{ID})`), hint: ['type'], kind: 'typeParameter' },
    // Not a const generic parameter on a line of its own (`const N: usize,`), nor `const _: () = assert!(...)`.
    { re: re(String.raw`^\s*${RUST_VIS}(?:const|static)\s+(?:mut\s+)?(?<name>(?!_\b){ID})\s*:(?![^=;]*,\s*$)`), hint: ['const', 'static'], kind: 'constant' },
    { re: re(String.raw`^\s*${RUST_VIS}mod\s+(?<name>{ID})`), hint: ['mod'], kind: 'module', scope: 'block' },
    { re: re(String.raw`^\s*(?:#\[macro_export\]\s*)?macro_rules!\s*(?<name>{ID})`), hint: ['macro_rules'], kind: 'function' },
    { re: re(String.raw`^\s*(?:unsafe\s+)?impl(?:\s*<.*?>)?\s+(?:.*?\s+for\s+)?(?:[\w:]+::)?(?<owner>{ID})`), hint: ['impl'], kind: 'class', scopeOnly: true },
  ],
});

const go = language({
  id: 'go',
  names: ['Go'],
  extensions: ['go'],
  multiLineStrings: 'backtick',
  declarationGroups: true,
  rules: () => [
    { re: re(String.raw`^func\s*\(\s*(?:{ID}\s+)?\*?\s*(?<owner>{ID})(?:\[[^\]]*\])?\s*\)\s*(?<name>{ID})`), hint: ['func'], kind: 'method', scope: 'block' },
    { re: re(String.raw`^func\s+(?<name>{ID})`), hint: ['func'], kind: 'function', scope: 'block' },
    { re: re(String.raw`^\s*type\s+(?<name>{ID})(?:\[[^\]]*\])?\s+struct\b`), hint: ['struct'], kind: 'struct', scope: 'class' },
    { re: re(String.raw`^\s*type\s+(?<name>{ID})(?:\[[^\]]*\])?\s+interface\b`), hint: ['interface'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*type\s+(?<name>{ID})`), hint: ['type'], kind: 'typeParameter' },
    { re: re(String.raw`^const\s+(?<name>{ID})`), hint: ['const'], kind: 'constant' },
    { re: re(String.raw`^var\s+(?<name>(?!_\b){ID})`), hint: ['var'], kind: 'variable' },
  ],
});

/** `(params) const { return x; }`: a definition with its body on the same line. */
const ONE_LINE_BODY = String.raw`[^;{]*\)[^;{]*\{.*\}\s*$`;
const C_SPEC = String.raw`(?:(?:static|inline|extern|virtual|explicit|constexpr|consteval|friend|const|unsigned|signed|volatile|__inline|__forceinline)\s+)*`;

// C/C++ header pieces shared by the rules and the prefilter (no backreferences, ASCII classes,
// `[ \t]` for blanks). A parameter list counts as a declaration's when it is empty, `void`, or has a
// `type name` or a `type*`/`type&` before its first nested parenthesis: a call's arguments
// (`Msg(Msg)`, `run(a, b)`, `f(&x)`, `executor([](int x) {`) never do. Every repetition is
// unambiguous (disjoint alternatives, words ended by \b) so that irregexp never backtracks
// exponentially; where JavaScript tests "has a declaration" with a lookahead, ripgrep (no
// lookaround, but automata) gets the same language spelled out (`C_PARAMS_RG`).
const C_DECL_MARK = String.raw`[A-Za-z_0-9>\]][ \t*&]+(?:\.\.\.[ \t]*)?[A-Za-z_]|[A-Za-z_0-9>\]][ \t]*[*&]|\.\.\.[ \t]*[A-Za-z_]`;
const C_PARAM_CHARS = String.raw`(?:[^()"';{}]|\{\}|\([^()]*\))`;
const C_EMPTY_PARAMS = String.raw`\([ \t]*(?:void[ \t]*)?\)`;
/** A whole parameter list of a declaration, and the start of one that goes on on the next line (`(T a, U b,`). */
const C_PARAMS = String.raw`(?:${C_EMPTY_PARAMS}|\((?=[^()]*?(?:${C_DECL_MARK}))${C_PARAM_CHARS}*\))`;
const C_PARAMS_OPEN = String.raw`\((?=[^()]*?(?:${C_DECL_MARK}))${C_PARAM_CHARS}*,[ \t]*$`;
const C_DECL_PREFIX_RG = String.raw`(?:[^()"';{}]|\{\})*?(?:${C_DECL_MARK})`;
const C_PARAMS_RG = String.raw`(?:${C_EMPTY_PARAMS}|\(${C_DECL_PREFIX_RG}${C_PARAM_CHARS}*\))`;
const C_PARAMS_OPEN_RG = String.raw`\(${C_DECL_PREFIX_RG}${C_PARAM_CHARS}*,[ \t]*$`;
/** Operators' parameter lists are any balanced ones (`operator++(int)`). */
const C_ANY_PARAMS = String.raw`\((?:[^()]|\([^()]*\))*\)`;
const C_ANY_PARAMS_OPEN = String.raw`\((?:[^()]|\([^()]*\))*,[ \t]*$`;
const C_PAREN_ARG = String.raw`(?:[ \t]*\((?:[^()]|\([^()]*\))*\))?`;
/** What may follow a header's parameters: qualifiers, exception specifications, macros (`_GLIBCXX_NOEXCEPT`), `= 0`-less; then a trailing return type and `requires`. */
const C_QUALS = String.raw`(?:[ \t]*(?:(?:const|volatile|override|final|noexcept|throw|_*[A-Z][A-Z0-9_]*)\b${C_PAREN_ARG}|&&?))*(?:[ \t]*->[ \t]*[^;{}=]*[^;{}=, \t])?(?:[ \t]+requires[ \t][^;{]*)?`;
/** The end of a header line: nothing (the body or the initialisers follow), the body, or the initialisers. */
const C_TAIL = String.raw`[ \t]*(?:\{.*|:|:[^:].*)?$`;
/** `operator+=`, `operator()`, `operator[]`, `operator""_ms`, `operator new[]`, `operator bool`, `operator Foo<T>*`. */
const C_OPERATOR = String.raw`operator[ \t]*(?:\(\)|\[\]|""[ \t]*[A-Za-z_]\w*|(?:new|delete)(?:[ \t]*\[\])?|->\*?|[-+*/%^&|~!=<>,]+|[A-Za-z_][\w:]*(?:<[^()]*>)?[ \t*&]*)`;
/** The template arguments of an explicit specialisation between a function's name and its parameters (`pcast<Packet8s, Packet16c>(`). */
const C_EXPLICIT_ARGS = String.raw`(?:[ \t]*<[^();{}]*>)?`;
/** After a typed header's `(`: the body opening at the line's end, or the whole body on the line. */
const C_TYPED_TAIL = String.raw`(?:[^;]*\{[ \t]*\}?[ \t]*$|[^;{]*\)[^;{]*\{.*\}[ \t]*$)`;
/** The end of a header line whose body opens on a later line (a trailing comment allowed). */
const C_LATER_BODY = String.raw`[ \t]*(?:[/][/].*)?$`;
/** Owners of an out-of-line member before the last one: `A::` in `A::B<T>::m`. */
const C_OWNERS = String.raw`(?:[A-Za-z_]\w*(?:<[^()]*>)?::)*`;
/** Words before a header with no return type (constructors, conversion operators). */
const C_CTOR_SPEC = String.raw`(?:(?:explicit|virtual|constexpr|consteval|inline|friend)[ \t]+)*`;
/** Not a macro (`__REDIRECT_NTH (stat, ...)`, `_GLIBCXX_DEPRECATED_SUGGEST("x")`: two or more capitals, digits, `_`; a one-letter name such as `A()` is a function's) nor a C++20 `requires (...)` clause (a Java method may be named so). */
const NOT_MACRO = String.raw`(?!(?:_*[A-Z][A-Z0-9_]+|_+[A-Z]|requires)\b)`;
/** `[[deprecated]]`, `alignas(8)`, `__attribute__((x))` between `class`/`struct` and the name. */
const C_ATTRS = String.raw`(?:\[\[[^\]]*\]\]\s*|alignas\s*\([^)]*\)\s*|__attribute__\s*\(\([^)]*\)\)\s*)*`;
/** Template arguments of a specialisation (`struct hash<T*>`). */
const C_SPECIALISATION = String.raw`(?:\s*<.*>|\s*<[^>]*$)?`;
/** The owners of a nested class defined outside its owner (`class locale::_Impl`): the last name is the class. */
const C_QUALIFIED = String.raw`(?:{ID}(?:<[^<>]*>)?::)*`;
/** Words a C/C++ shape rule refuses as a name: statements, operators spelled as words, and type keywords (`asm volatile(`, `bool (isnan)(const half& a)`). */
const C_NOT_NAMES: ReadonlySet<string> = new Set([
  'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'catch', 'try', 'return', 'throw', 'new', 'delete', 'sizeof', 'alignof', 'typeof', 'decltype',
  'static_assert', 'noexcept', 'alignas', '__attribute__', '__catch', '__try', 'defined', 'constexpr', 'explicit', 'operator', 'using', 'co_return', 'co_await', 'co_yield',
  'goto', 'asm', '__asm', '__asm__', 'volatile', '__volatile__', 'const', 'void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', 'auto',
]);
const cpp = language({
  id: 'cpp',
  names: ['C', 'C++'],
  extensions: ['c', 'h', 'cc', 'cpp', 'cxx', 'c++', 'hh', 'hpp', 'hxx', 'h++', 'inl', 'ipp', 'tcc'],
  rules: () => [
    { re: re(String.raw`^\s*(?:template\s*<.*>\s*)?(?:typedef\s+)?(?:struct|union)\s+${C_ATTRS}(?:\w+\s+(?!final\b))?${C_QUALIFIED}(?<name>{ID})${C_SPECIALISATION}\s*(?:final\s*)?(?:[:{]|$)`), hint: ['struct', 'union'], kind: 'struct', scope: 'class' },
    { re: re(String.raw`^\s*(?:template\s*<.*>\s*)?class\s+${C_ATTRS}(?:\w+\s+(?!final\b))?${C_QUALIFIED}(?<name>{ID})${C_SPECIALISATION}\s*(?:final\s*)?(?:[:{]|$)`), hint: ['class'], kind: 'class', scope: 'class' },
    // A definition (`{`, a base type, or the line's end), not a use (`enum E x;`) or an opaque declaration (`enum class byte : unsigned char;`).
    { re: re(String.raw`^\s*(?:typedef\s+)?enum\s+(?:class\s+|struct\s+)?${C_ATTRS}(?<name>{ID})\s*(?::[^;{]*)?(?:\{.*)?$`), hint: ['enum'], kind: 'enum', scope: 'class' },
    // `namespace a::b::c {` and `namespace a { namespace b {` define each name, each in the one before (as ctags has them).
    {
      re: re(String.raw`^\s*(?:inline\s+)?namespace\s+(?<name>{ID})`),
      hint: ['namespace'],
      kind: 'namespace',
      scope: 'block',
      then: new RegExp(String.raw`(?:::|[ \t]*\{[ \t]*(?:inline[ \t]+)?namespace[ \t]+)(${ID})`, 'y'),
    },
    { re: re(String.raw`^\s*#\s*define\s+(?<name>{ID})\(`), hint: ['define'], kind: 'function' },
    { re: re(String.raw`^\s*#\s*define\s+(?<name>{ID})`), hint: ['define'], kind: 'constant' },
    // Function-pointer typedefs name `(*Name)` or `(MACRO Name)`, not their return type; macro-wrapped types (`STACK_OF(X) Name;`).
    { re: re(String.raw`^\s*typedef\s+[^;()]*\(\s*(?:{ID}\s+)?\*?\s*(?<name>{ID})\s*\)\s*\(`), hint: ['typedef'], kind: 'typeParameter' },
    // The same with the parameters on the next line: `(*Name)` then (not `STACK_OF(X509)`, a macro-wrapped type).
    { re: re(String.raw`^\s*typedef\s+[^;()]*\(\s*(?:{ID}\s*)?\*\s*(?<name>{ID})\s*\)\s*$`), hint: ['typedef'], kind: 'typeParameter' },
    { re: re(String.raw`^\s*typedef\s+[^;]*?[\s*)](?<name>{ID})\s*;\s*(?:[/][/*].*)?$`), hint: ['typedef'], kind: 'typeParameter' },
    // The name after the closing brace of `typedef struct {...} Name;` (the first of `} Name, *PName;`).
    { re: re(String.raw`^\s*\}\s*(?<name>{ID})\s*[;,]`), hint: ['}'], kind: 'typeParameter', shape: true },
    // `using Name = T;`, also with the type on the next line.
    { re: re(String.raw`^\s*using\s+(?<name>{ID})\s*(?:=|$)`), hint: ['using'], kind: 'typeParameter' },
    // A header with no return type on its line: GNU style (the type on the line above), constructors,
    // destructors, conversion operators, out-of-line members of `A::B::` and `A<T>::` owners.
    {
      re: re(String.raw`^\s*${C_CTOR_SPEC}(?:${C_OWNERS}(?<owner>{ID})(?:<[^()]*>)?::)?(?<name>${C_OPERATOR}(?=\()|${NOT_MACRO}~?{ID})\s*(?:${C_PARAMS}${C_QUALS}${C_TAIL}|${C_PARAMS_OPEN}|(?<=operator\S*\s*)(?:${C_ANY_PARAMS}${C_QUALS}${C_TAIL}|${C_ANY_PARAMS_OPEN}))`),
      hint: ['('],
      kind: 'function',
      inClass: 'method',
      withOwner: 'method',
      ctorByName: true,
      scope: 'block',
      shape: true,
      notNames: C_NOT_NAMES,
    },
    // Out-of-line methods `Type Class::name(` and constructors `Class::Class(`.
    { re: re(String.raw`^\s*(?:[\w:<>,*&~]+\s+[*&]*)*${C_OWNERS}(?<owner>{ID})(?:<[^()]*>)?::(?<name>${C_OPERATOR}(?=[ \t]*\()|~?{ID})\s*\((?:[^;]*$|${ONE_LINE_BODY})`), hint: ['::'], kind: 'method', ctorByName: true, shape: true, notNames: C_NOT_NAMES, scope: 'block' },
    // Functions and inline methods: a return type, then the name and a parameter list not followed by `;`; the word before
    // the name does not end with `,` (`c2, pdiv(` is a call's arguments going on).
    { re: re(String.raw`^\s*${C_SPEC}(?:(?!operator\b)[\w:<>,]+[\s*&]+)*(?!operator\b)[\w:<>,]*[\w:<>][\s*&]+(?<name>${C_OPERATOR}(?=[ \t]*\()|${NOT_MACRO}~?{ID})${C_EXPLICIT_ARGS}\s*\((?:[^;]*$|${ONE_LINE_BODY})`), hint: ['('], kind: 'function', inClass: 'method', scope: 'block', shape: true, notNames: C_NOT_NAMES },
  ],
});

const JAVA_MODS = String.raw`(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp|synchronized|native|default|transient|volatile)\s+|@{ID}(?:\([^)]*\))?\s+)*`;
/** Words that start Java statements: never a return type or a field's type. */
const JAVA_NOT_TYPE = String.raw`(?!(?:return|throw|new|else|case|yield|assert|break|continue|goto)\b)`;
/** Statement words that take a header's shape in Java; any other name is a method's, however it reads elsewhere (`lock`, `print`, `with`, `await`). */
const JAVA_NOT_NAMES: ReadonlySet<string> = new Set(['if', 'for', 'while', 'switch', 'catch', 'try', 'synchronized', 'return', 'throw', 'new', 'else', 'do', 'super', 'this', 'assert', 'yield', 'case', 'finally']);
/** Parameters going on on the next line, the last one on this line typed (`(T a, U b,`): a call's arguments are not. */
const JAVA_PARAMS_OPEN = String.raw`[^;{}()=]*[\w>\]][ \t]+[A-Za-z_$][\w$]*[ \t]*,[ \t]*(?:[/][/].*)?`;
const java = language({
  id: 'java',
  names: ['Java'],
  extensions: ['java'],
  rules: () => [
    { re: re(String.raw`^\s*${JAVA_MODS}(?:class|record)\s+(?<name>{ID})`), hint: ['class', 'record'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*${JAVA_MODS}@?interface\s+(?<name>{ID})`), hint: ['interface'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*${JAVA_MODS}enum\s+(?<name>{ID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${JAVA_MODS}static\s+final\s+[\w<>\[\],.?\s]+?\s+(?<name>[A-Z][A-Z0-9_]*)\s*=`), hint: ['final'], kind: 'constant' },
    // Methods and constructors open a block, so that the statements of their bodies are never members.
    { re: re(String.raw`^\s*(?:(?:public|protected|private)\s+)(?<name>{ID})\s*\((?:[^;]*$|[^;{]*\)\s*\{.*\}\s*;?\s*(?:[/][/].*)?$)`), hint: ['('], kind: 'constructor', member: true, shape: true, notNames: JAVA_NOT_NAMES, scope: 'block' },
    // A package-private constructor: `Name(params) {` named as its class (anything else of that shape is no Java member),
    // also with a comment after the `{`, or its whole body on the line (`Console() {}`).
    { re: re(String.raw`^\s+(?<name>{ID})\s*\([^;]*\)\s*(?:throws\s+[^;{]*)?(?:\{\s*(?:[/][/].*)?|\{.*\}\s*;?\s*(?:[/][/].*)?)$`), hint: ['('], kind: 'method', member: true, ctorByName: true, shape: true, notNames: JAVA_NOT_NAMES, scope: 'block' },
    // The same, its `{` on a later line (Allman style) or its parameters going on there; capitalised, as class names are (a call is not).
    { re: re(String.raw`^\s+(?<name>[A-Z][\w$]*)\s*\((?:[^;{}]*\)\s*(?:throws\s+[^;{]*)?(?:[/][/].*)?|${JAVA_PARAMS_OPEN}|\s*)$`), hint: ['('], kind: 'method', member: true, ctorByName: true, shape: true, notNames: JAVA_NOT_NAMES, scope: 'block' },
    {
      // The header ends the line (the body follows), holds the whole one-line body, or ends in `;` (abstract, interface, native).
      re: re(String.raw`^\s*${JAVA_MODS}(?:<.*?>\s*)?${JAVA_NOT_TYPE}[\w<>\[\],.?]+(?:\s*<[^=;]*>)?(?:\s*\[\])*\s+(?<name>{ID})\s*\((?:[^;=]*$|[^;{]*\)[^;{]*\{.*\}\s*(?:[/][/].*)?$|[^;={]*\)\s*(?:throws\s+[^;={]*)?;\s*$)`), hint: ['('],
      kind: 'method',
      member: true,
      shape: true,
      notNames: JAVA_NOT_NAMES,
      scope: 'block',
    },
    // UPPER_CASE fields (constants by convention) with any modifiers or none (interface constants), initialised later or on the next line.
    { re: re(String.raw`^\s+${JAVA_MODS}${JAVA_NOT_TYPE}[\w.]+(?:<.*>)?(?:\s*\[\])*\s+(?<name>[A-Z][A-Z0-9_]*)(?:\s*\[\])*\s*(?:[=;,]|$)`), hint: [''], kind: 'constant', member: true },
    // The declarators after the first of a list (`static final byte\n    A = 0,\n    B = 1;`) that the list goes on after (`,`): the last one
    // (`B = 1;`) is left out, as it reads like an assignment in a static block.
    {
      re: re(String.raw`^\s+(?<name>[A-Z][A-Z0-9_]*)\s*=\s*(?:(?:[^;=(){}"]|\([^()]*\))*,\s*(?:[/][/].*)?)$`),
      hint: ['='],
      kind: 'constant',
      member: true,
    },
  ],
});

const KT_MODS = String.raw`(?:(?:public|private|protected|internal|open|abstract|sealed|data|annotation|inner|value|inline|expect|actual|final|override|suspend|operator|infix|tailrec|external|lateinit|companion)\s+|@{ID}(?:\([^)]*\))?\s+)*`;
const kotlin = language({
  id: 'kotlin',
  names: ['Kotlin'],
  extensions: ['kt', 'kts'],
  multiLineStrings: 'triple',
  rules: () => [
    { re: re(String.raw`^\s*${KT_MODS}enum\s+class\s+(?<name>{ID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${KT_MODS}(?:fun\s+)?interface\s+(?<name>{ID})`), hint: ['interface'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*${KT_MODS}class\s+(?<name>{ID})`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*${KT_MODS}object\s+(?<name>{ID})`), hint: ['object'], kind: 'object', scope: 'class' },
    // Extension functions by name, whatever their receiver (`fun <P0, P1> Handle2<P0, P1>.handle(`).
    { re: re(String.raw`^\s*${KT_MODS}fun\s+(?:<[^>]*>\s*)?(?:{ID}(?:<[^()=]*?>)?\??\.)*(?<name>{ID})\s*\(`), hint: ['fun'], kind: 'function', inClass: 'method', scope: 'block' },
    { re: re(String.raw`^\s*${KT_MODS}typealias\s+(?<name>{ID})`), hint: ['typealias'], kind: 'typeParameter' },
    { re: re(String.raw`^\s*${KT_MODS}const\s+val\s+(?<name>{ID})`), hint: ['const'], kind: 'constant' },
    // Top-level properties, also extension properties (`val Foo<T>.bar: Int`, named `bar`).
    { re: re(String.raw`^${KT_MODS}(?:val|var)\s+(?:<[^>]*>\s*)?(?:{ID}(?:<[^=]*>)?\??\.)*(?<name>{ID})`), hint: ['val', 'var'], kind: 'variable', topLevel: true },
  ],
});

const CS_MODS = String.raw`(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|async|extern|unsafe|new|partial|readonly|ref|file|required|volatile)\s+|\[[^\]]*\]\s*)*`;
/** Type arguments, nested up to four levels, with blanks, tuples and arrays inside (`<string, List<(int, T[])>>`). */
const CS_GEN_INNER = String.raw`<(?:[^<>;={}()]|\([^()<>;={}]*\)|<(?:[^<>;={}()]|\([^()<>;={}]*\)|<[^<>;={}()]*>)*>)*>`;
const CS_GEN = String.raw`<(?:[^<>;={}()]|\([^()<>;={}]*\)|${CS_GEN_INNER})*>`;
/**
 * A type (C# grammar's `type`): a name, qualified (`A.B`, `global::A`), with type arguments, or a tuple
 * `(int a, string b)` (two elements at least: `(int) F(x);` is a cast); then `?`, `*` and array ranks `[]`, `[,]`. Not a statement word (`return Foo(a);`,
 * `await x.F(a);`, `else F();`, LINQ's `where x.F(y)`): the prefilter passes such lines for other shapes.
 */
const CS_TYPE = String.raw`(?!(?:return|new|throw|await|yield|else|case|goto|using|var|where|select|from|let|orderby|group|join|in|is|as|and|or|not|default|typeof|nameof|sizeof|checked|unchecked|lock|fixed|if|while|for|foreach|switch|do|try|catch|finally|break|continue|out|params|this|base|event|delegate|operator|implicit|explicit|const|class|struct|interface|enum|record|namespace)\b)(?:{ID}(?:${CS_GEN})?(?:(?:\.|::){ID}(?:${CS_GEN})?)*|\((?:[^(),]|\([^()]*\))*,(?:[^()]|\([^()]*\))*\))(?:\s*(?:\?|\*|\[[\s,]*\]))*`;
/** Blanks between a type and a name, block comments among them (`IntPtr /* OrtStatus* *\/ Create(`). */
const CS_SEP = String.raw`(?:\s|/\*(?:[^*]|\*(?!/))*\*/)+`;
/** An explicit interface member's name (`IList.Add`, as ctags names it), or its generic interface left out of it (`IList<T>.IndexOf` names `IndexOf`). */
const CS_MEMBER_NAME = String.raw`(?:(?:{ID}\.)*{ID}${CS_GEN}\.)?(?<name>(?:{ID}\.)*{ID})`;
/** A parameter list closed on the line, parentheses nested twice (`default(T)`, `[Attr("x")]`, tuples). */
const CS_PARAMS = String.raw`\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)`;
/** Constraints after the parameters: `where T : class, new()`. */
const CS_WHERE = String.raw`(?:\s*where\s(?:[^;{}=()]|\(\s*\))*)?`;
/** What ends a header's line: a body (`{`, `=> x;`), its `{` on the next line (a comment may follow), `;` (interfaces, abstract, extern, partial). */
const CS_HEADER_END = String.raw`\s*(?:\{.*|=>.*|;\s*(?:/[/*].*)?|/[/*].*)?$`;
/** The parameters closed and the header's end, or going on on the next line (after `(`, a `,`, a parameter). */
const CS_METHOD_TAIL = String.raw`\s*(?:${CS_GEN})?\s*(?:${CS_PARAMS}${CS_WHERE}${CS_HEADER_END}|\((?:[^()]|\([^()]*\))*,\s*(?:/[/*].*)?$|\([^;=()]*$)`;
const csharp = language({
  id: 'csharp',
  names: ['C#'],
  extensions: ['cs', 'csx'],
  rules: () => [
    { re: re(String.raw`^\s*(?:inline\s+)?namespace\s+(?<name>{ID}(?:\.{ID})*)`), hint: ['namespace'], kind: 'namespace', scope: 'block' },
    { re: re(String.raw`^\s*${CS_MODS}(?:class|record(?:\s+class)?)\s+(?<name>{ID})`), hint: ['class', 'record'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*${CS_MODS}(?:struct|record\s+struct)\s+(?<name>{ID})`), hint: ['struct'], kind: 'struct', scope: 'class' },
    { re: re(String.raw`^\s*${CS_MODS}interface\s+(?<name>{ID})`), hint: ['interface'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*${CS_MODS}enum\s+(?<name>{ID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${CS_MODS}const\s+${CS_TYPE}\s+(?<name>{ID})\s*=`), hint: ['const'], kind: 'constant' },
    // Constructors: modifiers (not a type: `static (int, uint) F(` is a method), the name, parameters, an initialiser `: base(x)`.
    {
      re: re(String.raw`^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|extern|unsafe)\s+)+(?!(?:public|private|protected|internal|static|extern|unsafe|virtual|override|abstract|sealed|async|new|partial|readonly|ref|file|required|volatile)\b)(?<name>{ID})\s*(?:${CS_PARAMS}\s*(?::\s*(?:base|this)\s*\(.*|\{.*|=>.*|/[/*].*)?$|\([^;]*$)`), hint: ['('],
      kind: 'constructor',
      member: true,
      shape: true,
    },
    // Destructors (`~Name()`), as ctags names them.
    { re: re(String.raw`^\s*(?:extern\s+)?(?<name>~{ID})\s*\(\s*\)`), hint: ['~'], kind: 'method', member: true },
    // Delegates (types), a `ref` or commented return type too; and operators under their full name (`operator !=`, `implicit operator JSValue`).
    { re: re(String.raw`^\s*${CS_MODS}delegate\s+(?:ref\s+(?:readonly\s+)?)?${CS_TYPE}${CS_SEP}(?<name>{ID})\s*(?:<|\()`), hint: ['delegate'], kind: 'typeParameter' },
    { re: re(String.raw`^\s*${CS_MODS}(?:(?:implicit|explicit)\s+|${CS_TYPE}\s+)(?<name>operator\s*(?:[-+*/%^&|~!=<>]+|true|false|{ID}))\s*\(`), hint: ['operator'], kind: 'method', member: true },
    // Events, field-like (`event Action E;`) or with accessors (`{` here or on the next line).
    { re: re(String.raw`^\s*${CS_MODS}event\s+${CS_TYPE}\s+${CS_MEMBER_NAME}\s*(?:[;={,]|/[/*]|$)`), hint: ['event'], kind: 'property', member: true },
    // Methods: a type (generic, tuple, array, pointer, `ref`), the name (`IList.Add` for an explicit interface member), type
    // parameters, then parameters closed on the line (defaults, attributes) and the header's end, or going on.
    { re: re(String.raw`^\s*${CS_MODS}${CS_TYPE}${CS_SEP}${CS_MEMBER_NAME}${CS_METHOD_TAIL}`), hint: ['('], kind: 'method', member: true, shape: true },
    // Properties: accessors on the line (`{ get; }`, `{ private set; }`, `{ [Attr] get`), an expression body (`=> x;`), or a body
    // on the next line: modifiers (or an explicit interface's name), a type and the name ending the line (a field ends in `;`).
    { re: re(String.raw`^\s*${CS_MODS}${CS_TYPE}\s+${CS_MEMBER_NAME}\s*\{\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal)\s+)*(?:get|set|init)\b`), hint: ['get', 'set', 'init'], kind: 'property', member: true, shape: true },
    { re: re(String.raw`^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|new|readonly|required|unsafe|extern)\s+)+(?:\[[^\]]*\]\s*)*${CS_TYPE}\s+(?<name>{ID})\s*(?:=>|\{\s*(?:/[/*].*)?$|(?:/[/*].*)?$)`), hint: [' '], kind: 'property', member: true, shape: true },
    // Explicit interface indexers (`object IList.this[int index]`, named as ctags names them; other indexers name no symbol).
    { re: re(String.raw`^\s*${CS_TYPE}\s+(?<name>(?:{ID}\.)+this)\s*\[`), hint: ['this'], kind: 'property', member: true },
    { re: re(String.raw`^\s*${CS_TYPE}\s+(?=[^(=;{]*\.)${CS_MEMBER_NAME}\s*(?:=>|\{|(?:/[/*].*)?$)`), hint: ['.'], kind: 'property', member: true, shape: true },
  ],
});

/** After a Ruby constant's `=`: not a template's interpolation or Make variable (the ruby rules). */
const RUBY_NOT_TEMPLATE = String.raw`(?![ \t]*(?:#[{$@]|\$\())`;

const ruby = language({
  id: 'ruby',
  names: ['Ruby'],
  extensions: ['rb', 'rake', 'gemspec', 'rbw'],
  regions: 'ruby',
  rules: () => [
    // `private def m`, `def self.m`, `def self::m`, `def Const.m` and `def Const::m` (Const names the container); `self` is no name (`def self.#{name}` in a string).
    { re: re(String.raw`^\s*(?:(?:private|protected|public)\s+)?def\s+(?:self(?:\.|::)|(?<owner>{ID})(?:\.|::))?(?<name>(?!self\b){ID}[?!=]?|[-+*/%<>=!~^&|\[\]]+)`), hint: ['def'], kind: 'method', scope: 'block' },
    { re: re(String.raw`^\s*class\s+(?:(?<owner>{ID}(?:::{ID})*)::)?(?<name>{ID})`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*module\s+(?:(?<owner>{ID}(?:::{ID})*)::)?(?<name>{ID})`), hint: ['module'], kind: 'module', scope: 'class' },
    // A value starting with an interpolation (`#{x}`, `#$x`, `#@x`: a comment in code) or Make's `$(X)` (no Ruby
    // global) is a line of a template in a string spanning lines (mkmf.rb's Makefile, `CC = #{CONFIG['CC']}`).
    { re: re(String.raw`^\s*(?<name>[A-Z][A-Z0-9_]*)\s*=(?![=~])${RUBY_NOT_TEMPLATE}`), hint: ['='], kind: 'constant' },
    // Constants in any case after the capital (`Max_try = 10`, `ParseError = Racc::ParseError`), on a line without `;` and not ending in `,`.
    { re: re(String.raw`^\s*(?<name>[A-Z]\w*)\s*=${RUBY_NOT_TEMPLATE}(?:$|[^=~>;]$|[^=~>;][^;]*[^;,]$)`), hint: ['='], kind: 'constant' },
  ],
});

const PHP_MODS = String.raw`(?:(?:public|private|protected|static|abstract|final|readonly)\s+)*`;
const php = language({
  id: 'php',
  names: ['PHP'],
  extensions: ['php', 'phtml', 'php3', 'php4', 'php5', 'php7', 'php8', 'phps'],
  rules: () => [
    { re: re(String.raw`^\s*(?:inline\s+)?namespace\s+(?<name>[\w\\]+)`), hint: ['namespace'], kind: 'namespace' },
    { re: re(String.raw`^\s*${PHP_MODS}class\s+(?<name>{ID})`), hint: ['class'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*interface\s+(?<name>{ID})`), hint: ['interface'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*trait\s+(?<name>{ID})`), hint: ['trait'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*enum\s+(?<name>{ID})`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${PHP_MODS}function\s+&?\s*(?<name>{ID})`), hint: ['function'], kind: 'function', inClass: 'method', scope: 'block' },
    // Class constants: typed (`const string NAME =`) or, without a type, upper-case as PSR-1 has them
    // (an untyped lower-case `const x =` is far more often a JavaScript line: ripgrep sees them all).
    { re: re(String.raw`^\s*(?:(?:public|private|protected|final)\s+)*const\s+{ID}\s+(?<name>{ID})\s*=`), hint: ['const'], kind: 'constant' },
    { re: re(String.raw`^\s*(?:(?:public|private|protected|final)\s+)*const\s+(?<name>[A-Z][A-Z0-9_]*)\s*=`), hint: ['const'], kind: 'constant' },
    { re: re(String.raw`^\s*define\(\s*['"](?<name>{ID})['"]`), hint: ['define'], kind: 'constant' },
  ],
});

const lua = language({
  id: 'lua',
  names: ['Lua'],
  extensions: ['lua'],
  regions: 'lua',
  rules: () => [
    { re: re(String.raw`^\s*(?:local\s+)?function\s+(?:(?<owner>{ID}(?:\.{ID})*)[.:])?(?<name>{ID})\s*\(`), hint: ['function'], kind: 'function', withOwner: 'method', scope: 'block' },
    { re: re(String.raw`^\s*(?:local\s+)?(?:(?<owner>{ID}(?:\.{ID})*)\.)?(?<name>{ID})\s*=\s*\(?\s*function\b`), hint: ['function'], kind: 'function', withOwner: 'method', scope: 'block' },
    // String keys: `M["window/logMessage"] = function`, and `["x"] = function` inside a table constructor.
    { re: re(String.raw`^\s*(?:(?<owner>{ID}(?:\.{ID})*))?\[\s*["'](?<name>[^"'\]]+)["']\s*\]\s*=\s*\(?\s*function\b`), hint: ['function'], kind: 'function', withOwner: 'method', scope: 'block' },
  ],
});

const shell = language({
  id: 'shell',
  names: ['Shell'],
  extensions: ['sh', 'bash', 'zsh', 'ksh'],
  rules: () => [
    { re: re(String.raw`^\s*function\s+(?<name>[\w.:-]+)`), hint: ['function'], kind: 'function' },
    // `name()` without a dot: a dotted name is far more often a call in another language's file (ripgrep sees them all) than a shell function.
    // A body, a subshell, a comment or the line end follows it: `foo();` is C code in a here-document.
    { re: re(String.raw`^\s*(?<name>[\w:-]+)\s*\(\)\s*(?:[{(#]|$)`), hint: ['()'], kind: 'function' },
    { re: re(String.raw`^(?:(?:export|readonly|declare\s+-[a-zA-Z]+)\s+)?(?<name>[A-Z][A-Z0-9_]*)=`), hint: ['='], kind: 'constant', topLevel: true },
  ],
});

const SWIFT_MODS = String.raw`(?:(?:public|private|fileprivate|internal|package|open|final|static|class|override|mutating|nonmutating|indirect|convenience|required|dynamic|lazy|weak|unowned|async|optional|prefix|postfix|infix|distributed)\s+|(?:nonisolated|private|fileprivate|internal|public|open|package|unowned)\s*\([^)]*\)\s*|nonisolated\s+|@{ID}(?:\([^)]*\))?\s+)*`;
/** What follows a type's name: generics, a base list, the body, `where`, or the line's end (`protocol extension, so that...` in a comment is none). */
const SWIFT_TYPE_END = String.raw`\s*(?:[:{<]|where\b|$)`;
const swift = language({
  id: 'swift',
  names: ['Swift'],
  extensions: ['swift'],
  multiLineStrings: 'triple',
  rules: () => [
    // Names in backquotes are named without them (`func \`set\`<T>(`, Swift Testing's `func \`reads a value\`()`).
    { re: re(String.raw`^\s*${SWIFT_MODS}func\s+\`?(?<name>{ID}|[^\s(<\`]+|[^\`]+(?=\`))\`?\s*[<(]`), hint: ['func'], kind: 'function', inClass: 'method', scope: 'block' },
    { re: re(String.raw`^\s*${SWIFT_MODS}(?<name>init)[?!]?\s*[<(]`), hint: ['init'], kind: 'constructor', scope: 'block' },
    { re: re(String.raw`^\s*${SWIFT_MODS}(?:class|actor)\s+(?<name>(?!(?:var|let|func|subscript|init)\b){ID})${SWIFT_TYPE_END}`), hint: ['class', 'actor'], kind: 'class', scope: 'class' },
    { re: re(String.raw`^\s*${SWIFT_MODS}struct\s+(?<name>{ID})${SWIFT_TYPE_END}`), hint: ['struct'], kind: 'struct', scope: 'class' },
    { re: re(String.raw`^\s*${SWIFT_MODS}enum\s+(?<name>{ID})${SWIFT_TYPE_END}`), hint: ['enum'], kind: 'enum', scope: 'class' },
    { re: re(String.raw`^\s*${SWIFT_MODS}protocol\s+(?<name>{ID})${SWIFT_TYPE_END}`), hint: ['protocol'], kind: 'interface', scope: 'class' },
    { re: re(String.raw`^\s*${SWIFT_MODS}extension\s+(?:{ID}\.)*(?<owner>{ID})`), hint: ['extension'], kind: 'class', scopeOnly: true },
    { re: re(String.raw`^\s*${SWIFT_MODS}typealias\s+(?<name>{ID})`), hint: ['typealias'], kind: 'typeParameter' },
    { re: re(String.raw`^${SWIFT_MODS}let\s+(?<name>{ID})`), hint: ['let'], kind: 'constant', topLevel: true },
    { re: re(String.raw`^${SWIFT_MODS}var\s+(?<name>{ID})`), hint: ['var'], kind: 'variable', topLevel: true },
  ],
});

export const LANGUAGES: readonly Language[] = [typescript, python, rust, go, cpp, java, kotlin, csharp, ruby, php, lua, shell, swift];

/** The languages as people name them (one rule set serves TypeScript and JavaScript, one C and C++): what tools and docs count. */
export const LANGUAGE_NAMES: readonly string[] = LANGUAGES.flatMap((l) => l.names);

const byExtension = new Map<string, Language>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) byExtension.set(ext, lang);

/** The language of a file name (by extension, case-insensitive), or undefined when editls has no patterns for it. */
export function languageOf(fileName: string): Language | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 && !fileName.startsWith('.')) return undefined;
  return byExtension.get(fileName.slice(dot + 1).toLowerCase());
}

/** Every extension with patterns, for ripgrep's `--type-add` and the file watcher's glob. */
export const INDEXED_EXTENSIONS: readonly string[] = [...byExtension.keys()];

/**
 * The lines a definition can start on, as one regex in the dialect ripgrep and JavaScript share
 * (ASCII classes, `[ \t]` for blanks, `[^\x00-\x7f]` for any non-ASCII character). The index
 * build hands it to ripgrep (one pass over the workspace), and in-process extraction applies the
 * same test first, so both see the same lines. A union of: a definition keyword or modifier at
 * the line start (not followed by `{` or `*`: `export { a }` defines nothing); `#define`; an
 * upper-case constant; a top-level binding; typed constants; `name(...) {` (methods);
 * `type name(...) {` and, at column 0, `type name(...)` or `,` (C-family functions);
 * `Class::name(`; one-line bodies; arrow-function fields; TypeScript/JavaScript class members in
 * every shape the member rule takes; shell functions; Lua function values; PHP `define(`; and the
 * lines where what spans lines (and defines nothing) opens or closes: Python's triple quotes, Go's
 * backquotes, Ruby's here-documents and `=begin`/`=end`, Lua's long comments (Language.regions).
 * It accepts every line the rules do (tested on the fixtures and on real TypeScript/JavaScript),
 * except that it narrows the broad shape rules of C/C++, Java and C# (a header must end its line
 * with `{`, or start at column 0), which would otherwise take prose and initialiser lists.
 */
/** Characters of an identifier (ASCII word characters, `$`, any non-ASCII character) in both dialects; in ripgrep's ASCII mode `[^\x00-\x7f]` is any byte of a non-ASCII character. */
const PF_ID_REST = String.raw`(?:[\w$]|[^\x00-\x7f])`;

/**
 * An identifier that is none of `words`. JavaScript's spelling is a negative lookahead (the
 * in-process prefilter runs five times faster so than through a trie). ripgrep's has no lookahead
 * (ripgrep has none): either it follows the words' trie, takes a character no word has at that
 * point and goes on freely, or it stops in the trie where no word ends. Every way out of the trie
 * goes on in the same one loop: a loop per trie node (the first spelling) gave ripgrep's lazy DFA
 * a state per way out for what is one state, which cost a tenth of ripgrep's time on every tree.
 * Both spellings take the same identifiers wherever a character that cannot go on one follows.
 */
export function identifierExcept(words: readonly string[], dialect: 'js' | 'rg' = 'rg'): string {
  if (dialect === 'js') {
    for (const w of words) if (!/^[A-Za-z_][\w]*$/.test(w)) throw new Error(`not a plain word: ${w}`);
    return String.raw`(?!(?:${words.join('|')})(?![\w$]|[^\x00-\x7f]))(?:[A-Za-z_$]|[^\x00-\x7f])${PF_ID_REST}*`;
  }
  interface Node { end: boolean; next: Map<string, Node> }
  const root: Node = { end: false, next: new Map() };
  for (const w of words) {
    let n = root;
    for (const c of w) {
      let k = n.next.get(c);
      if (!k) n.next.set(c, (k = { end: false, next: new Map() }));
      n = k;
    }
    n.end = true;
  }
  const firstChars = '$ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
  const restChars = `0123456789${firstChars}`;
  const classOf = (chars: string, except: Map<string, Node>) => {
    const kept = [...chars].filter((c) => !except.has(c)).map((c) => (c === '$' ? '\\$' : c)).join('');
    return `(?:[${kept}]|[^\\x00-\\x7f])`;
  };
  /** The trie up to a character no word has there. */
  const leave = (n: Node, depth: number): string => {
    const alts: string[] = [classOf(depth === 0 ? firstChars : restChars, n.next)];
    for (const [c, k] of n.next) alts.push(`${c}${leave(k, depth + 1)}`);
    return `(?:${alts.join('|')})`;
  };
  /** The trie's paths that end where no word does (a proper prefix of a word that is none). */
  const stop = (n: Node, depth: number): string | undefined => {
    const alts: string[] = [];
    if (depth > 0 && !n.end) alts.push('');
    for (const [c, k] of n.next) {
      const rest = stop(k, depth + 1);
      if (rest !== undefined) alts.push(`${c}${rest}`);
    }
    return alts.length > 0 ? `(?:${alts.join('|')})` : undefined;
  };
  const stops = stop(root, 0);
  return `(?:${leave(root, 0)}${PF_ID_REST}*${stops === undefined ? '' : `|${stops}`})`;
}

/**
 * The first word of a C/C++, Java or C# header (a type or a modifier), any word but those that
 * start statements: `return foo(a, {`, `await x.y({`, `new Proxy(t, { get(k) {` define nothing.
 */
const FIRST_TYPE_WORDS = ['return', 'await', 'new', 'throw', 'yield', 'else', 'case', 'typeof', 'delete', 'in', 'of', 'and', 'or', 'not', 'assert', 'print', 'echo'];

/**
 * Words a definition can start with, after its decorations: the definition keywords and every
 * modifier the rules allow before them (TypeScript, Rust, Go, Kotlin, Swift, PHP, C#...).
 */
const DEFINITION_WORDS = [
  'class', 'interface', 'type', 'enum', 'namespace', 'module', 'def', 'fn', 'struct', 'union', 'trait', 'mod', 'func', 'fun', 'object', 'protocol', 'extension',
  'typealias', 'actor', 'record', 'typedef', 'using', 'delegate', 'event', 'export', 'declare', 'default', 'public', 'private', 'protected', 'internal', 'fileprivate', 'readonly',
  'abstract', 'override', 'virtual', 'final', 'sealed', 'transient', 'volatile', 'open', 'data', 'value', 'inner', 'annotation', 'companion', 'expect', 'actual', 'external', 'operator',
  'infix', 'tailrec', 'lateinit', 'suspend', 'inline', 'unsafe', 'extern', 'auto', 'explicit', 'friend', 'static', 'async', 'local', 'synchronized', 'native', 'accessor',
  'get', 'set', 'mutating', 'nonmutating', 'dynamic', 'convenience', 'required', 'nonisolated', 'indirect', 'lazy', 'weak', 'unowned', 'partial', 'file', 'safe', 'optional', 'prefix', 'postfix', 'package', 'distributed',
].join('|');


/** Annotations and attributes before a definition: `@Name`, `@Name(args)`, `[Attr]`, `#[attr]`. */
const DECORATIONS = String.raw`(?:@(?:[\w$.]|[^\x00-\x7f])+(?:\([^)]*\))?[ \t]*|#?\[[^\]]*\][ \t]*)*`;
/** DECORATIONS, or Swift modifiers with an argument (`nonisolated(unsafe)`, `private(set)`), in any order (each alternative starts with its own character: no ambiguity). */
const LEADING_DECORATIONS = String.raw`(?:@(?:[\w$.]|[^\x00-\x7f])+(?:\([^)]*\))?[ \t]*|#?\[[^\]]*\][ \t]*|(?:nonisolated|private|fileprivate|internal|public|open|package|unowned)[ \t]*\([^)]*\)[ \t]*)*`;

const TS_MEMBER_MODS = String.raw`(?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor|get|set)[ \t]+)*`;

/**
 * C/C++ headers with no return type on their line (GNU style, constructors, conversion operators,
 * out-of-line members), their body on a later line, after qualifiers or `:` initialisers, or their
 * parameter list going on. (Headers with a return type and the body on a later line are left to the
 * column-0 branch: one for indented ones cost ripgrep 7% on every tree for 0.8% of libstdc++'s
 * functions.) `dialect` picks the spelling of the parameter test (see C_PARAMS_RG).
 */
function cHeaderBranches(dialect: 'js' | 'rg'): string[] {
  const params = dialect === 'js' ? C_PARAMS : C_PARAMS_RG;
  const open = dialect === 'js' ? C_PARAMS_OPEN : C_PARAMS_OPEN_RG;
  const ends = `[ \\t]*(?:${params}${C_QUALS}${C_TAIL}|${open})`;
  return [
    String.raw`^[ \t]*${C_CTOR_SPEC}${C_OWNERS}~?${identifierExcept(C_HEADER_NAME_WORDS, dialect)}${ends}`,
    String.raw`^[ \t]*${C_CTOR_SPEC}${C_OWNERS}${C_OPERATOR}[ \t]*(?:${C_ANY_PARAMS}${C_QUALS}${C_TAIL}|${C_ANY_PARAMS_OPEN})`,
  ];
}

/** A header's name in the prefilter: any identifier but the statement words that take the same shape (`for (const x of xs) {`, `if (a && b) {`, `value: function () {`). */
const C_HEADER_NAME_WORDS = ['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'elif', 'assert'];

/**
 * The first name of a Go group entry: not one of the statement words that start most lines of that
 * shape at one tab (`\tif x {`, `\tconst x = 1` without `;`, `\treturn x`, `\tfi`). Each word costs
 * ripgrep's DFA states on every tab-indented line: a list of 44 cost 5% of ripgrep's time on the
 * bench corpus, and the 30 words since left out (`\tbreak`, `\tend`, `\techo x`) passed just 46
 * more of the Go standard library's 379,000 candidate lines and 61 more of 2,900 in shell scripts.
 */
const GO_ENTRY_NAME_WORDS = ['if', 'switch', 'for', 'case', 'return', 'else', 'goto', 'const', 'var', 'let', 'do', 'then', 'fi', 'done'];

/**
 * Before what may stand anywhere on a line: every branch starts at the line start. One branch that
 * does not (a bare `function...` or `"""`) makes ripgrep's DFA follow the other branches from every
 * position of every line: it cost the index build a quarter of ripgrep's time, for the same lines.
 * Lazy, so that JavaScript looks for what follows from the line start (a fifth faster in-process than greedy).
 */
const ANYWHERE = String.raw`^[^\n]*?`;

/** C# type arguments in the prefilter (`<string, List<(int, T[])>>`): type characters only, so that ripgrep's automaton stays small. */
const CS_PF_ARGS = String.raw`<[\w<>\[\]?.,: \t()]*>`;
/**
 * A C# type in the prefilter: a name, qualified or generic (`Dictionary<string, List<int>>`), then `?`, `*`, array ranks
 * (tuples: a branch of their own). Capitalised as .NET names types, or a built-in type: the indented lines of other
 * languages mostly start with a lower-case word (`return`, `self.x`, `const`), which ripgrep can then leave at once.
 */
const CS_PF_TYPE = String.raw`(?:[A-Z_]|[^\x00-\x7f]|bool|s?byte|char|decimal|double|float|u?int|u?long|u?short|object|string|void|dynamic|global::)(?:[\w.:]|[^\x00-\x7f])*(?:${CS_PF_ARGS})?(?:[?*]|\[[, \t]*\])*`;
/** A C# member's name in the prefilter, an explicit interface's before it (`IList.Add`, `IList<T>.IndexOf`). */
const CS_PF_NAME = String.raw`(?:(?:[\w.]|[^\x00-\x7f])+${CS_PF_ARGS}\.)?(?:[\w.]|[^\x00-\x7f])+`;

/**
 * The end of a C# header after `(` in the Java branch (which has its type and name, an explicit interface's before it:
 * `void IList.Add(`): parameters with default values (`void F(T value = default(T));`, `void Log(string s = "")`), `where`
 * constraints after them, an expression body (`int F(int x) => x * 2;`).
 */
const CS_PF_DEFAULTS = String.raw`[^;{}]*=[^;{}]*\)[ \t]*(?:where[ \t][^;{}]*)?;?[ \t]*|[^;{}=]*\)[ \t]*where[ \t][^;{}]*|[^;{}]*\)[ \t]*(?:where[ \t][^;{}=]*)?=>.*`;

/** The branches but the C/C++ headers', in `dialect`'s spelling of identifierExcept. */
function prefilterCommon(dialect: 'js' | 'rg'): string[] {
  const FIRST_TYPE_WORD = identifierExcept(FIRST_TYPE_WORDS, dialect);
  const GO_ENTRY_NAME = identifierExcept(GO_ENTRY_NAME_WORDS, dialect);
  return [
    String.raw`^[ \t]*${LEADING_DECORATIONS}(?:function\b|(?:${DEFINITION_WORDS})[ \t]+[^ \t=:;,.(){}*]|const[ \t]+(?:val|enum|fn|async|unsafe|safe|extern|trait|auto)[ \t]|def[ \t]+[-+*/%<>=!~^&|\[\]]|func[ \t]+[^ \t(<]|func[ \t]*\(|init[?!]?[ \t]*[<(]|impl\b|pub\b|template\b|macro_rules!)`,
    String.raw`^[ \t]*#[ \t]*define[ \t]`,
    String.raw`^[ \t]*\}[ \t]*[A-Za-z_]\w*[ \t]*[;,]`,
    // Java headers with a type: abstract, interface and native declarations (`byte readByte() throws IOException;`), the
    // body on a later line or after a comment, parameters going on on the next line, one-line bodies followed by a comment
    // (`static final int LOCNAM(byte[] b) { return get16(b, 26);} // length`). One branch: the type-word test is large for ripgrep.
    // C# headers without a modifier share it: explicit interface members (`void IList.Add(`) and CS_PF_DEFAULTS.
    String.raw`^[ \t]+(?:<[^>]*>[ \t]*)?${FIRST_TYPE_WORD}(?:[ \t<>\[\],.?@&](?:[\w$ \t<>\[\],.?@&]|[^\x00-\x7f])*)?[ \t](?:I[A-Z]\w*(?:${CS_PF_ARGS})?\.)?${PF_ID_REST}+[ \t]*\((?:[^;={]*\)[ \t]*(?:throws[ \t][^;={]*)?;[ \t]*$|(?:[^;{}=]*\)[ \t]*(?:throws[ \t][^;{}=]*)?(?:\{[ \t]*)?|[^;{}=]*\)[^;{]*\{.*\}[ \t]*|${JAVA_PARAMS_OPEN}|[ \t]*|${CS_PF_DEFAULTS})(?:[/][/].*)?$)`,
    // Java constructors without a return type: a comment after the `{` or the whole body on the line; capitalised, with the `{` on a later line or the parameters going on there.
    String.raw`^[ \t]+(?:(?:public|protected|private)[ \t]+)?${PF_ID_REST}+[ \t]*\([^;{}]*\)[ \t]*(?:throws[ \t][^;{}]*)?\{(?:[ \t]*[/][/].*|.*\}[ \t]*;?[ \t]*(?:[/][/].*)?)$`,
    String.raw`^[ \t]+[A-Z][\w$]*[ \t]*\((?:[^;{}]*\)[ \t]*(?:throws[ \t][^;{}]*)?|${JAVA_PARAMS_OPEN}|[ \t]*)(?:[/][/].*)?$`,
    // Java UPPER_CASE fields with a type and no modifier (interface constants `int ACC_STATIC = 0x0008;`, always initialised).
    String.raw`^[ \t]+[A-Za-z_][\w$.<>\[\], \t?]*[ \t][A-Z][A-Z0-9_]*(?:[ \t]*\[\])*[ \t]*=(?:[^=]|$)`,
    String.raw`^[ \t]*[A-Z][A-Z0-9_]*[ \t]*(?::[^=]+)?=(?:[^=]|$)`,
    String.raw`^[A-Z][A-Z0-9_]*=`,
    String.raw`^${PF_ID_REST}+[ \t]*(?::[^=]+)?=(?:[^=]|$)`,
    String.raw`^(?:export[ \t]+)?(?:declare[ \t]+)?(?:const|let|var|val)[ \t]`,
    String.raw`^[ \t]*(?:const|static)[ \t]+(?:mut[ \t]+)?${PF_ID_REST}+[ \t]*:`,
    String.raw`^[ \t]*const[ \t]+(?:[\w<>\[\],.?]|[^\x00-\x7f])+[ \t]+${PF_ID_REST}+[ \t]*=`,
    String.raw`^[ \t]*const[ \t]+[A-Z][A-Z0-9_]*[ \t]*=`,
    String.raw`^[ \t]*[\w$#*~][\w$#*~.]*(?:<[^>]*>)?\([^;]*\)[ \t]*(?::[^;{]*)?\{[ \t]*\}?[ \t]*$`,
    // C-family headers with a type: the body opening at the line's end, or the whole body on the line; the name may be an
    // operator (`bool operator==(`, `T& A<T>::operator+=(`) or carry an explicit specialisation's arguments (`pcast<A, B>(`).
    // With no `{` on the line (the body on a later one, Allman style in classes: `bool is_valid() const`), the parameters
    // must read as a declaration's (C_PARAMS: `std::cout << f(x)`, a call going on, does not) and only qualifiers follow,
    // or they go on on the next line after a typed one (`void f(T* a,`) or with nothing yet (`std::pair<A, B> f(`).
    // One branch: a second copy of the type-word test (thousands of characters) cost ripgrep 3% on every tree.
    String.raw`^[ \t]*${FIRST_TYPE_WORD}(?:[ \t*&:<>,~#\[\].?@][\w \t*&:<>,~$#\[\].?@]*)?(?:[ \t*&]~?[A-Za-z_$][\w:~$]*${C_EXPLICIT_ARGS}[ \t]*(?:\(${C_TYPED_TAIL}|${dialect === 'js' ? C_PARAMS : C_PARAMS_RG}${C_QUALS}${C_LATER_BODY}|${dialect === 'js' ? C_PARAMS_OPEN : C_PARAMS_OPEN_RG}|\([ \t]*$)|(?:[ \t*&]|::)operator[ \t]*(?:[-+*/%^&|~!=<>,]+|\(\)|\[\])${C_EXPLICIT_ARGS}[ \t]*(?:\(${C_TYPED_TAIL}|${C_ANY_PARAMS}${C_QUALS}${C_LATER_BODY}|${C_ANY_PARAMS_OPEN}|\([ \t]*$))`,
    String.raw`^[A-Za-z_][\w \t*&:<>,~]*[ \t*&]~?[A-Za-z_][\w:~]*\([^;]*[),][ \t]*$`,
    String.raw`^[A-Za-z_~][\w:<>,*& \t~]*::~?[A-Za-z_]\w*\([^;]*$`,
    String.raw`^[ \t]*${TS_MEMBER_MODS}#?${PF_ID_REST}+[ \t]*(?::[^=]+)?=[ \t]*(?:async[ \t]+)?(?:\([^()]*\)|${PF_ID_REST}+)[ \t]*(?::[^=]+)?=>`,
    // Class members in TypeScript/JavaScript as the member rule has them: modifiers, a blank or
    // not before the parameters (`name (a) {` is the StandardJS style), `;` and `{` inside them,
    // nested generics. The statements that take the same shape are left out by name.
    String.raw`^[ \t]+${TS_MEMBER_MODS}(?:\*[ \t]*)?#?${identifierExcept(['if', 'for', 'while', 'switch', 'catch', 'with', 'function'], dialect)}[ \t]*(?:<[^()]*>)?[ \t]*\((?:[^()]|\([^()]*\))*\)[ \t]*(?::[^;{]*)?\{[ \t]*\}?[ \t]*$`,
    // TypeScript member signatures (`name?<T>(params): Type;`).
    String.raw`^[ \t]+${TS_MEMBER_MODS}#?${PF_ID_REST}+\??[ \t]*(?:<.*>)?[ \t]*\(.*\)[ \t]*:.*;[ \t]*$`,
    String.raw`^[ \t]*[\w:-]+[ \t]*\(\)`,
    String.raw`^[ \t]*(?:(?:local|const|let|var)[ \t]+)?(?:[\w$.]|[^\x00-\x7f])+[ \t]*=[ \t]*(?:async[ \t]+)?function\b`,
    // JavaScript named function expressions opening their body anywhere on the line (`ws.on("e", function name() {`), and object literals bound to a name.
    String.raw`${ANYWHERE}function[ \t]*(?:\*[ \t]*)?(?:[A-Za-z_$]|[^\x00-\x7f])${PF_ID_REST}*[ \t]*\(.*\)[ \t]*\{`,
    String.raw`^[ \t]+(?:const|let|var)[ \t]+${PF_ID_REST}+[ \t]*(?::[^=]+)?=[ \t]*\{[ \t]*$`,
    // Lua: `x = (function`, `M["x"] = function`, `["x"] = function`.
    String.raw`^[ \t]*(?:local[ \t]+)?(?:[\w.]|[^\x00-\x7f])*(?:\[[^\]]*\])?[ \t]*=[ \t]*\([ \t]*function\b`,
    String.raw`^[ \t]*(?:[\w.]|[^\x00-\x7f])*\[[^\]]*\][ \t]*=[ \t]*function\b`,
    // Kotlin and Swift top-level properties after modifiers and annotations (`@JvmField internal val X`, `nonisolated(unsafe) private let x`).
    String.raw`^${DECORATIONS}(?:[a-z]+(?:[ \t]*\([^)]*\)[ \t]*|[ \t]+)${DECORATIONS})*(?:val|var|let)[ \t]`,
    // Ruby constants in any case after the capital (`Max_try = 10`), on a line without `;` and not ending in `,`
    // (TypeScript enum members and generic defaults, C# initialisers: most such lines of other languages).
    String.raw`^[ \t]*[A-Z]\w*[ \t]*=(?:$|[^=~>;]$|[^=~>;][^;]*[^;,]$)`,
    // C# members without a modifier (interfaces, explicit interface members, private by default) the Java branch misses:
    // properties with accessors or an expression body (`IDictionary<string, int> Map { get; }`, `bool ICollection.IsSynchronized
    // => false;`), explicit interface properties whose `{` is on the next line (an interface's name, by .NET's rule `I` and a
    // capital); tuple return types (`(int a, int b) F(`: a comma in the parentheses, never a C cast). Together with
    // CS_PF_DEFAULTS they cost ripgrep about 3.6% more instructions (callgrind, /usr/include and the npm corpora).
    String.raw`^[ \t]+${CS_PF_TYPE}[ \t]+(?:${CS_PF_NAME}[ \t]*(?:\{[ \t]*(?:\[[^\]]*\][ \t]*)*(?:(?:public|private|protected|internal)[ \t]+)*(?:get|set|init)\b|=>)|I[A-Z]\w*(?:${CS_PF_ARGS})?\.${PF_ID_REST}+[ \t]*(?:[/][/].*)?$)`,
    String.raw`^[ \t]+(?:(?:public|private|protected|internal|static|async|override|virtual|abstract|sealed|readonly|unsafe|extern|new)[ \t]+)*\([\w<>\[\]?., \t]+,[\w<>\[\]?., \t]+\)[?]?[ \t]+${CS_PF_NAME}[ \t]*(?:${CS_PF_ARGS})?[ \t]*(?:\(|\{|=>|$)`,
    String.raw`^[ \t]*(?:export[ \t]+)?(?:const|let|var)[ \t]+${PF_ID_REST}+[ \t]*=[ \t]*class\b`,
    String.raw`^[ \t]+(?:(?:public|private|protected)[ \t]+)?constructor[ \t]*\(.*\)[ \t]*;[ \t]*$`,
    String.raw`^[ \t]*define\(`,
    // Delimiters of what spans lines, whose lines the extractor reads as defining nothing: Python's triple quotes
    // (docstrings with `def` examples) and Ruby's here-document openers (`<<~EOS`, `<<-'SQL'`, `raise <<EOS`: IDs
    // starting with a capital or `_`, a bare one with a capital: C++'s `<<__FILE__` is none). Every literal searched
    // for anywhere costs ripgrep's DFA on every line of every language: `<<` costs 2.2% of its instructions on the
    // index bench's corpus; Lua's `[[` and `]]` anywhere cost 3% each (what Lua keeps to the line's start below).
    String.raw`${ANYWHERE}(?:"""|'''|<<(?:[~-]["'\x60]?[A-Z_]|["'\x60][A-Z_]|[A-Z]))`,
    // Ruby: here-document terminators of those IDs (a lone capitalised word or `_x_`, not `end`: a branch for any lone
    // word passed Ruby's files three times the lines, Go's and Python's a tenth more), `=begin` and `=end` at column 0.
    String.raw`^[ \t]*[A-Z_]\w*$`,
    String.raw`^=(?:begin|end)(?:[ \t]|$)`,
    // Lua: long comments starting their line `--[[`, `--[==[`, and the ends of long brackets starting theirs `]]`, `--]]`.
    String.raw`^[ \t]*(?:--\[=*\[|(?:--)?\]=*\])`,
    // Go: lines with an odd number of backquotes (a raw string opens or closes there: the lines inside define nothing)
    // but comment lines (`// ...`, ` * ```ts` in JSDoc: most odd lines of other languages);
    // and grouped declarations: `const (`, `var (`, `type (`, their entries (one tab, the names, at most one type word,
    // no `;` but in a trailing comment: Go never ends a line with one, JavaScript's one-tab assignments mostly do), their `)`.
    '^[ \\t]*(?:(?:[^ \\t*\\x2f`]|\\x2f[^\\x2f`])[^`]*)?(?:`[^`]*`[^`]*)*`[^`]*$',
    String.raw`^(?:const|var|type)[ \t]*\(`,
    String.raw`^\)[ \t]*(?:[/][/].*)?$`,
    String.raw`^\t${GO_ENTRY_NAME}(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*(?:[ \t]+[\w.*\[\]<>-]+(?:[ \t]*\{[^}]*\}?)?)?[ \t]*,?[ \t]*(?:=(?:$|[^=;][^;]*$|[^=;].*[/][/].*$)|[/][/]|$)`,
  ];
}

/** The test every line passes before the rules see it: in ripgrep (the index build) and in JavaScript. */
interface Prefilter {
  /** The branches as JavaScript runs them; ripgrep's differ only in the spelling of identifierExcept and cHeaderBranches. */
  branches: readonly string[];
  /** ripgrep's spelling: no lookaround (valid JavaScript too, so that tests can compare the two). */
  branchesRg: readonly string[];
  /** For ripgrep: ASCII mode (`(?-u)`), about twice as fast as Unicode classes on a large tree. */
  regex: string;
  /** The same test in JavaScript, for text extracted in-process (open buffers, saved files). */
  js: RegExp;
}

let made: Prefilter | undefined;

/**
 * The prefilter, made on first use (the index build, or the first file extracted in-process): its
 * type-word alternations and ~50 branches cost 3-5 ms of every start-up when made at load.
 */
export function prefilter(): Prefilter {
  if (made) return made;
  const branches = [...prefilterCommon('js'), ...cHeaderBranches('js')];
  const branchesRg = [...prefilterCommon('rg'), ...cHeaderBranches('rg')];
  made = { branches, branchesRg, regex: `(?-u)${branchesRg.join('|')}`, js: new RegExp(branches.join('|')) };
  return made;
}
