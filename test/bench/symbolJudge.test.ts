// The bench's false-symbol judge (test/bench/symbolJudge.mjs): comments and strings found by its
// lexers, keywords, ctags' confirmation and the declaration shapes, each verdict with its reason.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the bench, without types
import { declarationShape, judge, lexRegions, regionAt } from './symbolJudge.mjs';

/** The region kind at the first occurrence of `marker` in `text`. */
function at(text: string, family: string, marker: string): string | undefined {
  return regionAt(lexRegions(text, family), text.indexOf(marker));
}

function verdict(family: string, text: string, name: string, ctagsOnLine = false): string {
  // The name's last occurrence as a whole word.
  const offset = [...text.matchAll(new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$&')}(?![\\w$])`, 'g'))].pop()!.index!;
  const lineStart = text.lastIndexOf('\n', offset) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const lineText = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
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
