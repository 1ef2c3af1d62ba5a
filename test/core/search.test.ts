// core/search: file_pattern globs, ripgrep's path order, byte offsets -> UTF-16, line cuts on
// character boundaries, the cap collector, and the contract's text layout (whole texts compared).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileGlob } from '../../server/core/search/glob.js';
import { comparePaths } from '../../server/core/search/pathOrder.js';
import { decodeBytesLine, stripTerminator, truncateLine, utf16OffsetsOfUtf8 } from '../../server/core/search/lineText.js';
import { SearchCollector, type FileHits, type SearchLine } from '../../server/core/search/collect.js';
import { blocksOf, capNotice, columnsIn, layoutText, structuredMatches } from '../../server/core/search/layout.js';

function glob(p: string) {
  const r = compileGlob(p);
  if (!r.ok) throw new Error(r.message);
  return r.glob;
}

describe('compileGlob', () => {
  const table: [pattern: string, yes: string[], no: string[]][] = [
    ['*.ts', ['a.ts', 'src/deep/b.ts', '.hidden.ts'], ['a.tsx', 'a.ts.bak', 'src/a.js']],
    ['*.{ts,tsx}', ['a.ts', 'x/a.tsx'], ['a.js', 'a.t']],
    ['src/*.ts', ['src/a.ts'], ['src/deep/a.ts', 'lib/src/a.ts', 'a.ts']],
    ['src/**/*.ts', ['src/a.ts', 'src/x/y/a.ts'], ['lib/a.ts', 'srcx/a.ts']],
    ['**/test/*.py', ['test/a.py', 'x/y/test/b.py'], ['test/x/a.py', 'a.py']],
    ['src/**', ['src/a', 'src/x/y.z'], ['lib/src/a', 'src']],
    ['docs/', ['docs/a.md', 'docs/x/b.md'], ['a/docs/b.md']],
    ['/top.txt', ['top.txt'], ['x/top.txt']],
    ['./src/*.c', ['src/a.c'], ['x/src/a.c']],
    ['file?.txt', ['file1.txt', 'a/fileX.txt'], ['file10.txt', 'file.txt']],
    ['[abc]*.md', ['a.md', 'cx.md'], ['d.md']],
    ['[!abc]*.md', ['d.md', 'x/zz.md'], ['a.md']],
    ['*.[ch]', ['x.c', 'x.h'], ['x.cc']],
    ['\\*.md', ['*.md'], ['a.md']],
    ['{src,lib}/**/*.rs', ['src/a.rs', 'lib/x/y.rs'], ['bin/a.rs']],
    ['日本*.txt', ['日本語.txt'], ['中文.txt']],
    ['*', ['a', 'x/y/z'], []],
    ['**', ['a', 'x/y/z'], []],
    ['a+b (1).txt', ['a+b (1).txt'], ['aab (1).txt']],
  ];
  for (const [pattern, yes, no] of table) {
    it(`${pattern}`, () => {
      const g = glob(pattern);
      expect(yes.filter((p) => !g.test(p))).toEqual([]);
      expect(no.filter((p) => g.test(p))).toEqual([]);
    });
  }

  it('hands ripgrep only a file-name glob it reads the same way, never a path glob', () => {
    expect(glob('*.ts').fileNameGlob).toBe('*.ts');
    expect(glob('*.{ts,tsx}').fileNameGlob).toBe('*.{ts,tsx}');
    expect(glob('src/**/*.ts').fileNameGlob).toBe('*.ts');
    expect(glob('src/**').fileNameGlob).toBeUndefined();
    expect(glob('[abc].md').fileNameGlob).toBeUndefined();
    expect(glob('a:b.txt').fileNameGlob).toBeUndefined();
    expect(glob('{a/b,c}.txt').fileNameGlob).toBeUndefined();
    expect(glob('*.ts').matchesPath).toBe(false);
    expect(glob('src/*.ts').matchesPath).toBe(true);
  });

  it('reports an unclosed brace instead of guessing', () => {
    const r = compileGlob('*.{ts,js');
    expect(r.ok).toBe(false);
  });
});

