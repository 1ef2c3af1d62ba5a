// The bench's false-symbol judge (test/bench/symbolJudge.mjs): comments and strings found by its
// lexers, keywords, ctags' confirmation and the declaration shapes, each verdict with its reason.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the bench, without types
import { declarationShape, familyOf, judge, lexRegions, regionAt } from './symbolJudge.mjs';

/** The region kind at the first occurrence of `marker` in `text`. */
function at(text: string, family: string, marker: string): string | undefined {
  return regionAt(lexRegions(text, family), text.indexOf(marker));
}

function verdict(family: string, text: string, name: string, ctagsOnLine = false): string {
  // The name's last occurrence as a whole word.
  const offset = [...text.matchAll(new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'g'))].pop()!.index!;
  const lineStart = text.lastIndexOf('\n', offset) + 1;
  const lineEnd = text.indexOf('\n', offset);
  // As the bench reads lines: without a CRLF's carriage return.
  const lineText = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  const v = judge({ family, name, lineText, col: offset - lineStart, offset, regions: lexRegions(text, family), ctagsOnLine });
  return `${v.verdict}: ${v.reason}`;
}

describe('symbol judge', () => {
  it('lexes comments and strings per language: template literals with code inside, regex literals, triple quotes, here-documents, raw strings', () => {
    const js = 'const a = `x ${f(`y`)} function inT() {`;\nconst r = /[\'"]/; function code() {}\n/* function c() {} */ // function d() {}\n';
    expect(at(js, 'js', 'inT')).toBe('string');
    expect(at(js, 'js', 'f(')).toBeUndefined();
    expect(at(js, 'js', 'code')).toBeUndefined();
    expect(at(js, 'js', 'c()')).toBe('comment');
    expect(at(js, 'js', 'd()')).toBe('comment');
    const py = 'x = """\ndef inDoc():\n"""\ndef real(): pass  # def zz():\n';
    expect(at(py, 'py', 'inDoc')).toBe('string');
    expect(at(py, 'py', 'real')).toBeUndefined();
    expect(at(py, 'py', 'zz')).toBe('comment');
    const sh = 'cat <<\'EOF\' > a.c\nfoo();\nEOF\nbar() { echo "$#"; }\n';
    expect(at(sh, 'sh', 'foo')).toBe('string');
    expect(at(sh, 'sh', 'bar')).toBeUndefined();
    expect(at('auto s = R"x(int f() {)x"; int g();', 'c', 'f()')).toBe('string');
    expect(at('auto s = R"x(int f() {)x"; int g();', 'c', 'g()')).toBeUndefined();
  });

  it('verdicts: comments, strings and keywords are false; ctags on the line or a declaration shape is true; a call is false', () => {
    expect(verdict('js', '/**\n *   init(a) { }\n */', 'init', true)).toBe('false: inside a comment');
    expect(verdict('js', 'const s = `\nfunction gen() {\n`;', 'gen')).toBe('false: inside a string');
    expect(verdict('js', 'class A {\n  delete(key) {\n  }\n}', 'delete')).toMatch(/^true: declaration shape: member/);
    expect(verdict('js', 'exports.f = function () {', 'f')).toMatch(/^true: declaration shape: a function or class value/);
    expect(verdict('js', 'interface A {\n  on(event: "x"): this;\n}', 'on')).toMatch(/^true: declaration shape: member/);
    expect(verdict('js', 'run(a, b);', 'run')).toBe('false: no declaration of the name on its line (a call, a use or a statement)');
    expect(verdict('c', 'typedef int (*Fn)(void);', 'int')).toBe('false: a keyword');
    expect(verdict('c', '#define const', 'const')).toBe('true: declaration shape: #define');
    expect(verdict('c', '  recordDependence(AA, const_cast<X &>(*Q),', 'recordDependence')).toMatch(/^false: no declaration/);
    expect(verdict('c', '  FmtAlign(detail::format_adapter &Adapter, AlignStyle Where,', 'FmtAlign')).toMatch(/^true: declaration shape: a function header/);
    expect(verdict('c', 'int main(int argc) {', 'main', true)).toBe('true: ctags tags it on its line');
    expect(verdict('py', 'try: _flatten = _tkinter._flatten', 'try')).toBe('false: a keyword');
    expect(verdict('py', 'try: _flatten = _tkinter.flatten', '_flatten')).toBe('true: declaration shape: module-level assignment');
    expect(declarationShape('sh', 'deploy () {', 'deploy', 0)).toBe('name() at the line start');
    expect(declarationShape('java', '    return foo(x);', 'foo', 11)).toBeUndefined();
    expect(declarationShape('java', '    byte readByte() throws IOException;', 'readByte', 9)).toMatch(/method header/);
  });
  it('Rust and C#: raw strings, char literals and lifetimes, verbatim strings; item keywords, methods, properties and operators', () => {
    const rs = 'fn a() { let s = r#"fn fake() {}"#; let q = \'"\'; }\nfn b<\'a>(x: &\'a str) { g(); }\n/* fn c() */\nconst X: u8 = 1;\nlet t = "two\nfn lines() {}";\n';
    expect(at(rs, 'rust', 'fake')).toBe('string');
    expect(at(rs, 'rust', 'b<')).toBeUndefined();
    expect(at(rs, 'rust', 'g()')).toBeUndefined();
    expect(at(rs, 'rust', 'c()')).toBe('comment');
    expect(at(rs, 'rust', 'lines')).toBe('string');
    expect(verdict('rust', rs, 'X')).toBe('true: declaration shape: an item keyword before the name');
    expect(verdict('rust', 'fn f() {\n    g(1);\n}\n', 'g')).toBe('false: no declaration of the name on its line (a call, a use or a statement)');
    const cs = 'var s = @"class A "" {\n}";\nclass B {\n    public int Count { get; }\n    public static explicit operator byte(J v) => 1;\n    void Run(int a) {\n        Foo(a);\n    }\n}\n';
    expect(at(cs, 'cs', 'class A')).toBe('string');
    expect(at(cs, 'cs', 'class B')).toBeUndefined();
    expect(verdict('cs', cs, 'Count')).toBe('true: declaration shape: a property: a type before the name, a body or an arrow after it');
    expect(verdict('cs', cs, 'Run')).toBe('true: declaration shape: a method or constructor header: a type or modifiers before the name, parameters after it');
    expect(verdict('cs', cs, 'Foo')).toBe('false: no declaration of the name on its line (a call, a use or a statement)');
  });
});

