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
  // The families below read strings through `strings`: each an opener, its closer, the escape (skips
  // the next character), an interpolation opener whose inside is code, and whether it spans lines.
  // Go: "..." and '...' runes on one line, raw `...` strings spanning lines without escapes.
  go: { line: ['//'], block: [['/*', '*/']], quotes: [], strings: [{ open: '"', close: '"', escape: '\\' }, { open: "'", close: "'", escape: '\\' }, { open: '`', close: '`', multiline: true }] },
  // Ruby: # comments, =begin/=end at line starts, __END__; strings span lines, "..." and `...` with
  // #{...} code; %q(...)-style literals, here-documents, regex literals where a value starts.
  ruby: { line: ['#'], block: [], quotes: [], ruby: true, strings: [{ open: '"', close: '"', escape: '\\', interp: '#{', multiline: true }, { open: "'", close: "'", escape: '\\', multiline: true }, { open: '`', close: '`', escape: '\\', interp: '#{', multiline: true }] },
  // Kotlin: nested block comments; "..." on one line and raw """...""" spanning lines, both with ${...} code; '...' chars.
  kotlin: { line: ['//'], block: [], nestedBlock: true, quotes: [], strings: [{ open: '"""', close: '"""', interp: '${', multiline: true, greedy: true }, { open: '"', close: '"', escape: '\\', interp: '${' }, { open: "'", close: "'", escape: '\\' }] },
  // Lua: -- line comments, --[[ ]] / --[==[ ]==] block comments, long strings [[ ]] / [==[ ]==], "..." and '...' on one line.
  lua: { line: [], block: [], quotes: [], lua: true, strings: [{ open: '"', close: '"', escape: '\\' }, { open: "'", close: "'", escape: '\\' }] },
  // PHP: code only inside <?php ... ?> (other text is output: a string); //, # (not #[) and /* */
  // comments; strings span lines; heredocs and nowdocs <<<ID, <<<"ID", <<<'ID'.
  php: { line: [], block: [['/*', '*/']], quotes: [], php: true, strings: [{ open: '"', close: '"', escape: '\\', multiline: true }, { open: "'", close: "'", escape: '\\', multiline: true }, { open: '`', close: '`', escape: '\\', multiline: true }] },
  // Swift: nested block comments; "..." and multi-line """...""", raw #"..."# (escape \#, interpolation \#( ),
  // interpolations \(...) holding code (each string is read per opener, in lexRegions).
  swift: { line: ['//'], block: [], nestedBlock: true, quotes: [], swift: true, strings: [] },
};

const KEYWORDS = {
  js: 'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static await',
  py: 'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield',
  c: 'auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool catch class delete friend mutable namespace new private protected public template this throw try typename using virtual',
  java: 'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while',
  sh: 'if then else elif fi case esac for while until do done in function select time',
  rust: 'as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while async await dyn',
  go: 'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
  ruby: 'BEGIN END __ENCODING__ __END__ __FILE__ __LINE__ alias and begin break case class def defined? do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield',
  // Kotlin's hard keywords (soft ones such as `constructor`, `data`, `value` may name things).
  kotlin: 'as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while',
  lua: 'and break do else elseif end false for function goto if in local nil not or repeat return then true until while',
  php: 'abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile eval exit extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield',
  // Swift's keywords of declarations, statements and expressions (`open`, `get`, `set`... are contextual and may name things).
  swift: 'associatedtype class deinit enum extension fileprivate func import init inout internal let operator private precedencegroup protocol public rethrows static struct subscript typealias var break case catch continue default defer do else fallthrough for guard if in repeat return switch where while Any as await false is nil self Self super throw throws true try',
  cs: 'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while',
};
/** Ruby: words after which a value starts (`when /re/`, `return %w(a)`), not a value themselves. */
const RUBY_BEFORE_VALUE = /^(?:if|elsif|unless|while|until|when|in|and|or|not|return|then|do|else|case|yield|puts|print|raise|p)$/;
const KEYWORD_SETS = Object.fromEntries(Object.entries(KEYWORDS).map(([k, v]) => [k, new Set(v.split(' '))]));