describe('comparePaths (ripgrep --sort path)', () => {
  it('walks folders depth-first with names in byte order', () => {
    const paths = ['a.ts', 'a/x.ts', 'a-b.ts', 'B.ts', 'a/b/c.ts', 'z.ts', 'é.ts', '😀.ts', '\uFFFD.ts', 'a/a.ts'];
    // the folder `a` sorts by its name, before `a-b.ts` and `a.ts` (checked against rg in test/workspace)
    expect([...paths].sort(comparePaths)).toEqual(['B.ts', 'a/a.ts', 'a/b/c.ts', 'a/x.ts', 'a-b.ts', 'a.ts', 'z.ts', 'é.ts', '\uFFFD.ts', '😀.ts']);
  });

  it('compares name by name: the same order as splitting at every / and comparing the names', () => {
    const byNames = (a: string, b: string) => {
      const sa = a.split('/');
      const sb = b.split('/');
      for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
        const bytes = Buffer.compare(Buffer.from(sa[i]!), Buffer.from(sb[i]!));
        if (bytes !== 0) return bytes;
      }
      return sa.length - sb.length;
    };
    const name = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', ' ', '!', '0', 'é', '😀', '\uFFFD'), maxLength: 4 });
    const relPath = fc.array(name, { minLength: 1, maxLength: 4 }).map((names) => names.join('/'));
    fc.assert(
      fc.property(relPath, relPath, (a, b) => {
        expect(Math.sign(comparePaths(a, b))).toBe(Math.sign(byNames(a, b)));
      }),
      { numRuns: 3000, seed: 9 },
    );
  });
});

describe('line text', () => {
  it('strips LF and CRLF terminators only', () => {
    expect(stripTerminator('a\r\n')).toBe('a');
    expect(stripTerminator('a\n')).toBe('a');
    expect(stripTerminator('a\r')).toBe('a\r');
    expect(stripTerminator('a')).toBe('a');
  });

  it('maps UTF-8 byte offsets to UTF-16 offsets across é, CJK, emoji', () => {
    const line = 'é日😀x';
    // bytes: é=2, 日=3, 😀=4, x=1
    expect(utf16OffsetsOfUtf8(line, [0, 2, 5, 9, 10])).toEqual([0, 1, 2, 4, 5]);
    expect(utf16OffsetsOfUtf8(line, [9, 0])).toEqual([4, 0]);
  });

  it('ASCII lines and mixed ones, offsets unsorted and out of range: the same as an oracle built on Buffer', () => {
    // The oracle: the longest code-point prefix whose UTF-8 length is at most the offset.
    const oracle = (s: string, b: number) => {
      let units = 0;
      let bytes = 0;
      for (const cp of s) {
        const n = Buffer.byteLength(cp);
        if (bytes + n > b) break;
        bytes += n;
        units += cp.length;
      }
      return units;
    };
    const lone = fc.constantFrom('\ud800', '\udfff', 'a\ud83d', '\ude00b');
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.array(fc.oneof(lone, fc.string({ unit: 'grapheme', maxLength: 4 }))).map((a) => a.join('')));
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -3, max: 200 }), { maxLength: 8 }), (s, offsets) => {
        expect(utf16OffsetsOfUtf8(s, offsets)).toEqual(offsets.map((b) => oracle(s, b)));
      }),
      { numRuns: 3000 },
    );
  });

  it('matches Buffer byte lengths on random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(40), (s, k) => {
        const cps = [...s];
        const cut = Math.min(k, cps.length);
        const prefix = cps.slice(0, cut).join('');
        expect(utf16OffsetsOfUtf8(s, [Buffer.byteLength(prefix)])).toEqual([prefix.length]);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('decodes a non-UTF-8 line with replacement characters and maps offsets into it', () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64]); // "caf\xe9 need" (Latin-1)
    const d = decodeBytesLine(bytes, [5, 9]);
    expect(d.text).toBe('caf\uFFFD need');
    expect(d.text.slice(d.offsets[0], d.offsets[1])).toBe('need');
  });

  it('cuts long lines on character boundaries with the marker', () => {
    const table: [string, number, string][] = [
      ['abcdef', 10, 'abcdef'],
      ['abcdef', 3, 'abc [truncated...]'],
      ['ab😀cd', 3, 'ab😀 [truncated...]'],
      ['ab😀cd', 2, 'ab [truncated...]'],
      ['日本語テキスト', 4, '日本語テ [truncated...]'],
      // a letter and its combining accent stay together
      ['abe\u0301cd', 3, 'ab [truncated...]'],
      ['abe\u0301cd', 4, 'abe\u0301 [truncated...]'],
      // a family emoji (ZWJ sequence) is not split
      ['ab👨‍👩‍👧z', 4, 'ab [truncated...]'],
      ['ab👨‍👩‍👧z', 7, 'ab👨‍👩‍👧 [truncated...]'],
    ];
    for (const [text, max, want] of table) expect(truncateLine(text, max).text).toBe(want);
  });

  it('never leaves a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 1, max: 60 }), (s, max) => {
        const t = truncateLine(s, max).text;
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(t)).toBe(false);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('cuts a 1 MB line fast and exactly', () => {
    const big = '😀'.repeat(500_000);
    const t = truncateLine(big, 500);
    expect(t.text).toBe('😀'.repeat(500) + ' [truncated...]');
  });
});

