// computeSearchAndReplace (editls.searchAndReplace): literal and regex tables over line endings, BOM,
// Unicode and big lines; line scopes and their anchors; every failure kind the computation returns.
import { describe, expect, it } from 'vitest';
import {
  finishSearchAndReplace,
  noMatchMessage,
  prepareSearchAndReplace,
  rewriteCrlfEscapes,
  type SearchAndReplaceArgs,
} from '../../server/core/edits/searchAndReplace.js';
import { scanRegex } from '../../server/core/edits/regexScan.js';
import { computeSearchAndReplace, expectApplied, expectFailure } from './support.js';

const FILE = 'src/c.ts';
const FAMILY = '👨‍👩‍👧'; // ZWJ sequence: 8 UTF-16 units
const ASTRAL_CJK = '𠀀𠀁'; // U+20000, U+20001 (CJK Extension B)
const minified = 'var a=1;'.repeat(131_072); // 1 MB on one line

type Case = { name: string; before: string; after: string; count?: number } & Partial<SearchAndReplaceArgs> & { search: string; replace: string };

function run(c: Case) {
  const { name: _n, before, after: _a, count: _c, ...rest } = c;
  return computeSearchAndReplace(before, { useRegex: false, ignoreCase: false, ...rest }, FILE);
}

function table(title: string, cases: Case[]) {
  describe(title, () => {
    for (const c of cases) {
      it(c.name, () => {
        const r = expectApplied(c.before, run(c), c.after);
        if (c.count !== undefined) expect(r.replacements).toBe(c.count);
      });
    }
  });
}

table('literal mode', [
  { name: 'every match', before: 'a foo b foo\n', search: 'foo', replace: 'bar', after: 'a bar b bar\n', count: 2 },
  { name: 'regex characters are plain text', before: 'a.b(c) axb(c)\n', search: 'a.b(c)', replace: 'Z', after: 'Z axb(c)\n', count: 1 },
  { name: '$& $1 $$ $<x> stay as typed', before: 'price: 5\n', search: '5', replace: '$& $1 $$ $<x> $` $\'', after: "price: $& $1 $$ $<x> $` $'\n" },
  { name: 'ignore_case', before: 'Foo FOO foo fOo\n', search: 'foo', replace: 'x', ignoreCase: true, after: 'x x x x\n', count: 4 },
  { name: 'ignore_case keeps the replacement verbatim', before: 'Foo.\n', search: 'FOO.', replace: '$&!', ignoreCase: true, after: '$&!\n' },
  { name: 'ignore_case with regex characters', before: 'A+B a+b aab\n', search: 'a+b', replace: '_', ignoreCase: true, after: '_ _ aab\n', count: 2 },
  { name: 'non-overlapping, left to right', before: 'aaaa a\n', search: 'aa', replace: 'b', after: 'bb a\n', count: 2 },
  { name: 'deletion', before: 'keep // TODO\nkeep // TODO\n', search: ' // TODO', replace: '', after: 'keep\nkeep\n', count: 2 },
  { name: 'CRLF: a \\n search matches a CRLF break', before: 'one\r\ntwo\r\none\r\ntwo\r\n', search: 'one\ntwo', replace: '1\n2\n3', after: '1\r\n2\r\n3\r\n1\r\n2\r\n3\r\n', count: 2 },
  { name: 'CRLF: search given with \\r\\n', before: 'one\r\ntwo\r\n', search: 'one\r\ntwo', replace: 'x', after: 'x\r\n' },
  { name: 'mixed endings: untouched breaks kept, new ones dominant', before: 'a\r\nb\nc\r\nd\r\n', search: 'b', replace: 'b1\nb2', after: 'a\r\nb1\r\nb2\nc\r\nd\r\n' },
  { name: 'lone CR file', before: 'x\ry\rx\r', search: 'x', replace: 'p\nq', after: 'p\rq\ry\rp\rq\r', count: 2 },
  { name: 'BOM kept', before: '\uFEFFhello\r\nhello\r\n', search: 'hello', replace: 'bye', after: '\uFEFFbye\r\nbye\r\n', count: 2 },
  { name: 'BOM kept when the match is the first character', before: '\uFEFFab', search: 'a', replace: 'A', after: '\uFEFFAb' },
  { name: 'tabs', before: '\tx = 1;\n    x = 1;\n', search: '\tx', replace: '\ty', after: '\ty = 1;\n    x = 1;\n', count: 1 },
  { name: 'emoji (2 units)', before: 'say 😀 and 😀\n', search: '😀', replace: '😁', after: 'say 😁 and 😁\n', count: 2 },
  { name: 'ZWJ family (8 units)', before: `${FAMILY} ${FAMILY}x\n`, search: `${FAMILY}x`, replace: 'fam', after: `${FAMILY} fam\n`, count: 1 },
  { name: 'BMP CJK', before: '中文字符\n中文\n', search: '中文', replace: '汉语', after: '汉语字符\n汉语\n', count: 2 },
  { name: 'astral CJK', before: `${ASTRAL_CJK}\n𠀀\n`, search: '𠀀', replace: '𠀂', after: '𠀂𠀁\n𠀂\n', count: 2 },
  { name: 'no final newline', before: 'a\nend', search: 'end', replace: 'fin\n', after: 'a\nfin\n' },
  { name: '1 MB minified line, 131072 matches', before: minified, search: 'a=1', replace: 'b=22', after: 'var b=22;'.repeat(131_072), count: 131_072 },
]);

