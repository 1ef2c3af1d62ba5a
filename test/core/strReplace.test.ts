// computeStrReplace (editls.strReplace): the three match tiers, allowMultiple, partial success, atomic and no_change.
import { describe, expect, it } from 'vitest';
import { computeStrReplace, type StrReplaceEntry } from '../../server/core/edits/strReplace.js';
import { computeEdit } from '../../server/core/edits/edit.js';
import { execFileSync } from 'node:child_process';
import { expectApplied, expectFailure } from './support.js';

const FILE = 'src/b.ts';
const e = (old: string, neu: string, allowMultiple = false): StrReplaceEntry => ({ old, new: neu, allowMultiple });
const big = 'x'.repeat(500_000) + 'NEEDLE' + 'y'.repeat(500_000);

describe('computeStrReplace: before/after table', () => {
  const cases: {
    name: string;
    before: string;
    entries: StrReplaceEntry[];
    after: string;
    matchedBy?: string[];
    replacements?: number;
  }[] = [
    { name: 'exact', before: 'a\nb\nc\n', entries: [e('b', 'B')], after: 'a\nB\nc\n', matchedBy: ['exact'] },
    {
      name: 'CRLF file',
      before: 'one\r\ntwo\r\nthree\r\n',
      entries: [e('two\nthree', 'two\n2.5\nthree')],
      after: 'one\r\ntwo\r\n2.5\r\nthree\r\n',
      matchedBy: ['exact'],
    },
    {
      name: 'mixed endings keep their own, new breaks take the dominant one',
      before: 'a\r\nb\nc\r\nd\r\n',
      entries: [e('b\nc', 'b\nx\nc')],
      after: 'a\r\nb\nx\r\nc\r\nd\r\n',
    },
    { name: 'BOM kept', before: '\uFEFFx = 1;\r\n', entries: [e('x = 1;', 'x = 2;')], after: '\uFEFFx = 2;\r\n' },
    {
      name: 'tabs vs spaces: tab-indented old matches the tab line only',
      before: '\tfoo\n    foo\n',
      entries: [e('\tfoo', '\tbar')],
      after: '\tbar\n    foo\n',
      matchedBy: ['exact'],
    },
    { name: 'trailing whitespace exact', before: 'x;   \ny;\n', entries: [e('x;   \n', 'x;\n')], after: 'x;\ny;\n' },
    { name: 'emoji', before: 'a 😀 b 👍🏽\n', entries: [e('😀 b 👍🏽', '😎 b 👍')], after: 'a 😎 b 👍\n' },
    { name: 'CJK', before: '名前 = "太郎"\n', entries: [e('"太郎"', '"花子"')], after: '名前 = "花子"\n' },
    { name: 'combining marks', before: 'nai\u0308ve\n', entries: [e('i\u0308', '\u00ef')], after: 'na\u00efve\n' },
    { name: 'no final newline', before: 'a\nlast', entries: [e('last', 'final')], after: 'a\nfinal' },
    { name: '1 MB single line', before: big, entries: [e('NEEDLE', 'pin')], after: big.replace('NEEDLE', () => 'pin') },
    { name: '$& $1 $$ verbatim', before: 'v = 1\n', entries: [e('1', '$& $1 $$')], after: 'v = $& $1 $$\n' },
    {
      name: 'allowMultiple replaces all',
      before: 'x\nx\ny\n',
      entries: [e('x', 'z', true)],
      after: 'z\nz\ny\n',
      replacements: 2,
    },
    {
      name: 'sequential: entry 2 matches text produced by entry 1',
      before: 'let a = 1;\n',
      entries: [e('a = 1', 'b = 1'), e('let b', 'const b')],
      after: 'const b = 1;\n',
      matchedBy: ['exact', 'exact'],
      replacements: 2,
    },
    {
      name: 'indentation tier (spaces)',
      before: 'class A {\n  m() {\n    return 1;\n  }\n}\n',
      entries: [e('m() {\n  return 1;\n}', 'm() {\n  return 2;\n}')],
      after: 'class A {\n  m() {\n    return 2;\n  }\n}\n',
      matchedBy: ['indentation'],
    },
    {
      name: 'indentation tier (tabs), prefix added to every non-empty line of new',
      before: 'fn() {\n\tif (x) {\n\t\ty();\n\t}\n}\n',
      entries: [e('if (x) {\n\ty();\n}', 'if (x) {\n\tz();\n\n\tw();\n}')],
      after: 'fn() {\n\tif (x) {\n\t\tz();\n\n\t\tw();\n\t}\n}\n',
      matchedBy: ['indentation'],
    },
    {
      name: 'indentation tier on a CRLF file',
      before: 'if (a) {\r\n    b();\r\n    c();\r\n}\r\n',
      entries: [e('b();\nc();', 'b();\nd();')],
      after: 'if (a) {\r\n    b();\r\n    d();\r\n}\r\n',
      matchedBy: ['indentation'],
    },
    {
      name: 'whitespace tier',
      before: 'foo(a, b);\n',
      entries: [e('foo(a,b);', 'foo(a, c);')],
      after: 'foo(a, c);\n',
      matchedBy: ['whitespace'],
    },
    {
      name: 'whitespace tier: indented old uses new indentation from the line start',
      before: '  if (x) {\n    y( 1 );\n  }\n',
      entries: [e('   y(1);', '    y(2);')],
      after: '  if (x) {\n    y(2);\n  }\n',
      matchedBy: ['whitespace'],
    },
    {
      name: 'whitespace tier: trailing newline of old and new does not add a line',
      before: 'a  =  1;\nb = 2;\n',
      entries: [e('a = 1;\n', 'a = 3;\n')],
      after: 'a = 3;\nb = 2;\n',
      matchedBy: ['whitespace'],
    },
    {
      name: 'whitespace tier: leading newline of old and new does not add a line',
      before: 'x\n    call( 1 );\n',
      entries: [e('\n  call(1);', '\n    call(2);')],
      after: 'x\n    call(2);\n',
      matchedBy: ['whitespace'],
    },
    {
      name: 'whitespace tier across CRLF lines',
      before: 'f(1,\r\n  2);\r\n',
      entries: [e('f(1, 2);', 'f(1,\n  3);')],
      after: 'f(1,\r\n  3);\r\n',
      matchedBy: ['whitespace'],
    },
    {
      name: 'new identical to matched text counts as no change, others still apply',
      before: 'a b\n',
      entries: [e('a', 'a'), e('b', 'c')],
      after: 'a c\n',
      replacements: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, computeStrReplace(c.before, c.entries, false, FILE), c.after);
      expect(r.failedReplacements).toEqual([]);
      if (c.matchedBy) expect(r.details.map((d) => d.matchedBy)).toEqual(c.matchedBy);
      expect(r.replacements).toBe(c.replacements ?? 1);
    });
  }
});