/** Lexing tables: [text, marker, kind of the region at the marker's first occurrence (undefined: code)]. */
type LexCase = [string, string, 'comment' | 'string' | undefined];

const LEX_CASES: Record<string, LexCase[]> = {
  go: (() => {
    const src = ['package p', '', '// func inLine() {}', '/* func inBlock()', ' */', 'var s = `raw', 'func inRaw() {}', '` + "esc \\" func inStr()" + \'"\' + \'\\\'\'', 'func real() {}', '\tt := "\t漢字 😀 func inCjk()"; u := f(t)', ''].join('\n');
    const crlf = '// func c1()\r\nfunc a() {}\r\ns := "x\r\nfunc b() {}\r\nr := `y\r\nfunc c() {}\r\n`\r\nfunc d() {}';
    return [
      [src, 'inLine', 'comment'],
      [src, 'inBlock', 'comment'],
      [src, 'inRaw', 'string'],
      [src, 'inStr', 'string'],
      [src, 'real', undefined],
      [src, 'inCjk', 'string'],
      [src, 'f(t)', undefined],
      [crlf, 'c1', 'comment'],
      [crlf, 'a()', undefined],
      // A "..." string ends at its line's end; a raw string spans lines.
      [crlf, 'b()', undefined],
      [crlf, 'c()', 'string'],
      [crlf, 'd()', undefined],
      // No final newline: an unterminated raw string runs to the end.
      ['x := 1 // end', 'end', 'comment'],
      ['s := `open\nfunc z()', 'z()', 'string'],
    ];
  })(),
  ruby: (() => {
    const src = [
      '# def c1',
      '=begin',
      'def c2',
      '=end',
      'def real1; end',
      'x = "a #{f("def q")} def s1"',
      "y = 'a\\' def s2'",
      'w = %w(a (def s3) b); def real2; end',
      'v = %q{def s4}',
      "foo(<<~A, <<-'B')",
      '  def h1',
      'A',
      '  def h2',
      '  B',
      'def real3; end',
      's = <<EOS',
      'def h3',
      'EOS',
      'class << self; def real4; end; end',
      'r = /"def r1/; def real5; end',
      'def fmt.%(x) real6 end',
      'c = ?"; def real7; end',
      '$" << "x"; def real8; end',
      'z = a / b; def real9; x = d / e',
      'm = "one',
      'def ml',
      '"',
      'split /,/; def real10; end',
      '__END__',
      'def d1',
    ].join('\n');
    // The same cases with CRLF line endings.
    const crlf = 'a = 1\r\n=begin\r\ndef c\r\n=end\r\ndef r; end\r\nx = <<~E\r\n  def h\r\n  E\r\ndef t; end';
    return [
      [src, 'c1', 'comment'],
      [src, 'c2', 'comment'],
      [src, 'real1', undefined],
      [src, 'f(', undefined],
      [src, 'q"', 'string'],
      [src, 's1', 'string'],
      [src, 's2', 'string'],
      [src, 's3', 'string'],
      [src, 'real2', undefined],
      [src, 's4', 'string'],
      [src, 'foo(', undefined],
      [src, 'h1', 'string'],
      [src, 'h2', 'string'],
      [src, 'real3', undefined],
      [src, 'h3', 'string'],
      [src, 'real4', undefined],
      [src, 'r1', 'string'],
      [src, 'real5', undefined],
      [src, 'real6', undefined],
      [src, 'real7', undefined],
      [src, 'real8', undefined],
      [src, 'real9', undefined],
      [src, 'ml', 'string'],
      [src, 'real10', undefined],
      [src, 'd1', 'comment'],
      [crlf, 'def c', 'comment'],
      [crlf, 'def r', undefined],
      [crlf, 'def h', 'string'],
      [crlf, 'def t', undefined],
      ['\ts = "\t漢字 😀 def e"; def after; end', 'def e', 'string'],
      ['\ts = "\t漢字 😀 def e"; def after; end', 'after', undefined],
      ['x = 1 # def tail', 'tail', 'comment'],
    ];
  })(),
  kotlin: (() => {
    const src = [
      '// fun c1()',
      '/* a /* nested */ fun c2() */ fun real1() {}',
      'val s = "a ${f("fun q()")} fun s1"',
      'val t = "$name fun s2"',
      'val r = """',
      'fun raw1()',
      '${g()} "',
      '""""; fun real2() {}',
      "val c = '\"'; val d = '\\''; fun real3() {}",
      'val u = "open',
      'fun real4() {}',
      '\tval e = "\t漢字 😀 fun e1()"; fun real5() {}',
    ].join('\n');
    // The same cases with CRLF line endings.
    const crlf = 'val a = 1\r\n/* x\r\nfun c() */\r\nfun b() = """\r\nfun s()\r\n"""\r\nfun d() {}';
    return [
      [src, 'c1', 'comment'],
      [src, 'c2', 'comment'],
      [src, 'real1', undefined],
      [src, 'f(', undefined],
      [src, 'q()', 'string'],
      [src, 's1', 'string'],
      [src, 's2', 'string'],
      [src, 'raw1', 'string'],
      [src, 'g()', undefined],
      [src, 'real2', undefined],
      [src, 'real3', undefined],
      // "..." ends at its line's end.
      [src, 'real4', undefined],
      [src, 'e1', 'string'],
      [src, 'real5', undefined],
      [crlf, 'c()', 'comment'],
      [crlf, 'b()', undefined],
      [crlf, 's()', 'string'],
      [crlf, 'd()', undefined],
      ['fun a() {} /* unclosed /* fun z() */', 'z()', 'comment'],
    ];
  })(),
  lua: (() => {
    const src = [
      '-- function c1()',
      '--[[ function c2()',
      ']] function real1() end',
      '--[==[ ]] function c3() ]==] function real2() end',
      'local s = [[function s1()]] .. [==[ ]] function s2() ]==]',
      'local t = "function s3()" .. \'\\\'function s4()\'',
      'local u = a[b[1]] function real3() end',
      '\tlocal v = "\t漢字 😀 function s5()" function real4() end',
    ].join('\n');
    // The same cases with CRLF line endings.
    const crlf = 'local a = 1\r\n--[[\r\nfunction c()\r\n]]\r\nfunction b() end\r\nlocal s = [[\r\nfunction s()\r\n]]';
    return [
      [src, 'c1', 'comment'],
      [src, 'c2', 'comment'],
      [src, 'real1', undefined],
      [src, 'c3', 'comment'],
      [src, 'real2', undefined],
      [src, 's1', 'string'],
      [src, 's2', 'string'],
      [src, 's3', 'string'],
      [src, 's4', 'string'],
      [src, 'real3', undefined],
      [src, 's5', 'string'],
      [src, 'real4', undefined],
      [crlf, 'c()', 'comment'],
      [crlf, 'b()', undefined],
      [crlf, 's()', 'string'],
      ['x = 1 -- function tail()', 'tail', 'comment'],
    ];
  })(),
  php: (() => {
    const src = [
      '<h1>function html1()</h1>',
      '<?php',
      'function real1() {}',
      '// function c1()',
      '# function c2()',
      '#[Attr]',
      'function real2() {}',
      '/* function c3() */',
      '$s = "function s1() {$a[\'x\']}"; $t = \'function s2()\';',
      '$h = <<<EOT',
      'function h1()',
      'EOT;',
      '$n = <<<\'NOW\'',
      '  function h2()',
      '  NOW;',
      'function real3() {} // comment ?> function html2()',
      '<?php function real4() {}',
      '?>',
      '<p>function html3()</p>',
      '<?= f() ?>',
      '<?php $e = "\t漢字 😀 function s3()"; function real5() {}',
    ].join('\n');
    // The same cases with CRLF line endings.
    const crlf = '<?php\r\n/*\r\nfunction c()\r\n*/\r\nfunction b() {}\r\n$s = "\r\nfunction s()\r\n";\r\nfunction d() {}';
    return [
      [src, 'html1', 'string'],
      [src, 'real1', undefined],
      [src, 'c1', 'comment'],
      [src, 'c2', 'comment'],
      [src, 'Attr', undefined],
      [src, 'real2', undefined],
      [src, 'c3', 'comment'],
      [src, 's1', 'string'],
      [src, 's2', 'string'],
      [src, 'h1', 'string'],
      [src, 'h2', 'string'],
      [src, 'real3', undefined],
      [src, 'html2', 'string'],
      [src, 'real4', undefined],
      [src, 'html3', 'string'],
      [src, 'f()', undefined],
      [src, 's3', 'string'],
      [src, 'real5', undefined],
      [crlf, 'c()', 'comment'],
      [crlf, 'b()', undefined],
      [crlf, 's()', 'string'],
      [crlf, 'd()', undefined],
      ['<?php\n$x = 1; # function tail()', 'tail', 'comment'],
    ];
  })(),
  swift: (() => {
    const src = [
      '// func c1()',
      '/* a /* nested */ func c2() */ func real1() {}',
      'let s = "func s1() \\(f("func q()")) func s2()"',
      'let m = """',
      'func ml()',
      '"""; func real2() {}',
      'let r = #"func r1() \\(notCode) \\#(g()) "#; func real3() {}',
      'let r2 = ##"a "# func r3() "##; func real4() {}',
      '\tlet e = "\t漢字 😀 func e1()"; func real5() {}',
    ].join('\n');
    // The same cases with CRLF line endings.
    const crlf = 'let a = 1\r\n/* x\r\nfunc c() */\r\nlet b = """\r\nfunc s()\r\n"""\r\nfunc d() {}';
    return [
      [src, 'c1', 'comment'],
      [src, 'c2', 'comment'],
      [src, 'real1', undefined],
      [src, 's1', 'string'],
      [src, 'f(', undefined],
      [src, 'q()', 'string'],
      [src, 's2', 'string'],
      [src, 'ml', 'string'],
      [src, 'real2', undefined],
      [src, 'r1', 'string'],
      [src, 'notCode', 'string'],
      [src, 'g()', undefined],
      [src, 'real3', undefined],
      [src, 'r3', 'string'],
      [src, 'real4', undefined],
      [src, 'e1', 'string'],
      [src, 'real5', undefined],
      [crlf, 'c()', 'comment'],
      [crlf, 's()', 'string'],
      [crlf, 'd()', undefined],
      ['let a = "x" // func tail()', 'tail', 'comment'],
    ];
  })(),
};