/** The judged family of an editls language id. */
export function familyOf(languageId) {
  return { typescript: 'js', python: 'py', cpp: 'c', java: 'java', shell: 'sh', rust: 'rust', csharp: 'cs', go: 'go', ruby: 'ruby', kotlin: 'kotlin', lua: 'lua', php: 'php', swift: 'swift' }[languageId];
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
  /** Open interpolations (Ruby `#{`, Kotlin `${`, Swift `\(`): the string each resumes, the bracket depth it closes at. */
  const interps = [];
  let nest = 0;
  /** Ruby here-document bodies opened on the current line, in order: [bodyStart, end]. */
  let heredocs = [];
  let inPhp = false;
  /**
   * A string's text from `k` (its opener from `start`) to its closer, or to an interpolation's opener,
   * after which code follows: the region is pushed, the index after it returned.
   */
  const scanString = (start, k, spec) => {
    while (k < n) {
      if (text.startsWith(spec.close, k)) {
        let e = k + spec.close.length;
        // Kotlin: quotes before the closing three are text (`"""a""""`).
        if (spec.greedy) while (text[e] === '"') e++;
        out.push([start, e, 'string']);
        return e;
      }
      if (!spec.multiline && text[k] === '\n') break;
      if (spec.interp && text.startsWith(spec.interp, k)) {
        const e = k + spec.interp.length;
        out.push([start, e, 'string']);
        interps.push({ spec, nest });
        nest++;
        return e;
      }
      k += spec.escape && text.startsWith(spec.escape, k) ? spec.escape.length + 1 : 1;
    }
    const e = Math.min(k, n);
    out.push([start, e, 'string']);
    return e;
  };
  /** Ruby: whether a value can start at `i` (a literal, not an operator): not after a value, or after a command's name and a blank (`puts <<EOS`, `split /,/`). */
  /** `def %(x)`, `fmt.%(x)`, `def /(other)`: an operator method's name, no literal. */
  const operatorName = () => prev === '.' || prevWord === 'def';
  const valueMayStart = () =>
    !operatorName() &&
    (!/[a)\]}"]/.test(prev) || (prev === 'a' && (RUBY_BEFORE_VALUE.test(prevWord) || (/[ \t]/.test(text[i - 1] ?? '') && !/[\s=]/.test(text[i + 1] ?? '')))));
  /** One construct of the families read through `strings` starting at `i`: the index after it, or undefined (code). */
  const lexStep = (c) => {
    // Ruby here-document bodies, reached on the line after their openers: skipped (their regions are pushed).
    if (heredocs.length && i >= heredocs[0][0]) {
      const e = Math.max(i, heredocs[heredocs.length - 1][1]);
      heredocs = [];
      return e;
    }
    if (lx.php) {
      // Text outside <?php ... ?> (and <?= ... ?>) is output.
      if (!inPhp) {
        const open = /<\?(?:php\b|=)/gi;
        open.lastIndex = i;
        const m = open.exec(text);
        const e = m ? m.index : n;
        if (e > i) out.push([i, e, 'string']);
        inPhp = true;
        return m ? e + m[0].length : n;
      }
      if (at('?>')) {
        inPhp = false;
        return i + 2;
      }
      // Line comments end at the line's end or at `?>`; `#[` opens an attribute.
      if (at('//') || (c === '#' && text[i + 1] !== '[')) {
        let e = lineEnd(i);
        const close = text.indexOf('?>', i);
        if (close >= 0 && close < e) e = close;
        out.push([i, e, 'comment']);
        return e;
      }
      // Heredocs and nowdocs: from `<<<` to the closing identifier (indented since PHP 7.3).
      if (at('<<<')) {
        const re = /<<<[ \t]*(["']?)([A-Za-z_]\w*)\1\r?\n/y;
        re.lastIndex = i;
        const m = re.exec(text);
        if (m) {
          const term = new RegExp(`^[ \\t]*${m[2]}\\b`, 'gm');
          term.lastIndex = i + m[0].length;
          const f = term.exec(text);
          const e = f ? f.index + f[0].length : n;
          out.push([i, e, 'string']);
          prev = '"';
          return e;
        }
      }
    }
    if (lx.lua && (c === '-' || c === '[')) {
      // Long brackets: --[==[ comment ]==] and [==[ string ]==]; otherwise -- comments to the line's end.
      const re = /(--)?\[(=*)\[/y;
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && (m[1] || c === '[')) {
        const close = `]${m[2]}]`;
        const k = text.indexOf(close, i + m[0].length);
        const e = k < 0 ? n : k + close.length;
        out.push([i, e, m[1] ? 'comment' : 'string']);
        prev = '"';
        return e;
      }
      if (at('--')) {
        const e = lineEnd(i);
        out.push([i, e, 'comment']);
        return e;
      }
    }
    if (lx.nestedBlock && at('/*')) {
      let depth = 0;
      let k = i;
      while (k < n) {
        if (text.startsWith('/*', k)) {
          depth++;
          k += 2;
        } else if (text.startsWith('*/', k)) {
          k += 2;
          if (--depth === 0) break;
        } else k++;
      }
      const e = Math.min(k, n);
      out.push([i, e, 'comment']);
      return e;
    }
    if (lx.ruby) {
      const lineStart = i === 0 || text[i - 1] === '\n';
      // =begin ... =end, each at a line's start; __END__ ends the code.
      if (lineStart && c === '=' && /^=begin(?:\s|$)/.test(text.slice(i, i + 7))) {
        const re = /^=end(?:[ \t\r].*)?$/gm;
        re.lastIndex = i + 6;
        const m = re.exec(text);
        const e = m ? m.index + m[0].length : n;
        out.push([i, e, 'comment']);
        return e;
      }
      if (lineStart && c === '_' && /^__END__\r?(?:\n|$)/.test(text.slice(i, i + 9))) {
        out.push([i, n, 'comment']);
        return n;
      }
      // Special globals: $" $' $/ $; ... are names, not strings or comments.
      if (c === '$' && /["'`/\\;,.<>!@&~=*$?:+0-9]/.test(text[i + 1] ?? '')) {
        prev = 'a';
        prevWord = '';
        return i + 2;
      }
      // Character literals: ?a, ?/, ?", ?\n (not the `?` ending a method's name, not a ternary's followed by a blank).
      if (c === '?' && !/[\w?!]/.test(text[i - 1] ?? '')) {
        const m = /\?(?:\\(?:M-|C-|c)?.|[^\s\\])(?![\w])/uy;
        m.lastIndex = i;
        const r = m.exec(text);
        if (r) {
          out.push([i, i + r[0].length, 'string']);
          prev = '"';
          return i + r[0].length;
        }
      }
      // Here-documents <<~ID, <<-ID, <<ID (quoted or not): the body, from the line after the opener (or after the
      // previous body opened on that line) to the terminator, is a string; the rest of the opener's line is code.
      if (at('<<')) {
        const re = /<<([~-]?)(["'`]?)([A-Za-z_]\w*)\2/y;
        re.lastIndex = i;
        const m = re.exec(text);
        // A bare <<ID is also a shift (`a <<b`, `class <<self`): a heredoc only with a capital identifier where a value starts.
        if (m && (m[1] || m[2] || (/^[A-Z_][A-Z0-9_]*$/.test(m[3]) && valueMayStart()))) {
          const bodyStart = heredocs.length ? heredocs[heredocs.length - 1][1] + 1 : lineEnd(i) + 1;
          if (bodyStart <= n) {
            const term = new RegExp(m[1] ? `^[ \\t]*${m[3]}[ \\t]*\\r?$` : `^${m[3]}\\r?$`, 'gm');
            term.lastIndex = bodyStart;
            const f = term.exec(text);
            const e = f ? f.index + f[0].length : n;
            out.push([bodyStart, e, 'string']);
            heredocs.push([bodyStart, e]);
          }
          prev = '"';
          return i + m[0].length;
        }
      }
      // %q(...), %Q[...], %w{...}, %i<...>, %r|...|, %(...): brackets nest, other delimiters close themselves.
      if (c === '%' && valueMayStart()) {
        const re = /%([qQwWiIrsx]?)([^\w\s])/y;
        re.lastIndex = i;
        const m = re.exec(text);
        if (m && (m[1] || '([{<|!/^'.includes(m[2]))) {
          const open = m[2];
          const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[open] ?? open;
          let k = i + m[0].length;
          let depth = 1;
          while (k < n) {
            const ch = text[k];
            if (ch === '\\') k++;
            else if (ch === close) {
              if (--depth === 0) break;
            } else if (ch === open) depth++;
            k++;
          }
          const e = Math.min(n, k + 1);
          out.push([i, e, 'string']);
          prev = '"';
          return e;
        }
      }
      // Regex literals /.../ where a value starts: spanning lines (`/x`) after an operator or a keyword, on one line
      // after a command's name (`split /,/`).
      if (c === '/' && valueMayStart()) {
        // The first unescaped `/` outside `#{...}` ends it (Ruby's lexer: a class does not hide a `/`).
        const multiline = !/[a)\]}"]/.test(prev) || RUBY_BEFORE_VALUE.test(prevWord);
        let k = i + 1;
        let depth = 0;
        while (k < n && (multiline || text[k] !== '\n') && (depth > 0 || text[k] !== '/')) {
          if (text[k] === '\\') k++;
          else if (text[k] === '#' && text[k + 1] === '{') {
            depth++;
            k++;
          } else if (depth > 0 && text[k] === '{') depth++;
          else if (depth > 0 && text[k] === '}') depth--;
          k++;
        }
        if (text[k] === '/') {
          out.push([i, k + 1, 'string']);
          prev = '"';
          return k + 1;
        }
      }
    }
    // Swift strings: #*"..."#* and #*"""..."""#*, the escape and the interpolation taking the same number of #.
    if (lx.swift && (c === '"' || c === '#')) {
      const re = /(#*)("""|")/y;
      re.lastIndex = i;
      const m = re.exec(text);
      if (m) {
        const spec = { close: m[2] + m[1], escape: `\\${m[1]}`, interp: `\\${m[1]}(`, multiline: m[2] === '"""' };
        prev = '"';
        return scanString(i, i + m[0].length, spec);
      }
    }
    const spec = lx.strings.find((s) => at(s.open));
    if (spec) {
      prev = '"';
      return scanString(i, i + spec.open.length, spec);
    }
    return undefined;
  };
  while (i < n) {
    const c = text[i];
    if (lx.strings) {
      const step = lexStep(c);
      if (step !== undefined) {
        i = step;
        continue;
      }
    }
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
    // The bracket that closes an interpolation resumes its string.
    if (lx.strings) {
      if ('([{'.includes(c)) nest++;
      else if (')]}'.includes(c)) {
        nest--;
        const top = interps[interps.length - 1];
        if (top && nest === top.nest) {
          interps.pop();
          i = scanString(i, i + 1, top.spec);
          prev = '"';
          continue;
        }
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
  return regionHolding(regions, offset)?.[2];
}

/** The [start, end, kind] region holding `offset`, or undefined for code. */
function regionHolding(regions, offset) {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = regions[mid];
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return regions[mid];
  }
  return undefined;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `line` declares `name` at column `col` in a shape of the language's grammar (written
 * from the grammar, not from editls's rules): the reason, or undefined.
 */
export function declarationShape(family, line, name, col) {
  let before = line.slice(0, col);
  let after = line.slice(col + name.length);
  // Kotlin and Swift: a name in backquotes (``fun `when`()``) is judged as the bare name.
  if ((family === 'kotlin' || family === 'swift') && before.endsWith('`') && after.startsWith('`')) {
    before = before.slice(0, -1);
    after = after.slice(1);
  }
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
    case 'go': {
      if (/^\s*func\s+$/.test(before)) return 'func before the name';
      if (/^\s*func\s*\((?:[^()]|\([^()]*\))*\)\s*$/.test(before)) return 'a method: func (receiver) before the name';
      if (/(?:^|[^\w.])type\s+$/.test(before)) return 'type before the name';
      if (/^\s*(?:var|const)\s+(?:\w+\s*,\s*)*$/.test(before)) return 'var or const before the name';
      // Inside `var (`, `const (` and `type (` blocks, struct and interface bodies: an indented name (or list of names)
      // opening the line. `name Type` and a bare `name` (a const block's implicit repetition, an embedded field) are
      // no statement's shape; `name = value` is an assignment's too, so the line alone cannot tell (left to ctags).
      if (/^\s+(?:\w+\s*,\s*)*$/.test(before) && /^\s/.test(line)) {
        if (/^(?:\s*,\s*\w+)*\s+(?:\*(?=\S)|\[|map\[|chan\b|<-\s*chan\b|func\b|struct\b|interface\b|[A-Za-z_][\w.]*(?:\[.*\])?\s*(?:$|=(?!=)|`|\/\/|\/\*|\{))/.test(after)) return 'a name and a type at the line start (a var, const, type block or a field)';
        if (/^\s*(?:\/\/.*|\/\*.*)?$/.test(after)) return 'a bare name at the line start (an implicitly repeated const, an embedded field)';
        // An interface method: typed parameters (`(p []byte`) or results after the parameters (`Close() error`).
        if (/^\s*\(\s*\w+(?:\s*,\s*\w+)*\s+(?:[\w\[.]|\*(?=\S)|\.\.\.)/.test(after) || /^\s*\((?:[^()]|\([^()]*\))*\)\s*(?:[\w*\[(]|<-)/.test(after)) return 'an interface method: typed parameters or results';
      }
      return undefined;
    }
    case 'ruby': {
      if (/(?:^|[^\w.:])def\s+(?:(?:self|[A-Za-z_]\w*)\s*(?:\.|::))?$/.test(before)) return 'def before the name';
      if (/(?:^|[^\w.:])(?:class|module)\s+(?:(?:[A-Za-z_]\w*)?::)*$/.test(before)) return 'class or module before the name';
      if (/^[A-Z]/.test(name) && /(?:^|;)\s*(?:(?:[A-Z]\w*)?::)*(?:[A-Z]\w*\s*,\s*)*$/.test(before) && /^\s*(?:,\s*[A-Z]\w*\s*)*(?:=(?![=~>])|\|\|=)/.test(after)) return 'a constant assigned';
      if (/(?:^|[\s;(])attr(?:_reader|_writer|_accessor)?\s*\(?\s*(?::\w+[?!]?\s*,\s*)*:$/.test(before)) return 'an attribute method: attr_* :name';
      if (/(?:^|[\s;])alias\s+:?$/.test(before)) return 'alias names the new method';
      if (/(?:^|[\s;(.])(?:alias_method|define_method)\s*\(?\s*:$/.test(before)) return 'alias_method or define_method names the method';
      return undefined;
    }
    case 'kotlin': {
      if (/(?:^|[^\w.])fun\s+(?:<.*>\s*)?(?:[^=(){}\s][^=(){}]*\.)?$/.test(before)) return 'fun before the name (a receiver type may come between)';
      if (/(?:^|[^\w.])(?:class|interface|object|typealias)\s+$/.test(before)) return 'a type keyword before the name';
      if (/(?:^|[^\w.])(?:val|var)\s+(?:<.*>\s*)?(?:[^=:(){}\s][^=:(){}]*\.)?$/.test(before)) return 'val or var before the name';
      if (/(?:^|[^\w.])(?:val|var)\s*\((?:\s*\w+\s*(?::[^,()]*)?,)*\s*$/.test(before)) return 'a destructuring val or var';
      if (name === 'constructor' && /(?:^|\s)$/.test(before) && /^\s*\(/.test(after)) return 'a constructor';
      return undefined;
    }
    case 'lua': {
      if (/(?:^|[^\w.])function\s+(?:[A-Za-z_]\w*\s*[.:]\s*)*$/.test(before)) return 'function before the name';
      if (/^\s*local\s+(?:[A-Za-z_]\w*\s*(?:<\s*\w+\s*>)?\s*,\s*)*$/.test(before) && /^\s*(?:<\s*\w+\s*>\s*)?(?:=(?!=)|,|;|$|--)/.test(after)) return 'local before the name';
      if (/^\s*(?:[A-Za-z_]\w*\s*[.:]\s*)*$/.test(before) && /^\s*=\s*function\b/.test(after)) return 'a function value bound to the name';
      // A field named by a string key: `["eq?"] = function`, `M['textDocument/rename'] = function`.
      const key = /^\s*(?:[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*\s*)?\[\s*(["'])$/.exec(before);
      if (key && after.startsWith(key[1]) && /^\s*\]\s*=\s*\(?\s*function\b/.test(after.slice(1))) return 'a function value bound to a string key';
      if (/^(?:[A-Za-z_]\w*\s*\.\s*)*$/.test(before) && /^\s*=(?!=)/.test(after)) return 'an assignment at the line start (a global or a module field)';
      return undefined;
    }
    case 'php': {
      const word = String.raw`(?:^|[^\w$>:\\])`;
      if (new RegExp(String.raw`${word}function\s+&?\s*$`).test(before)) return 'function before the name';
      if (new RegExp(String.raw`${word}(?:class|interface|trait|enum)\s+$`).test(before)) return 'a type keyword before the name';
      if (new RegExp(String.raw`${word}namespace\s+(?:\w+\\)*$`).test(before)) return 'namespace before the name';
      if (new RegExp(String.raw`${word}const\s+(?:[\w\\?|]+\s+)?$|${word}const\s.*,\s*$`).test(before) && /^\s*=/.test(after)) return 'const before the name';
      if (/^\s*case\s+$/.test(before) && /^\s*(?:=|;)/.test(after)) return 'an enum case';
      if (new RegExp(String.raw`${word}define\s*\(\s*['"]$`, 'i').test(before)) return 'define() names a constant';
      // Properties (and promoted constructor parameters): modifiers, an optional type, then $name.
      if (/(?:^|[(,])\s*(?:#\[.*\]\s*)?(?:(?:public|private|protected|static|var|readonly|final|abstract)(?:\(set\))?\s+)+(?:[?\w\\|&()]+\s+)?\$?$/.test(before) && /^\s*(?:[=;,)]|$|\/\/|#|\/\*)/.test(after)) return 'a property: modifiers before the name';
      if (/^\$?$/.test(before) && /^\s*=(?![=>])/.test(after)) return 'a global assignment at the line start';
      return undefined;
    }
    case 'swift': {
      const mods = String.raw`(?:(?:@[\w.]+(?:\([^)]*\))?|public|private|internal|fileprivate|open|package|final|override|required|convenience|static|class|mutating|nonmutating|nonisolated|dynamic|optional|(?:public|private|internal|fileprivate|package)\(set\))\s+)*`;
      if (/(?:^|[^\w.])func\s+$/.test(before)) return 'func before the name';
      if (/(?:^|[^\w.])(?:class|struct|enum|protocol|typealias|actor|associatedtype|precedencegroup)\s+$/.test(before)) return 'a type keyword before the name';
      if (/(?:^|[^\w.])extension\s+(?:\w+\.)*$/.test(before)) return 'extension names the type it extends';
      if (/(?:^|[^\w.])(?:prefix|infix|postfix)\s+operator\s+$/.test(before)) return 'an operator declaration';
      // Bindings, not the optional bindings and patterns of conditions, cases and loops (`if let x`, `case let .a(x)`).
      if (/(?:^|[^\w.])(?:let|var)\s+$|(?:^|[^\w.])(?:let|var)\s*\((?:\s*\w+\s*,)*\s*$/.test(before) && !/(?:^|[^\w.])(?:if|guard|while|case|catch|for)\b/.test(before)) return 'let or var before the name';
      // Enum cases: `case a`, `case a, b`, `case a(Int)`, `case a = 1`; not a switch's `case a:` or `case .a`.
      if (/^\s*(?:indirect\s+)?case\s+(?:\w+(?:\([^()]*\))?(?:\s*=\s*[^,:]+?)?\s*,\s*)*$/.test(before) && !after.replace(/\([^()]*\)/g, '').includes(':')) return 'an enum case';
      if (new RegExp(`^\\s*${mods}$`).test(before)) {
        if (name === 'init' && /^[?!]?\s*(?:<.*>)?\s*\(/.test(after)) return 'an initializer';
        if (name === 'deinit' && /^\s*(?:\{|$)/.test(after)) return 'a deinitializer';
        if (name === 'subscript' && /^\s*(?:<.*>)?\s*\(/.test(after)) return 'a subscript';
      }
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

/** Declaration shapes whose name may be a keyword of the language. */
const KEYWORD_NAMES = new Set(['def before the name', 'an attribute method: attr_* :name', 'alias names the new method', 'alias_method or define_method names the method', 'function before the name', 'const before the name', 'an enum case', 'an initializer', 'a deinitializer', 'a subscript']);
/** Declaration shapes whose name is written as a string. */
const STRING_NAMES = new Set(['define() names a constant', 'a function value bound to a string key']);

/**
 * The verdict on one symbol: `{ verdict: 'true' | 'false', reason }`. `lineText` is its line,
 * `offset` the name's offset in the file, `regions` the file's lexRegions, `ctagsOnLine` whether
 * ctags tags the same name on that line.
 */
export function judge({ family, name, lineText, col, offset, regions, ctagsOnLine }) {
  const held = regionHolding(regions, offset);
  const region = held?.[2];
  const shape = declarationShape(family, lineText, name, col);
  if (region === 'comment') return { verdict: 'false', reason: 'inside a comment' };
  // A name that is a string literal of its own (opening right before it) in a declaration: `define('NAME', 1)`, `["eq?"] = function`.
  if (region === 'string' && !(STRING_NAMES.has(shape) && held[0] === offset - 1)) return { verdict: 'false', reason: 'inside a string' };
  // A keyword names nothing, except a JavaScript property or method (`delete(key) {`, `exports.default = function`), a C
  // macro (`#define const`), a Ruby or PHP method (`def end`, `public function list(`), a PHP class constant, Swift's
  // init/deinit/subscript, and a name in backquotes (Kotlin, Swift: ``func `default`()``).
  const escaped = (family === 'kotlin' || family === 'swift') && lineText[col - 1] === '`' && lineText[col + name.length] === '`';
  const keywordAllowed = (family === 'js' && shape && !shape.startsWith('keyword')) || shape === '#define' || KEYWORD_NAMES.has(shape) || escaped;
  if (KEYWORD_SETS[family]?.has(name) && !keywordAllowed) return { verdict: 'false', reason: 'a keyword' };
  if (ctagsOnLine) return { verdict: 'true', reason: 'ctags tags it on its line' };
  if (shape) return { verdict: 'true', reason: `declaration shape: ${shape}` };
  return { verdict: 'false', reason: 'no declaration of the name on its line (a call, a use or a statement)' };
}