describe('computeStrReplace: failures and partial success', () => {
  it('ambiguous without allowMultiple (single entry -> overall failure)', () => {
    const f = expectFailure(computeStrReplace('x\ny\nx\n', [e('x', 'z')], false, FILE), 'ambiguous');
    expect(f.data?.['count']).toBe(2);
    expect(f.data?.['lines']).toEqual([1, 3]);
    expect(f.message).toContain('matched 2 times in src/b.ts (lines 1, 3)');
    expect(f.data?.['failedReplacements']).toHaveLength(1);
  });

  it('ambiguous in the indentation tier', () => {
    const before = '  a\n  b\n    a\n    b\n';
    const f = expectFailure(computeStrReplace(before, [e('a\nb', 'c')], false, FILE), 'ambiguous');
    expect(f.data?.['count']).toBe(2);
    expect(f.data?.['lines']).toEqual([1, 3]);
    expect(f.data?.['matchedBy']).toBe('indentation');
  });

  it('allowMultiple in the indentation tier replaces each with its own indentation', () => {
    const before = '  a\n  b\n    a\n    b\n';
    const r = expectApplied(before, computeStrReplace(before, [e('a\nb', 'c\nd', true)], false, FILE), '  c\n  d\n    c\n    d\n');
    expect(r.details).toEqual([{ index: 0, matchedBy: 'indentation', count: 2 }]);
  });

  it('an empty old is invalid_args (nothing applies, even beside good entries)', () => {
    for (const entries of [[e('', 'x')], [e('a', 'b'), e('', 'x')]]) {
      const f = expectFailure(computeStrReplace('a   b\n', entries, false, FILE), 'invalid_args');
      expect(f.message).toContain(FILE);
      expect(f.message).toMatch(/replacements\[\d\]\.old is empty/);
    }
  });

  it('whitespace-only old never matches', () => {
    for (const old of ['   ', '\n\t\n']) {
      const f = expectFailure(computeStrReplace('a   b\n\t\n', [e(old, 'x')], false, FILE), 'not_found');
      expect(f.message).toContain('only whitespace');
      expect(f.message).toContain(FILE);
    }
  });

  it('partial success reports failedReplacements and applies the rest', () => {
    const before = 'one\ntwo\nthree\n';
    const r = expectApplied(
      before,
      computeStrReplace(before, [e('one', '1'), e('missing', 'x'), e('three', '3')], false, FILE),
      '1\ntwo\n3\n',
    );
    expect(r.details).toEqual([
      { index: 0, matchedBy: 'exact', count: 1 },
      { index: 2, matchedBy: 'exact', count: 1 },
    ]);
    expect(r.failedReplacements).toHaveLength(1);
    expect(r.failedReplacements[0]).toMatchObject({ index: 1, kind: 'not_found' });
    expect(r.replacements).toBe(2);
  });

  it('atomic: any failure applies nothing', () => {
    const f = expectFailure(computeStrReplace('one\ntwo\ntwo\n', [e('one', '1'), e('missing', 'x'), e('two', '2')], true, FILE), 'not_found');
    const failed = f.data?.['failedReplacements'] as { index: number; kind: string }[];
    expect(failed.map((x) => [x.index, x.kind])).toEqual([
      [1, 'not_found'],
      [2, 'ambiguous'],
    ]);
    expect(f.message).toContain('replacements[1]');
  });

  it('atomic with everything fine applies all', () => {
    expectApplied('one\ntwo\n', computeStrReplace('one\ntwo\n', [e('one', '1'), e('two', '2')], true, FILE), '1\n2\n');
  });

  it('all entries failing is a failure of the first kind', () => {
    const f = expectFailure(computeStrReplace('a\na\n', [e('a', 'b'), e('zzz', 'y')], false, FILE), 'ambiguous');
    const failed = f.data?.['failedReplacements'] as { index: number; kind: string }[];
    expect(failed.map((x) => x.kind)).toEqual(['ambiguous', 'not_found']);
  });

  it('not_found carries the closest candidate', () => {
    const before = 'start\nconst total = items.reduce((a, b) => a + b, 0);\nend\n';
    const f = expectFailure(computeStrReplace(before, [e('const total = items.reduce((x, y) => x + y, 0);', 'x')], false, FILE), 'not_found');
    expect(f.data?.['closest']).toMatchObject({ startLine: 2, endLine: 2, text: 'const total = items.reduce((a, b) => a + b, 0);' });
  });

  it('not_found lists equally close copies in data.candidates and the message', () => {
    const block = (n: number) => `def area${n}(r):\n    return 3.14159 * r * r\n`;
    const before = `${block(1)}\n${block(2)}\n${block(3)}\n`;
    const f = expectFailure(computeStrReplace(before, [e('def area(r):\n    return 3.1416 * r * r', 'x')], false, FILE), 'not_found');
    const cs = f.data?.['candidates'] as { startLine: number; endLine: number; similarity: number }[];
    expect(cs.map((c) => [c.startLine, c.endLine])).toEqual([[1, 2], [4, 5], [7, 8]]);
    expect(f.data?.['closest']).toEqual(cs[0]);
    expect(f.message).toMatch(/lines 1-2 .*lines 4-5 .*lines 7-8 .*equally close/);
  });

  it('nothing changed overall is no_change', () => {
    expectFailure(computeStrReplace('a b\n', [e('a', 'a')], false, FILE), 'no_change');
    expectFailure(computeStrReplace('a b\n', [e('a', 'z'), e('z', 'a')], false, FILE), 'no_change');
    expectFailure(computeStrReplace('a\r\nb\r\n', [e('a\r\nb', 'a\nb')], false, FILE), 'no_change');
  });

  it('no_change with failures lists them', () => {
    const f = expectFailure(computeStrReplace('a b\n', [e('zzz', 'y'), e('a', 'a')], false, FILE), 'no_change');
    expect(f.data?.['failedReplacements']).toHaveLength(1);
    expect(f.message).toContain('replacements[0].old not found');
  });

  it('a later entry does not see a failed earlier one', () => {
    const before = 'alpha beta\n';
    const r = expectApplied(before, computeStrReplace(before, [e('gamma', 'x'), e('beta', 'delta')], false, FILE), 'alpha delta\n');
    expect(r.failedReplacements.map((f) => f.index)).toEqual([0]);
  });

  it('no entries is invalid_args', () => {
    expectFailure(computeStrReplace('x', [], false, FILE), 'invalid_args');
  });
});