/** Verdict tables: [text (the name's last occurrence is judged), name, expected: an exact verdict, or `shape` for any declaration shape]. */
type VerdictCase = [string, string, string];
const SHAPE = 'shape';
const NO_DECL = 'false: no declaration of the name on its line (a call, a use or a statement)';
const KEYWORD = 'false: a keyword';
const COMMENT = 'false: inside a comment';
const STRING = 'false: inside a string';

const VERDICT_CASES: Record<string, VerdictCase[]> = {
  go: [
    ['func Name(a int) {', 'Name', SHAPE],
    ['func Map[T any](xs []T) []T {', 'Map', SHAPE],
    ['func (r *Reader) Name() error {', 'Name', SHAPE],
    ['func (p *T[K, V]) Name() {', 'Name', SHAPE],
    ['type Name struct {', 'Name', SHAPE],
    ['var x, Name int', 'Name', SHAPE],
    ['const Name = 1', 'Name', SHAPE],
    ['const (\n\tA = iota\n\tName\n)', 'Name', SHAPE],
    ['var (\n\tName   *Type = nil\n)', 'Name', SHAPE],
    ['var (\n\ta, Name []byte\n)', 'Name', SHAPE],
    ['type I interface {\n\tName(p []byte) (n int, err error)\n}', 'Name', SHAPE],
    ['type I interface {\n\tName() error\n}', 'Name', SHAPE],
    ['type S struct {\n\tName string `json:"name"`\n}', 'Name', SHAPE],
    // `name = value` in a block is also an assignment statement: not judged a declaration from the line alone.
    ['var (\n\tName = 1\n)', 'Name', NO_DECL],
    ['func f() {\n\tName(x)\n}', 'Name', NO_DECL],
    ['func f() {\n\tx := Name(1)\n}', 'Name', NO_DECL],
    ['func f() {\n\tch <- v\n}', 'ch', NO_DECL],
    ['func f() {\n\tName.Field = 2\n}', 'Name', NO_DECL],
    ['func f() {\n\treturn\n}', 'return', KEYWORD],
    ['// func Name() {}', 'Name', COMMENT],
    ['s := "func Name() {}"', 'Name', STRING],
    ['s := `\nfunc Name() {}\n`', 'Name', STRING],
  ],
  ruby: [
    ['def name(a)', 'name', SHAPE],
    ['  def self.name', 'name', SHAPE],
    ['def empty?', 'empty?', SHAPE],
    ['def ==(other)', '==', SHAPE],
    // A keyword may name a method.
    ['def end', 'end', SHAPE],
    ['class Name < Base', 'Name', SHAPE],
    ['module Outer::Name', 'Name', SHAPE],
    ['  MAX_SIZE = 10', 'MAX_SIZE', SHAPE],
    ['A, Name = 1, 2', 'Name', SHAPE],
    ['attr_accessor :a, :name', 'name', SHAPE],
    ['alias new_name old_name', 'new_name', SHAPE],
    ['alias_method :name, :old', 'name', SHAPE],
    ['define_method(:name) do', 'name', SHAPE],
    ['  name(1)', 'name', NO_DECL],
    ['x = name', 'name', NO_DECL],
    ['obj.name = 1', 'name', NO_DECL],
    ['MAX_SIZE == 10', 'MAX_SIZE', NO_DECL],
    ['alias new_name old_name', 'old_name', NO_DECL],
    ['if x\nend', 'end', KEYWORD],
    ['# def name', 'name', COMMENT],
    ['=begin\ndef name\n=end', 'name', COMMENT],
    ['x = "def name"', 'name', STRING],
    ['x = <<~RUBY\n  def name\nRUBY', 'name', STRING],
  ],
  kotlin: [
    ['fun name(x: Int) {', 'name', SHAPE],
    ['fun <T> List<T>.name(): T = first()', 'name', SHAPE],
    ['private suspend fun String.name() = length', 'name', SHAPE],
    ['data class Name(val a: Int)', 'Name', SHAPE],
    ['enum class Name { A }', 'Name', SHAPE],
    ['object Name {', 'Name', SHAPE],
    ['sealed interface Name', 'Name', SHAPE],
    ['typealias Name = Map<String, Int>', 'Name', SHAPE],
    ['val name = 1', 'name', SHAPE],
    ['private var name: Int = 0', 'name', SHAPE],
    ['val (a, name) = pair', 'name', SHAPE],
    ['  constructor(x: Int) : this()', 'constructor', SHAPE],
    // A keyword in backquotes is a name.
    ['fun `when`() {}', 'when', SHAPE],
    ['  name(1)', 'name', NO_DECL],
    ['x.name()', 'name', NO_DECL],
    ['val x = name', 'name', NO_DECL],
    ['val s = "${name}"', 'name', NO_DECL],
    ['when (x) {', 'when', KEYWORD],
    ['// fun name()', 'name', COMMENT],
    ['val s = "fun name()"', 'name', STRING],
    ['val s = """\nfun name()\n"""', 'name', STRING],
  ],
  lua: [
    ['function name(a)', 'name', SHAPE],
    ['function M.sub:name()', 'name', SHAPE],
    ['local function name()', 'name', SHAPE],
    ['  name = function() end,', 'name', SHAPE],
    ['M.name = function(x)', 'name', SHAPE],
    ['local name = 1', 'name', SHAPE],
    ['local a, name = 1, 2', 'name', SHAPE],
    ['local name <const> = 1', 'name', SHAPE],
    ['M.name = 5', 'name', SHAPE],
    // A field named by a string key holding a function.
    ['  ["eq?"] = function(a)', 'eq?', SHAPE],
    ["M['name'] = function()", 'name', SHAPE],
    ['  name(1)', 'name', NO_DECL],
    ['  self.name = 5', 'name', NO_DECL],
    ['local x = name', 'name', NO_DECL],
    ['if x then\nend', 'end', KEYWORD],
    ['-- function name()', 'name', COMMENT],
    ['--[[\nfunction name()\n]]', 'name', COMMENT],
    ['local s = "function name()"', 'name', STRING],
    ['local s = [[\nfunction name()\n]]', 'name', STRING],
    ['  ["name"] = 1,', 'name', STRING],
  ],
  php: [
    ['<?php\nfunction name($a) {', 'name', SHAPE],
    ['<?php\n    public static function name(): void', 'name', SHAPE],
    ['<?php\nfunction &name()', 'name', SHAPE],
    // A keyword may name a method.
    ['<?php\n    public function list(): array', 'list', SHAPE],
    ['<?php\nfinal class Name extends Base', 'Name', SHAPE],
    ['<?php\ntrait Name {', 'Name', SHAPE],
    ['<?php\nenum Name: string', 'Name', SHAPE],
    ['<?php\nnamespace App\\Name;', 'Name', SHAPE],
    ['<?php\n    public const NAME = 1;', 'NAME', SHAPE],
    ['<?php\n    const A = 1, NAME = 2;', 'NAME', SHAPE],
    // A constant named by a string.
    ["<?php\ndefine('NAME', 1);", 'NAME', SHAPE],
    ['<?php\n    private ?int $name = null;', '$name', SHAPE],
    ['<?php\n    public function __construct(private readonly Foo $name,', '$name', SHAPE],
    ["<?php\n    case Hearts = 'H';", 'Hearts', SHAPE],
    ['<?php\n$name = 1;', '$name', SHAPE],
    ['<?php\n    $name = 1;', '$name', NO_DECL],
    ['<?php\nname($a);', 'name', NO_DECL],
    ['<?php\n$this->name();', 'name', NO_DECL],
    ['<?php\nFoo::name();', 'name', NO_DECL],
    ['<?php\n    case NAME:', 'NAME', NO_DECL],
    ['<?php\nlist($a, $b) = $arr;', 'list', KEYWORD],
    ['<?php\n// function name()', 'name', COMMENT],
    ['<?php\necho "function name()";', 'name', STRING],
    ['<p>function name()</p>\n<?php echo 1;', 'name', STRING],
    ["<?php\n$x = 'define(\"NAME\", 1)';", 'NAME', STRING],
  ],
  swift: [
    ['func name(a: Int) -> Int {', 'name', SHAPE],
    ['    static func + (lhs: A, rhs: A) -> A {', '+', SHAPE],
    ['final class Name: Base {', 'Name', SHAPE],
    ['struct Name<T> {', 'Name', SHAPE],
    ['indirect enum Name {', 'Name', SHAPE],
    ['protocol Name: AnyObject {', 'Name', SHAPE],
    ['extension Outer.Name {', 'Name', SHAPE],
    ['typealias Name = [String: Int]', 'Name', SHAPE],
    ['let name = 1', 'name', SHAPE],
    ['    private(set) var name: Int', 'name', SHAPE],
    ['    case name', 'name', SHAPE],
    ['    case a, name(Int), c = 3', 'name', SHAPE],
    ['    case name(label: Int)', 'name', SHAPE],
    ['    convenience init?(y: Int) {', 'init', SHAPE],
    ['    subscript(i: Int) -> T {', 'subscript', SHAPE],
    ['    deinit {', 'deinit', SHAPE],
    ['    associatedtype Name', 'Name', SHAPE],
    ['actor Name {', 'Name', SHAPE],
    ['infix operator <=>: ComparisonPrecedence', '<=>', SHAPE],
    // A keyword in backquotes is a name.
    ['func `default`() {}', 'default', SHAPE],
    ['    name(1)', 'name', NO_DECL],
    ['    self.init(x: 1)', 'init', KEYWORD],
    ['if let name = x {', 'name', NO_DECL],
    ['guard let a = b, let name = x else {', 'name', NO_DECL],
    ['    case .name:', 'name', NO_DECL],
    ['    case name:', 'name', NO_DECL],
    ['let s = "\\(name)"', 'name', NO_DECL],
    ['    default:', 'default', KEYWORD],
    ['// func name()', 'name', COMMENT],
    ['let s = "func name()"', 'name', STRING],
    ['let s = #"""\nfunc name()\n"""#', 'name', STRING],
  ],
};

