// Judges each symbol editls extracts as a true or a false definition, mechanically and with a
// stated reason, independently of editls's rules: where its name sits (a comment or a string, found
// by a small lexer per language), whether the name is a keyword, whether ctags tags it on its line,
// and otherwise whether the line declares that name in a shape of the language's grammar.

/** Lexical setup per judged language: comments, strings, and what a declaration looks like. */
const LEX = {
  js: { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'"], template: true, regex: true },
  py: { line: ['#'], block: [], quotes: ['"', "'"], triple: true },
  c: { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'"], rawStrings: true },
  java: { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'"], textBlocks: true },
  sh: { hash: true, quotes: ['"', "'"], heredoc: true, line: [], block: [] },
  // Rust: strings span lines, raw strings r#"..."#; `'` starts a lifetime or a char literal (handled apart).
  rust: { line: ['//'], block: [['/*', '*/']], quotes: ['"'], multilineQuotes: true, rustRaw: true, charLiterals: true },
  // C#: verbatim strings @"..." span lines ("" is a quote inside).
  cs: { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'"], verbatim: true },
};

const KEYWORDS = {
  js: 'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static await',
  py: 'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield',
  c: 'auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool catch class delete friend mutable namespace new private protected public template this throw try typename using virtual',
  java: 'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while',
  sh: 'if then else elif fi case esac for while until do done in function select time',
  rust: 'as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while async await dyn',
  cs: 'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while',
};
const KEYWORD_SETS = Object.fromEntries(Object.entries(KEYWORDS).map(([k, v]) => [k, new Set(v.split(' '))]));

/** The judged family of an editls language id. */
export function familyOf(languageId) {
  return { typescript: 'js', python: 'py', cpp: 'c', java: 'java', shell: 'sh', rust: 'rust', csharp: 'cs' }[languageId];
}

/**
 * Regions of `text` that are comments or strings, as sorted [start, end, kind] triples (kind
 * 'comment' or 'string'); code inside a template literal's `${...}` is code.
 */
export function lexRegions(text, family) {
  const lx = LEX[family];
  const out = [];
  const n = text.length;
  let i = 0;
  /** Template literal nesting: for each open `${`, the brace depth at which it closes. */
  const templates = [];
  let braces = 0;
  /** The last significant character outside comments and strings (for JavaScript regex literals). */
  let prev = '';
  let prevWord = '';
  /** A here-document body seen on its opening line: skipped once the scan reaches it. */
  let pendingHeredoc;
  const at = (s) => text.startsWith(s, i);
  const lineEnd = (from) => {
    const k = text.indexOf('\n', from);
    return k < 0 ? n : k;
  };
  while (i < n) {
    const c = text[i];
    // Line comments.
    if (lx.line.some(at) || (lx.hash && c === '#' && (i === 0 || /[\s;|&(]/.test(text[i - 1])) && text[i + 1] !== '!')) {
      const e = lineEnd(i);
      out.push([i, e, 'comment']);
      i = e;
      continue;
    }
    const block = lx.block.find(([open]) => at(open));
    if (block) {
      const k = text.indexOf(block[1], i + block[0].length);
      const e = k < 0 ? n : k + block[1].length;
      out.push([i, e, 'comment']);
      i = e;
      continue;
    }
    // Python triple-quoted strings and Java text blocks (with string prefixes r, b, f, u before them in Python).
    if ((lx.triple || lx.textBlocks) && (at('"""') || (lx.triple && at("'''")))) {
      const q = text.slice(i, i + 3);
      let k = i + 3;
      while (k < n && !text.startsWith(q, k)) k += text[k] === '\\' ? 2 : 1;
      const e = Math.min(n, k + 3);
      out.push([i, e, 'string']);
      i = e;
      prev = '"';
      continue;
    }
    // C++ raw strings R"delim( ... )delim".
    if (lx.rawStrings && c === 'R' && text[i + 1] === '"' && !/[\w]/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i + 2);
      if (open > 0 && open - i < 20) {
        const delim = text.slice(i + 2, open);
        const k = text.indexOf(`)${delim}"`, open);
        const e = k < 0 ? n : k + delim.length + 2;
        out.push([i, e, 'string']);
        i = e;
        continue;
      }
    }
    // Shell here-documents: from the next line to the line holding only the delimiter.
    if (lx.heredoc && at('<<') && text[i + 2] !== '<') {
      const m = /^<<-?[ \t]*(['"]?)([A-Za-z_][\w]*)\1/.exec(text.slice(i, i + 80));
      if (m) {
        const bodyStart = lineEnd(i) + 1;
        const re = new RegExp(`^[ \\t]*${m[2]}[ \\t]*$`, 'm');
        const rest = text.slice(bodyStart);
        const found = re.exec(rest);
        const e = found ? bodyStart + found.index + found[0].length : n;
        // The rest of the opening line is code; the body is a string.
        out.push([bodyStart, e, 'string']);
        // Continue on the opening line; the body is skipped when reached.
        pendingHeredoc = [bodyStart, e];
        i += m[0].length;
        continue;
      }
    }
    if (pendingHeredoc && i >= pendingHeredoc[0]) {
      i = pendingHeredoc[1];
      pendingHeredoc = undefined;
      continue;
    }
    // Rust raw strings r"...", r#"..."#, br"...".
    if (lx.rustRaw && (c === 'r' || (c === 'b' && text[i + 1] === 'r')) && !/[\w]/.test(text[i - 1] ?? '')) {
      const m = /^b?r(#*)"/.exec(text.slice(i, i + 40));
      if (m) {
        const close = `"${m[1]}`;
        const k = text.indexOf(close, i + m[0].length);
        const e = k < 0 ? n : k + close.length;
        out.push([i, e, 'string']);
        i = e;
        prev = '"';
        continue;
      }
    }
    // Rust char literals ('"', '\'', 'x'); a lifetime ('a) is code.
    if (lx.charLiterals && c === "'") {
      const m = /^'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'/u.exec(text.slice(i, i + 14));
      if (m) {
        out.push([i, i + m[0].length, 'string']);
        i += m[0].length;
        prev = '"';
        continue;
      }
      i++;
      continue;
    }
    // C# verbatim strings @"..." (also $@"..." and @$"..."), spanning lines, "" inside.
    if (lx.verbatim && (at('@"') || at('$@"') || at('@$"'))) {
      let k = text.indexOf('"', i) + 1;
      while (k < n && !(text[k] === '"' && text[k + 1] !== '"')) k += text[k] === '"' ? 2 : 1;
      const e = Math.min(n, k + 1);
      out.push([i, e, 'string']);
      i = e;
      prev = '"';
      continue;
    }
    if (lx.quotes.includes(c)) {
      // Shell: a quote after a backslash is text; `$'...'` is a string too.
      if (family === 'sh' && text[i - 1] === '\\') {
        i++;
        continue;
      }
      // Strings end at their line's end except in shell, where quotes span lines.
      let k = i + 1;
      const multiline = family === 'sh' || lx.multilineQuotes === true;
      while (k < n && text[k] !== c && (multiline || text[k] !== '\n')) k += text[k] === '\\' && !(family === 'sh' && c === "'") ? 2 : 1;
      const e = Math.min(n, k + 1);
      out.push([i, e, 'string']);
      i = e;
      prev = '"';
      continue;
    }
    // A template literal's text, from its opening backtick or from the `}` that ends a `${...}` in it,
    // up to the closing backtick or the next `${`, which starts code.
    const inTemplate = lx.template && (c === '`' || (c === '}' && templates.length > 0 && braces - 1 === templates[templates.length - 1]));
    if (inTemplate) {
      if (c === '}') {
        templates.pop();
        braces--;
      }
      let k = i + 1;
      while (k < n && text[k] !== '`' && !(text[k] === '$' && text[k + 1] === '{')) k += text[k] === '\\' ? 2 : 1;
      if (text[k] === '$') {
        out.push([i, k, 'string']);
        templates.push(braces);
        braces++;
        i = k + 2;
      } else {
        out.push([i, Math.min(n, k + 1), 'string']);
        i = k + 1;
      }
      prev = '"';
      continue;
    }
    if (lx.regex && c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || /^(return|typeof|case|in|of|void|yield|await|delete|throw|else)$/.test(prevWord))) {
      // A regex literal (where a value can start): up to the closing `/` outside a class.
      let k = i + 1;
      let inClass = false;
      while (k < n && text[k] !== '\n' && (inClass || text[k] !== '/')) {
        if (text[k] === '\\') k++;
        else if (text[k] === '[') inClass = true;
        else if (text[k] === ']') inClass = false;
        k++;
      }
      if (text[k] === '/') {
        out.push([i, k + 1, 'string']);
        i = k + 1;
        prev = '"';
        continue;
      }
    }
    if (c === '{') braces++;
    else if (c === '}') braces--;
    if (!/\s/.test(c)) {
      if (/[\w$]/.test(c)) {
        let k = i;
        while (k < n && /[\w$]/.test(text[k])) k++;
        prevWord = text.slice(i, k);
        prev = 'a';
        i = k;
        continue;
      }
      prev = c;
      prevWord = '';
    }
    i++;
  }
  // Here-document bodies were added when their opening line was read: in order of start.
  return out.sort((a, b) => a[0] - b[0]);
}

/** The kind of region holding `offset` ('comment', 'string') or undefined for code. */
export function regionAt(regions, offset) {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e, kind] = regions[mid];
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return kind;
  }
  return undefined;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `line` declares `name` at column `col` in a shape of the language's grammar (written
 * from the grammar, not from editls's rules): the reason, or undefined.
 */
export function declarationShape(family, line, name, col) {
  const before = line.slice(0, col);
  let after = line.slice(col + name.length);
  const N = esc(name);
  switch (family) {
    case 'js': {
      if (/(?:^|[^\w$.])(?:function\s*\*?|class|interface|type|enum|namespace|module|const|let|var)\s*$/.test(before)) return 'keyword before the name';
      // Members: modifiers only before the name, a parameter list after it that opens a body or ends a typed signature.
      const member = /^\s*(?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor|get|set|export|default)\s+)*[*#]?$/.test(before);
      if (member && /^\??\s*(?:<.*>)?\s*\(/.test(after) && (/\)\s*(?::[^;{]*)?\{\s*\}?\s*;?\s*$/.test(after) || /\)\s*:.*;\s*$/.test(after) || (name === 'constructor' && /^\s*\(.*\)\s*;\s*$/.test(after)))) {
        return 'member: name(params) with a body or a typed signature';
      }
      // Function values bound to the name: `x.name = function`, `name = (a) =>`, `name: function`.
      if (/^\s*[:=]\s*(?:async\s+)?(?:function\b|class\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/.test(after) && /^\s*(?:[\w$]+\.)*(?:(?:public|private|protected|static|readonly)\s+)*[#]?$/.test(before)) return 'a function or class value bound to the name';
      if (/^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+$/.test(before)) return 'top-level binding';
      return undefined;
    }
    case 'py': {
      if (/^\s*(?:async\s+)?(?:def|class)\s+$/.test(before)) return 'def/class before the name';
      // Also the one-line body of a clause: `try: _flatten = _tkinter._flatten`.
      if (/^(?:(?:try|else|finally|except)\s*:\s*)?$/.test(before) && /^\s*(?::[^=]+)?=(?!=)/.test(after)) return 'module-level assignment';
      return undefined;
    }
    case 'c': {
      if (/#\s*define\s+$/.test(before)) return '#define';
      if (/(?:^|\W)(?:typedef|using)\b[^;=(){}]*$/.test(before)) return 'typedef or using before the name';
      const attrs = String.raw`(?:alignas\s*\([^)]*\)\s*|\[\[[^\]]*\]\]\s*|__attribute__\s*\(\(.*?\)\)\s*)*`;
      if (new RegExp(String.raw`(?:^|\W)(?:struct|union|enum|class|namespace|concept)\b\s*${attrs}[^;=(){}]*$`).test(before) && !/^\s*;/.test(after)) return 'a type keyword before the name';
      if (/^\s*\}\s*(?:[\w*]+\s*,\s*)*$/.test(before) && /^\s*[;,\[]/.test(after)) return 'a typedef or variable name after the closing brace';
      if (/\(\s*\*\s*$/.test(before) && /^\s*\)\s*\(/.test(after)) return 'a function pointer type name';
      // An explicit specialisation's arguments between a typed header's name and its parameters (`Packet4f pcast<A, B>(`); not
      // after an owner or nothing (`std::get<I>(t)`, a call).
      const explicitArgs = /^\s*<[^();{}]*>(?=\s*\()/.exec(after);
      if (explicitArgs && /[\w>*&]\s+$|[*&]$/.test(before) && !/^\s*(?:[\w~]+(?:<[^;]*>)?::)*~?$/.test(before)) after = after.slice(explicitArgs[0].length);
      // A function (or operator) header: a type, a qualified owner or nothing before the name, parameters after it, not a call statement.
      if (/^\s*\(/.test(after) || name.startsWith('operator')) {
        if (/(?:^|[^\w])(?:return|else|case|new|delete|throw|co_return|co_await|sizeof|if|while|for|switch)\s*$/.test(before)) return undefined;
        if (/[=+\-\/%!?|^,(]\s*$/.test(before) || /\.\s*$|->\s*$/.test(before)) return undefined;
        // No type before the name (a constructor, GNU style, a header going on): a call statement looks the same unless the
        // parameters are declarations (`(T a,`, `(const T&`, `()`) or the header's end follows them.
        if (/^\s*(?:[\w~]+(?:<[^;]*>)?::)*~?$/.test(before)) {
          const declParams = name.startsWith('operator') || /^\s*\(\s*const\s+[\w:]/.test(after) || /^\s*\(\s*(?:\)|void\s*\)|(?:(?:const|volatile|unsigned|signed|struct|enum|class|typename)\s+)*(?:::)?[A-Za-z_][\w:]*(?:<.*>)?(?:\s*[*&]+\s*|\s+)(?:const\s*)?[*&]*\s*(?:[A-Za-z_]\w*\s*(?:[,)=\[]|$)|[,)]))/.test(after);
          if (!declParams && !/\)\s*(?:const\b|noexcept\b|override\b|final\b|throw\b|->|:|\{|$)/.test(after)) return undefined;
        }
        return 'a function header: a type or owner before the name, parameters after it';
      }
      return undefined;
    }
    case 'java': {
      if (/(?:^|\W)(?:class|interface|enum|record|@interface)\s+$/.test(before)) return 'a type keyword before the name';
      if (/^\s*\(/.test(after)) {
        if (/(?:^|[^\w])(?:return|new|throw|else|case|assert|yield)\s*$/.test(before) || /[=+\-\/%!?|^,(.]\s*$/.test(before)) return undefined;
        if (/^\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*$/.test(before) ? /\)\s*(?:throws\b[^;{]*)?\{/.test(after) : /[\w>\]]\s+$/.test(before)) return 'a method header: a type or modifiers before the name, parameters after it';
        return undefined;
      }
      if (/^[A-Z][A-Z0-9_]*$/.test(name) && /[\w>\]]\s+$/.test(before) && /^\s*(?:=|;)/.test(after)) return 'a constant field declaration';
      return undefined;
    }
    case 'rust': {
      if (/(?:^|[^\w])(?:fn|struct|enum|union|trait|type|mod|const|static(?:\s+mut)?|macro_rules!)\s*$/.test(before)) return 'an item keyword before the name';
      return undefined;
    }
    case 'cs': {
      if (/(?:^|\W)(?:class|struct|interface|enum|record|namespace|delegate\s+[\w<>\[\],.?]+)\s+$/.test(before)) return 'a type keyword before the name';
      if (/(?:^|\W)operator\s*$/.test(before) || name.startsWith('operator')) return 'an operator declaration';
      // A type (or modifiers) before the name: a method with parameters, a property with a body or an arrow, a constant field.
      const typed = /^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|async|extern|unsafe|new|readonly|partial|const|implicit|explicit)\s+)*[\w<>\[\],.?]+\s+$/.test(before);
      const ctor = /^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|extern|unsafe)\s+)*$/.test(before);
      if (/(?:^|[^\w])(?:return|new|throw|else|case|await|yield|var)\s*$/.test(before)) return undefined;
      if ((typed || ctor) && /^\s*(?:<[^>]*>)?\s*\(/.test(after) && (typed || /\)\s*(?::\s*(?:base|this)\s*\(.*)?(?:\{|=>|$)/.test(after))) return 'a method or constructor header: a type or modifiers before the name, parameters after it';
      if (typed && /^\s*(?:\{|=>|$)/.test(after)) return 'a property: a type before the name, a body or an arrow after it';
      if (typed && /^\s*(?:=[^=>]|;)/.test(after)) return 'a field declaration';
      return undefined;
    }
    case 'sh': {
      if (/^\s*function\s+$/.test(before)) return 'function keyword';
      if (/^\s*$/.test(before) && /^\s*\(\s*\)/.test(after)) return 'name() at the line start';
      if (/^(?:(?:export|readonly|declare\s+-\w+|local)\s+)?$/.test(before) && after.startsWith('=')) return 'assignment at the line start';
      return undefined;
    }
  }
  return undefined;
}

/**
 * The verdict on one symbol: `{ verdict: 'true' | 'false', reason }`. `lineText` is its line,
 * `offset` the name's offset in the file, `regions` the file's lexRegions, `ctagsOnLine` whether
 * ctags tags the same name on that line.
 */
export function judge({ family, name, lineText, col, offset, regions, ctagsOnLine }) {
  const region = regionAt(regions, offset);
  if (region === 'comment') return { verdict: 'false', reason: 'inside a comment' };
  if (region === 'string') return { verdict: 'false', reason: 'inside a string' };
  const shape = declarationShape(family, lineText, name, col);
  // A keyword names nothing, except a JavaScript property or method (`delete(key) {`, `exports.default = function`) and a C macro (`#define const`).
  const keywordAllowed = (family === 'js' && shape && !shape.startsWith('keyword')) || shape === '#define';
  if (KEYWORD_SETS[family]?.has(name) && !keywordAllowed) return { verdict: 'false', reason: 'a keyword' };
  if (ctagsOnLine) return { verdict: 'true', reason: 'ctags tags it on its line' };
  if (shape) return { verdict: 'true', reason: `declaration shape: ${shape}` };
  return { verdict: 'false', reason: 'no declaration of the name on its line (a call, a use or a statement)' };
}