table('regex mode', [
  { name: 'digits with $&', before: 'a1 b22 c\n', search: '\\d+', replace: '<$&>', useRegex: true, after: 'a<1> b<22> c\n', count: 2 },
  { name: 'numbered groups', before: 'alice@home bob@work\n', search: '(\\w+)@(\\w+)', replace: '$2 at $1', useRegex: true, after: 'home at alice work at bob\n' },
  { name: 'named groups', before: '2024-05 1999-12\n', search: '(?<y>\\d{4})-(?<m>\\d\\d)', replace: '$<m>/$<y>', useRegex: true, after: '05/2024 12/1999\n' },
  { name: '$$ is a dollar', before: 'cost 5\n', search: '(\\d)', replace: '$$$1', useRegex: true, after: 'cost $5\n' },
  { name: '$10 with one group is $1 then 0', before: 'ab\n', search: '(a)', replace: '$10', useRegex: true, after: 'a0b\n' },
  { name: 'a missing optional group is empty', before: 'ac\n', search: 'a(b)?c', replace: '[$1]', useRegex: true, after: '[]\n' },
  { name: 'ignore_case', before: 'Foo foo FOO\n', search: 'f(o+)', replace: 'b$1', useRegex: true, ignoreCase: true, after: 'boo boo bOO\n', count: 3 },
  { name: '\\n matches a CRLF break', before: 'a\r\nb\r\nc\r\n', search: 'a\\nb', replace: 'X', useRegex: true, after: 'X\r\nc\r\n' },
  { name: '\\r\\n in the pattern is read as \\n', before: 'a\r\nb\r\n', search: 'a\\r\\nb', replace: 'X', useRegex: true, after: 'X\r\n' },
  { name: '\\r?\\n works as written', before: 'a\r\nb\nc\r\n', search: '\\r?\\n', replace: ';', useRegex: true, after: 'a;b;c;', count: 3 },
  { name: 'replacement breaks take the dominant ending', before: 'x,y,z\r\n', search: ',', replace: '\n', useRegex: true, after: 'x\r\ny\r\nz\r\n' },
  { name: 'captured breaks take the dominant ending too', before: 'a\r\nb\r\n', search: '(a)(\\n)(b)', replace: '$3$2$1', useRegex: true, after: 'b\r\na\r\n' },
  { name: 'mixed endings: only matched breaks change', before: 'p\nq\r\nr\r\n', search: 'q\\n', replace: 'Q\n', useRegex: true, after: 'p\nQ\r\nr\r\n' },
  { name: '^ and $ anchor to the whole text without a range', before: 'foo\nfoo\n', search: '^foo|foo$', replace: 'X', useRegex: true, after: 'X\nfoo\n', count: 1 },
  { name: '$ is the very end of the text without a range', before: 'a\nb', search: 'b$', replace: 'B', useRegex: true, after: 'a\nB' },
  { name: 'empty matches insert like String.replace', before: 'ab\n', search: 'x*', replace: '-', useRegex: true, after: '-a-b-\n-', count: 4 },
  { name: 'BOM kept', before: '\uFEFFk=1\r\n', search: '^k', replace: 'key', useRegex: true, after: '\uFEFFkey=1\r\n' },
  { name: 'emoji and ZWJ family', before: `${FAMILY}😀\n`, search: '😀|\\u200d', replace: '+', useRegex: true, after: '👨+👩+👧+\n', count: 3 },
  { name: 'astral CJK with a class of pairs', before: `${ASTRAL_CJK}!\n`, search: '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])+', replace: '[$&]', useRegex: true, after: `[${ASTRAL_CJK}]!\n` },
  { name: '. on an emoji matches each half (JavaScript without u), no corruption', before: '😀\n', search: '.', replace: 'x', useRegex: true, after: 'xx\n', count: 2 },
  { name: "$` and $' are the scope's prefix and suffix", before: 'ab\n', search: 'b', replace: "[$`|$']", useRegex: true, after: 'a[a|\n]\n' },
  { name: 'tabs', before: '\tx\n\t\ty\n', search: '^\\t+', replace: '  ', useRegex: true, after: '  x\n\t\ty\n' },
  { name: 'no final newline', before: 'a\nb', search: '\\w$', replace: 'Z', useRegex: true, after: 'a\nZ' },
  { name: '1 MB minified line', before: minified, search: 'a=(\\d)', replace: 'b=$1$1', useRegex: true, after: 'var b=11;'.repeat(131_072), count: 131_072 },
]);