const L = (line: number, text: string, match = true): SearchLine => ({ line, text, match, submatches: match ? [{ start: 0, end: 1 }] : [] });

function feed(c: SearchCollector, files: [string, SearchLine[], boolean?][]): void {
  for (const [path, lines, binary] of files) {
    if (c.beginFile(path, `file:///ws/${path}`) === 'done') return;
    for (const l of lines) if (c.addLine(l) === 'done') return;
    if (c.endFile(binary ?? false) === 'done') return;
  }
  c.end();
}

describe('SearchCollector', () => {
  it('keeps everything under the cap', () => {
    const c = new SearchCollector(10, 1);
    feed(c, [
      ['a.ts', [L(1, 'x'), L(2, 'y', false)]],
      ['b.ts', [L(5, 'x')]],
    ]);
    expect(c.truncated).toBe(false);
    expect(c.matchCount).toBe(2);
    expect(c.files.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
  });

  it('drops binary files with their hits', () => {
    const c = new SearchCollector(10, 1);
    feed(c, [
      ['a.bin', [L(1, 'x')], true],
      ['b.ts', [L(5, 'x')]],
    ]);
    expect(c.files.map((f) => f.path)).toEqual(['b.ts']);
    expect(c.matchCount).toBe(1);
  });

  it('stops at the first hit past the cap, keeping the last hit after-context', () => {
    const c = new SearchCollector(2, 1);
    const verdicts: string[] = [];
    c.beginFile('a.ts', 'u');
    for (const l of [L(1, 'm'), L(2, 'c', false), L(10, 'm'), L(11, 'm'), L(12, 'c', false)]) verdicts.push(c.addLine(l));
    expect(verdicts).toEqual(['more', 'more', 'more', 'done', 'done']);
    expect(c.truncated).toBe(true);
    expect(c.matchCount).toBe(2);
    // line 11 was a hit past the cap: shown as the context line of hit 10
    expect(c.files[0]!.lines.map((l) => [l.line, l.match])).toEqual([
      [1, true],
      [2, false],
      [10, true],
      [11, false],
    ]);
  });

  it('waits for after-context when the extra hit is within the window (context 2)', () => {
    const c = new SearchCollector(1, 2);
    c.beginFile('a.ts', 'u');
    expect(c.addLine(L(5, 'm'))).toBe('more');
    expect(c.addLine(L(6, 'm'))).toBe('more');
    expect(c.addLine(L(7, 'c', false))).toBe('done');
    expect(c.files[0]!.lines.map((l) => [l.line, l.match])).toEqual([
      [5, true],
      [6, false],
      [7, false],
    ]);
  });

  it('the cap reached exactly at a file end is not truncation unless another hit follows', () => {
    const exact = new SearchCollector(1, 1);
    feed(exact, [['a.ts', [L(1, 'm')]]]);
    expect(exact.truncated).toBe(false);
    const more = new SearchCollector(1, 1);
    feed(more, [
      ['a.ts', [L(1, 'm'), L(2, 'c', false)]],
      ['b.ts', [L(3, 'c', false), L(4, 'm')]],
    ]);
    expect(more.truncated).toBe(true);
    expect(more.files.map((f) => f.path)).toEqual(['a.ts']);
    expect(more.matchCount).toBe(1);
  });
});

function hits(path: string, lines: [number, string, boolean, [number, number][]?][]): FileHits {
  return { path, uri: `file:///ws/${path}`, lines: lines.map(([line, text, match, sub]) => ({ line, text, match, submatches: (sub ?? []).map(([start, end]) => ({ start, end })) })) };
}

describe('layout', () => {
  it('merges consecutive lines into blocks (hits within three lines share one with one context line)', () => {
    const f = hits('a.ts', [
      [1, 'x', false],
      [2, 'hit', true],
      [3, 'x', false],
      [4, 'x', false],
      [5, 'hit', true],
      [6, 'x', false],
      [8, 'x', false],
      [9, 'hit', true],
    ]);
    expect(blocksOf(f.lines).map((b) => b.map((l) => l.line))).toEqual([[1, 2, 3, 4, 5, 6], [8, 9]]);
  });

  it('renders the contract layout', () => {
    const files = [
      hits('src/a.ts', [
        [1, '// TODO: one', true, [[3, 7]]],
        [2, 'const a = 1;   ', false],
      ]),
      hits('src/b.ts', [
        [9, 'x', false],
        [10, 'TODO two', true, [[0, 4]]],
        [1000, 'TODO three', true, [[0, 4]]],
      ]),
    ];
    expect(layoutText(files, 3, false, { maxResults: 300, maxLineLength: 500 })).toBe(
      ['Found 3 results.', '', '# src/a.ts', '  1 | // TODO: one', '  2 | const a = 1;', '----', '', '# src/b.ts', '  9 | x', ' 10 | TODO two', '----', '1000 | TODO three', '----'].join('\n'),
    );
    expect(layoutText([], 0, false, { maxResults: 300, maxLineLength: 500 })).toBe('Found 0 results.');
    expect(layoutText(files.slice(0, 1), 1, false, { maxResults: 300, maxLineLength: 500 }).split('\n')[0]).toBe('Found 1 result.');
    expect(layoutText(files.slice(0, 1), 1, true, { maxResults: 1, maxLineLength: 500 }).split('\n')[0]).toBe(capNotice(1));
    expect(capNotice(300)).toBe('Showing first 300 of 300+ results. Use a more specific search if necessary.');
  });

  it('cuts long lines in the text and in matches, with ranges on the full line', () => {
    const long = '😀'.repeat(30) + 'NEEDLE';
    const files = [hits('a.ts', [[1, long, true, [[60, 66]]]])];
    const text = layoutText(files, 1, false, { maxResults: 300, maxLineLength: 20 });
    expect(text).toContain(`  1 | ${'😀'.repeat(20)} [truncated...]`);
    const [m8] = structuredMatches(files, { maxLineLength: 20, encoding: 'utf-8' });
    const [m16] = structuredMatches(files, { maxLineLength: 20, encoding: 'utf-16' });
    const [m32] = structuredMatches(files, { maxLineLength: 20, encoding: 'utf-32' });
    expect(m8!.range).toEqual({ start: { line: 0, character: 120 }, end: { line: 0, character: 126 } });
    expect(m16!.range.start.character).toBe(60);
    expect(m32!.range).toEqual({ start: { line: 0, character: 30 }, end: { line: 0, character: 36 } });
    expect(m8!.text).toBe(`${'😀'.repeat(20)} [truncated...]`);
  });

  it('columnsIn converts many offsets on one line in one pass', () => {
    const line = 'aé日😀b'.repeat(3);
    const offsets = [0, 1, 2, 3, 5, 6, 12];
    expect(columnsIn(line, offsets, 'utf-8')).toEqual(offsets.map((o) => Buffer.byteLength(line.slice(0, o))));
    expect(columnsIn(line, offsets, 'utf-32')).toEqual(offsets.map((o) => [...line.slice(0, o)].length));
  });
});