describe('computeStrReplace: minimal edits over several entries', () => {
  it('final edits touch only changed spans, untouched CRLF kept', () => {
    const before = 'l1\r\nl2\r\nl3\r\nl4\r\n';
    const r = expectApplied(before, computeStrReplace(before, [e('l1', 'L1'), e('l4', 'L4'), e('L1\nl2', 'L1\nl2')], false, FILE), 'L1\r\nl2\r\nl3\r\nL4\r\n');
    expect(r.edits.map((x) => before.slice(x.start, x.end))).toEqual(['l', 'l']);
  });
});

/** python3 compiles `source` (undefined when python3 is not installed). */
function pythonCompiles(source: string): boolean | undefined {
  try {
    execFileSync('python3', ['-c', 'import sys; compile(sys.stdin.read(), "t.py", "exec")'], { input: source, stdio: ['pipe', 'ignore', 'ignore'] });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    return false;
  }
}

describe('computeStrReplace: new is re-indented in the file\'s style (tolerant tiers)', () => {
  const cases: { name: string; before: string; entries: StrReplaceEntry[]; after: string; matchedBy: string; python?: boolean }[] = [
    {
      name: 'Go: a tab-indented block edited with 4-space old/new gets tabs at the right depth',
      before: 'func f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n',
      entries: [e('    if x > 0 {\n        return 1\n    }', '    if x > 0 {\n        log(x)\n        return 1\n    }')],
      after: 'func f(x int) int {\n\tif x > 0 {\n\t\tlog(x)\n\t\treturn 1\n\t}\n\treturn 0\n}\n',
      matchedBy: 'whitespace',
    },
    {
      name: 'spaces file, tab-indented old/new: spaces of the file\'s width',
      before: 'class A:\n    def f(self):\n        return 1\n',
      entries: [e('\tdef f(self):\n\t\treturn 1', '\tdef f(self):\n\t\tif self:\n\t\t\treturn 2\n\t\treturn 1')],
      after: 'class A:\n    def f(self):\n        if self:\n            return 2\n        return 1\n',
      matchedBy: 'whitespace',
      python: true,
    },
    {
      name: 'indentation tier with a tab prefix, new written with spaces: tabs in a tab file',
      before: 'fn main() {\n\tif a {\n\t\tb();\n\t}\n}\n',
      entries: [e('if a {\n\tb();\n}', 'if a {\n    b();\n    c();\n}')],
      after: 'fn main() {\n\tif a {\n\t\tb();\n\t\tc();\n\t}\n}\n',
      matchedBy: 'indentation',
    },
    {
      name: 'deeper -> shallower: old copied from inside a class, the file has it at top level',
      before: 'def f(x):\n    if x:\n        return 1\n    return 0\n',
      entries: [e('        if x:\n            return 1', '        if x:\n            y = x * 2\n            return y')],
      after: 'def f(x):\n    if x:\n        y = x * 2\n        return y\n    return 0\n',
      matchedBy: 'indentation',
      python: true,
    },
    {
      name: 'shallower -> deeper with a 2-space agent in a 4-space Python file',
      before: 'class C:\n    def f(self, x):\n        if x:\n            return 1\n        return 0\n',
      entries: [e('if x:\n  return 1', 'if x:\n  for i in x:\n    print(i)\n  return 1')],
      after: 'class C:\n    def f(self, x):\n        if x:\n            for i in x:\n                print(i)\n            return 1\n        return 0\n',
      matchedBy: 'whitespace',
      python: true,
    },
    {
      name: 'Python: new dedents below old\'s first line (an else at the if\'s level)',
      before: 'def g(v):\n    if v:\n        a = 1\n    return a\n',
      entries: [e('  if v:\n      a = 1', '  if v:\n      a = 1\n  else:\n      a = 2')],
      after: 'def g(v):\n    if v:\n        a = 1\n    else:\n        a = 2\n    return a\n',
      matchedBy: 'indentation',
      python: true,
    },
    {
      name: 'YAML: 2-space file, 4-space agent',
      before: 'services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"\n',
      entries: [e('    web:\n        image: nginx', '    web:\n        image: nginx:1.27\n        restart: always')],
      after: 'services:\n  web:\n    image: nginx:1.27\n    restart: always\n    ports:\n      - "80:80"\n',
      matchedBy: 'whitespace',
    },
    {
      name: 'Makefile: recipe lines stay tabs when the agent sends spaces',
      before: 'CC = gcc\n\nall: app\n\napp: main.c\n\t$(CC) -o app main.c\n',
      entries: [e('app: main.c\n    $(CC) -o app main.c', 'app: main.c util.c\n    $(CC) -O2 -o app main.c util.c\n    @echo built')],
      after: 'CC = gcc\n\nall: app\n\napp: main.c util.c\n\t$(CC) -O2 -o app main.c util.c\n\t@echo built\n',
      matchedBy: 'whitespace',
    },
    {
      name: 'CRLF tab file: re-indented lines get tabs and CRLF',
      before: 'void f() {\r\n\tif (a) {\r\n\t\tb();\r\n\t}\r\n}\r\n',
      entries: [e('  if (a) {\n    b();\n  }', '  if (a) {\n    b();\n  } else {\n    c();\n  }')],
      after: 'void f() {\r\n\tif (a) {\r\n\t\tb();\r\n\t} else {\r\n\t\tc();\r\n\t}\r\n}\r\n',
      matchedBy: 'whitespace',
    },
    {
      name: 'one-line old: new\'s lines follow new\'s first line at the file line\'s indentation',
      before: 'func f() {\n\t\treturn 1\n}\n',
      entries: [e('    return 1', '    log()\n    return 2')],
      after: 'func f() {\n\t\tlog()\n\t\treturn 2\n}\n',
      matchedBy: 'whitespace',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, computeStrReplace(c.before, c.entries, false, FILE), c.after);
      expect(r.details.map((d) => d.matchedBy)).toEqual([c.matchedBy]);
      if (c.python) {
        expect(pythonCompiles(c.before)).not.toBe(false);
        expect(pythonCompiles(c.after)).not.toBe(false);
      }
    });
  }

  it('a region whose indentation cannot be mapped is refused with the region and the reason', () => {
    // Old's two lines are level with each other, the file's are not: no level shift explains both.
    const before = 'start\n    x\n  y\nend\n';
    const f = expectFailure(computeStrReplace(before, [e('x\ny', 'X\nY')], false, FILE), 'not_found');
    expect(f.message).toMatch(/lines 2-3 only when whitespace is ignored, but new cannot be re-indented/);
    expect(f.data?.['closest']).toMatchObject({ startLine: 2, endLine: 3, text: '    x\n  y' });
    expect(f.data?.['reason']).toEqual(expect.any(String));
  });

  it('alignment spaces after tabs that old wrote as spaces are refused, not guessed', () => {
    const before = 'func f() {\n\tx := g(a,\n\t      b)\n}\n';
    expectFailure(computeStrReplace(before, [e('    x := g(a,\n          b)', '    x := g(a,\n          c)')], false, FILE), 'not_found');
  });

  it('new that would go left of column 0 is refused, nothing applies', () => {
    const before = 'if a:\n    b = 1\n';
    const f = expectFailure(computeStrReplace(before, [e('        if a:\n            b = 1', '        if a:\n            b = 1\nc = 2')], false, FILE), 'not_found');
    expect(f.message).toContain('left of');
  });

  it('a fuzzy match of several lines must cover whole lines', () => {
    const before = 'x = foo(a,\n  b) + 1\n';
    expectFailure(computeStrReplace(before, [e('foo(a,\nb)', 'bar(a,\nb)')], false, FILE), 'not_found');
    // within one line old may match inside a line
    expectApplied('x = foo( a ) + 1\n', computeStrReplace('x = foo( a ) + 1\n', [e('foo(a)', 'bar(a)')], false, FILE), 'x = bar(a) + 1\n');
  });

  it('allowMultiple: each match re-indented from its own lines', () => {
    const before = '\tif a {\n\t\tx()\n\t}\n\t\tif a {\n\t\t\tx()\n\t\t}\n';
    const r = expectApplied(
      before,
      computeStrReplace(before, [e('if a {\n    x()\n}', 'if a {\n    y()\n}', true)], false, FILE),
      '\tif a {\n\t\ty()\n\t}\n\t\tif a {\n\t\t\ty()\n\t\t}\n',
    );
    expect(r.details[0]).toMatchObject({ matchedBy: 'whitespace', count: 2 });
  });
});