table('line ranges', [
  { name: 'only the lines given', before: 'foo\nfoo\nfoo\nfoo\n', search: 'foo', replace: 'x', startLine: 2, endLine: 3, after: 'foo\nx\nx\nfoo\n', count: 2 },
  { name: 'start_line alone runs to the end', before: 'a\na\na\n', search: 'a', replace: 'b', startLine: 2, after: 'a\nb\nb\n' },
  { name: 'end_line alone starts at line 1', before: 'a\na\na\n', search: 'a', replace: 'b', endLine: 2, after: 'b\nb\na\n' },
  { name: 'end_line past the end is clamped', before: 'a\na\n', search: 'a', replace: 'b', startLine: 2, endLine: 99, after: 'a\nb\n' },
  { name: 'a match never crosses the scope edge', before: 'a\nb\nc\n', search: 'b\nc', replace: 'X', startLine: 1, endLine: 2, after: 'a\nb\nc\n', count: 0 },
  { name: 'the break after end_line is outside the scope', before: 'a\nb\n', search: '\\n', replace: ' ', useRegex: true, startLine: 1, endLine: 2, after: 'a b\n', count: 1 },
  { name: '^ and $ anchor to the scope ends', before: 'x\nfoo bar\nfoo bar\nfoo bar\n', search: '^foo|bar$', replace: 'X', useRegex: true, startLine: 2, endLine: 3, after: 'x\nX bar\nfoo X\nfoo bar\n', count: 2 },
  { name: '^ inserts at the start of start_line', before: 'a\nb\nc\n', search: '^', replace: '> ', useRegex: true, startLine: 2, endLine: 2, after: 'a\n> b\nc\n' },
  { name: 'CRLF lines', before: 'a\r\nb\r\nc\r\n', search: 'b\\nc', replace: 'B\nC', useRegex: true, startLine: 2, endLine: 3, after: 'a\r\nB\r\nC\r\n' },
  { name: 'mixed endings count lines alike', before: 'a\nb\r\nc\rd\n', search: '\\w', replace: '#', useRegex: true, startLine: 3, endLine: 4, after: 'a\nb\r\n#\r#\n', count: 2 },
  { name: 'BOM does not shift lines', before: '\uFEFFa\na\n', search: 'a', replace: 'b', startLine: 1, endLine: 1, after: '\uFEFFb\na\n' },
  { name: 'last line without a final newline', before: 'a\nb', search: 'b', replace: 'c', startLine: 2, endLine: 2, after: 'a\nc' },
  { name: 'empty file, line 1', before: '', search: '^', replace: 'new', useRegex: true, startLine: 1, after: 'new' },
  { name: 'astral and ZWJ inside the range', before: `x\n${FAMILY}${ASTRAL_CJK}\n`, search: '𠀁', replace: '!', startLine: 2, endLine: 2, after: `x\n${FAMILY}𠀀!\n` },
]);