describe('symbol judge: Go, Ruby, Kotlin, Lua, PHP, Swift', () => {
  it('maps editls language ids to the families', () => {
    expect(['go', 'ruby', 'kotlin', 'lua', 'php', 'swift'].map(familyOf)).toEqual(['go', 'ruby', 'kotlin', 'lua', 'php', 'swift']);
  });
  for (const [family, cases] of Object.entries(LEX_CASES)) {
    for (const [text, marker, kind] of cases) {
      it(`${family} lexing: ${JSON.stringify(marker)} in ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is ${kind ?? 'code'}`, () => {
        expect(text.indexOf(marker)).toBeGreaterThanOrEqual(0);
        expect(at(text, family, marker)).toBe(kind);
      });
    }
  }
  for (const [family, cases] of Object.entries(VERDICT_CASES)) {
    for (const [text, name, expected] of cases) {
      it(`${family} verdict: ${name} in ${JSON.stringify(text)}`, () => {
        const v = verdict(family, text, name);
        if (expected === SHAPE) expect(v).toMatch(/^true: declaration shape: /);
        else expect(v).toBe(expected);
      });
    }
  }
  it('keeps CRLF line ends out of the verdicts and confirms by ctags only outside comments and strings', () => {
    expect(verdict('go', 'x := 1\r\nfunc Name() {\r\n}\r\n', 'Name')).toBe('true: declaration shape: func before the name');
    expect(verdict('ruby', 'x = 1\r\n  def name\r\n  end\r\n', 'name')).toBe('true: declaration shape: def before the name');
    expect(verdict('lua', '-- function name()\r\n', 'name', true)).toBe(COMMENT);
    expect(verdict('swift', 'let s = "func name()"', 'name', true)).toBe(STRING);
    expect(verdict('kotlin', '    name(1)', 'name', true)).toBe('true: ctags tags it on its line');
  });
});