describe('line-number prefixes copied from numbered listings', () => {
  const before = 'def f(x):\n    y = x + 1\n    return y\n\nprint(f(2))\n';
  const cases: { name: string; old: string; neu: string; after: string; style: string; fromNew: boolean }[] = [
    {
      name: 'searchFiles layout in old and new',
      old: '  2 |     y = x + 1\n  3 |     return y',
      neu: '  2 |     y = x + 2\n  3 |     return y',
      after: before.replace('x + 1', 'x + 2'),
      style: 'searchFiles',
      fromNew: true,
    },
    { name: 'cat -n in old only', old: '     2\t    y = x + 1\n', neu: '    y = x * 3\n', after: before.replace('x + 1', 'x * 3'), style: 'cat -n', fromNew: false },
    { name: 'L12: style', old: 'L5: print(f(2))', neu: 'L5: print(f(3))', after: before.replace('f(2)', 'f(3)'), style: 'L12:', fromNew: true },
    { name: 'arrow (numbered read) with an empty line', old: '     3→    return y\n     4→', neu: '     3→    return -y\n     4→', after: before.replace('return y', 'return -y'), style: 'arrow', fromNew: true },
  ];
  for (const c of cases) {
    it(`${c.name}: strReplace and edit use the stripped text and report it`, () => {
      const r = expectApplied(before, computeStrReplace(before, [e(c.old, c.neu)], false, FILE), c.after);
      expect(r.details[0]).toMatchObject({ matchedBy: 'exact', lineNumberPrefixes: c.style, strippedFromNew: c.fromNew });
      const d = expectApplied(before, computeEdit(before, { oldString: c.old, newString: c.neu, replaceAll: false }, FILE), c.after);
      expect(d.extra).toEqual({ lineNumberPrefixes: c.style, strippedFromNew: c.fromNew });
    });
  }

  it('never when old matches as given, when a line lacks a prefix, or when the stripped text is not unique', () => {
    const numbered = '1\tone\n2\ttwo\n';
    // old as given exists: it is used as is (no stripping)
    expectApplied(numbered, computeStrReplace(numbered, [e('1\tone', '1\tONE')], false, FILE), '1\tONE\n2\ttwo\n');
    // a line without a prefix: not_found
    expectFailure(computeStrReplace(before, [e('  2 |     y = x + 1\n    return y', 'z')], false, FILE), 'not_found');
    // stripped text found twice: not_found
    const twice = 'a = 1\na = 1\n';
    expectFailure(computeStrReplace(twice, [e('  1 | a = 1', 'a = 2')], false, FILE), 'not_found');
    expectFailure(computeEdit(twice, { oldString: '  1 | a = 1', newString: 'a = 2', replaceAll: false }, FILE), 'not_found');
  });
});