describe('no match and no net change', () => {
  it('zero matches is a success with no edit', () => {
    const before = 'alpha\r\nbeta\r\n';
    const r = expectApplied(before, computeSearchAndReplace(before, { search: 'gamma', replace: 'x', useRegex: false, ignoreCase: false }, FILE), before);
    expect(r.replacements).toBe(0);
    expect(r.edits).toEqual([]);
  });

  it('matches replaced by themselves count but edit nothing', () => {
    const before = 'a😀b\n';
    const r = expectApplied(before, computeSearchAndReplace(before, { search: '.', replace: '$&', useRegex: true, ignoreCase: false }, FILE), before);
    expect(r.replacements).toBe(4); // a, each half of the emoji, b (. does not match \n)
    expect(r.edits).toEqual([]);
  });

  it('the no-match message names the pattern, the file and the lines', () => {
    const p = prepareSearchAndReplace('a\nb\n', { search: 'z+', replace: '', useRegex: true, ignoreCase: true, startLine: 1, endLine: 5 }, FILE);
    if (!p.ok) throw new Error(p.message);
    expect(noMatchMessage('editls.searchAndReplace', p.prepared)).toBe('editls.searchAndReplace: no match for /z+/gi in src/c.ts (lines 1-2); nothing changed');
  });

  it('reports the clamped line range', () => {
    const r = computeSearchAndReplace('a\nb\n', { search: 'b', replace: 'c', startLine: 2, endLine: 10, useRegex: false, ignoreCase: false }, FILE);
    expect(r.ok && r.lines).toEqual({ startLine: 2, endLine: 2 });
  });
});

describe('failures', () => {
  const args = (over: Partial<SearchAndReplaceArgs>): SearchAndReplaceArgs => ({ search: 'a', replace: 'b', useRegex: false, ignoreCase: false, ...over });
  const text = 'a\nb\nc\n';

  it('start_line < 1 is invalid_range', () => {
    expectFailure(computeSearchAndReplace(text, args({ startLine: 0 }), FILE), 'invalid_range');
    expectFailure(computeSearchAndReplace(text, args({ startLine: -3, endLine: 2 }), FILE), 'invalid_range');
    expectFailure(computeSearchAndReplace(text, args({ endLine: 0 }), FILE), 'invalid_range');
  });

  it('start_line > end_line is invalid_range', () => {
    const f = expectFailure(computeSearchAndReplace(text, args({ startLine: 3, endLine: 2 }), FILE), 'invalid_range');
    expect(f.message).toContain(FILE);
  });

  it('start_line past the end is invalid_range (a final newline does not open a line)', () => {
    const f = expectFailure(computeSearchAndReplace(text, args({ startLine: 4 }), FILE), 'invalid_range');
    expect(f.message).toBe('start_line 4 is past the end of src/c.ts, which has 3 lines');
    expectFailure(computeSearchAndReplace('', args({ startLine: 2 }), FILE), 'invalid_range');
    expect(computeSearchAndReplace('a\nb', args({ startLine: 2 }), FILE).ok).toBe(true);
  });

  it('non-integer lines are invalid_args', () => {
    expectFailure(computeSearchAndReplace(text, args({ startLine: 1.5 }), FILE), 'invalid_args');
  });

  it('an empty search is invalid_args', () => {
    expectFailure(computeSearchAndReplace(text, args({ search: '' }), FILE), 'invalid_args');
  });

  it('a bad pattern is invalid_regex with the engine reason', () => {
    const f = expectFailure(computeSearchAndReplace(text, args({ search: '(a', useRegex: true }), FILE), 'invalid_regex');
    expect(f.message).toContain('Unterminated group');
    expect(f.message).toContain(FILE);
    expect(String(f.data?.['reason'])).toContain('Invalid regular expression');
  });

  it('a bad pattern in literal mode is just text', () => {
    expectApplied('(a\n', computeSearchAndReplace('(a\n', args({ search: '(a', replace: 'x' }), FILE), 'x\n');
  });

  it('a pattern that would leave half an emoji is refused', () => {
    const before = 'x😀y\n';
    const f = expectFailure(computeSearchAndReplace(before, args({ search: '\\uD83D', replace: '', useRegex: true }), FILE), 'invalid_regex');
    expect(f.message).toContain('half of an emoji');
    expectFailure(computeSearchAndReplace(before, args({ search: '\uDE00', replace: 'z' }), FILE), 'invalid_regex');
  });

  it('a match starting inside an emoji, or an empty match between its halves, is refused too', () => {
    const before = 'x😀y\n';
    for (const search of ['\\uDE00', '(?=\\uDE00)', '(?<=\\uD83D)', '\\uDE00y']) {
      expectFailure(computeSearchAndReplace(before, args({ search, replace: 'z', useRegex: true }), FILE), 'invalid_regex');
    }
    expectFailure(computeSearchAndReplace(before, args({ search: '\uDE00', replace: 'z', ignoreCase: true }), FILE), 'invalid_regex');
    // Replacing a whole emoji, or matching right before or after it, is fine.
    expectApplied(before, computeSearchAndReplace(before, args({ search: '(?=\\uD83D)', replace: '<', useRegex: true }), FILE), 'x<😀y\n');
    expectApplied(before, computeSearchAndReplace(before, args({ search: '(?<=\\uDE00)', replace: '>', useRegex: true }), FILE), 'x😀>y\n');
  });

  it('too many matches or too much output is too_large', () => {
    expectFailure(computeSearchAndReplace('aaaa', args({ maxMatches: 3 }), FILE), 'too_large');
    expectFailure(computeSearchAndReplace('aaaa', args({ search: 'a', replace: '$`$`', useRegex: true, maxOutput: 10 }), FILE), 'too_large');
    expectFailure(computeSearchAndReplace('aaaa', args({ replace: 'bbbb', maxOutput: 10 }), FILE), 'too_large');
  });

  it('scan problems reported by a runner become their failure kinds', () => {
    const p = prepareSearchAndReplace(text, args({ search: '(a+)+$', useRegex: true }), FILE);
    if (!p.ok) throw new Error(p.message);
    const timeout = expectFailure(finishSearchAndReplace(p.prepared, { ok: false, problem: 'timeout', detail: '2000 ms' }), 'regex_timeout');
    expect(timeout.message).toContain('ran longer than 2000 ms on src/c.ts');
    expect(timeout.data).toEqual({ timeoutMs: 2000 });
    expectFailure(finishSearchAndReplace(p.prepared, { ok: false, problem: 'cancelled', detail: '' }), 'cancelled');
    expectFailure(finishSearchAndReplace(p.prepared, { ok: false, problem: 'crashed', detail: 'boom' }), 'io_error');
  });
});

describe('pattern rewriting and the scan', () => {
  it('rewrites \\r\\n escapes outside classes only', () => {
    expect(rewriteCrlfEscapes('a\\r\\nb')).toBe('a\\nb');
    expect(rewriteCrlfEscapes('[\\r\\n]+')).toBe('[\\r\\n]+');
    expect(rewriteCrlfEscapes('\\\\r\\n')).toBe('\\\\r\\n');
    expect(rewriteCrlfEscapes('(\\r\\n)+')).toBe('(\\n)+');
  });

  it('scanRegex is self-contained (it runs as worker source)', () => {
    // eslint-disable-next-line no-new-func
    const standalone = new Function(`return (${scanRegex.toString()});`)() as typeof scanRegex;
    const r = standalone({ text: 'a1b2', source: '(\\d)', flags: 'g', replacement: '<$1>', expand: true, maxMatches: 10, maxOutput: 100 });
    expect(r).toEqual({ ok: true, count: 2, starts: Int32Array.from([1, 3]), ends: Int32Array.from([2, 4]), texts: ['<1>', '<2>'], matched: ['1', '2'] });
  });
});

describe('the body beside the scanned text (crBody)', () => {
  const prepare = (text: string, over: Partial<SearchAndReplaceArgs>) => {
    const p = prepareSearchAndReplace(text, { search: 'b', replace: 'c', useRegex: true, ignoreCase: false, ...over }, FILE);
    if (!p.ok) throw new Error(p.message);
    return p.prepared.job;
  };

  it('is the body (BOM left out) when the whole \\n view of a body holding \\r is scanned by the regex engine', () => {
    for (const text of ['\uFEFFa\r\nb\r\n', 'a\rb\r\n\nc', 'x\r\r\ny\r']) {
      for (const over of [{ useRegex: true }, { useRegex: false, ignoreCase: true }]) {
        const job = prepare(text, over);
        const body = text.replace(/^\uFEFF/u, '');
        expect(job.crBody).toBe(body);
        expect(job.text).toBe(body.replace(/\r\n?/gu, '\n'));
      }
    }
  });

  it('is absent without a \\r, for a line range, and for a literal scanned on the body', () => {
    expect(prepare('a\nb\n', {}).crBody).toBeUndefined();
    expect(prepare('a\r\nb\r\nc\r\n', { startLine: 2, endLine: 3 }).crBody).toBeUndefined();
    expect(prepare('a\r\nb\r\n', { useRegex: false }).crBody).toBeUndefined();
  });
});
