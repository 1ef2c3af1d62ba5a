// computeEdit (editls.edit): before/after tables over line endings, BOM, Unicode and big lines, plus each failure kind.
import { describe, expect, it } from 'vitest';
import { computeEdit } from '../../server/core/edits/edit.js';
import { expectApplied, expectFailure } from './support.js';

const FILE = 'src/a.ts';
const big = 'x'.repeat(500_000) + 'NEEDLE' + 'y'.repeat(500_000);

describe('computeEdit: before/after table', () => {
  const cases: { name: string; before: string; old: string; new: string; all?: boolean; after: string; count?: number }[] = [
    { name: 'plain LF', before: 'a\nb\nc\n', old: 'b', new: 'B', after: 'a\nB\nc\n' },
    {
      name: 'CRLF file, multi-line old/new in \\n form',
      before: 'one\r\ntwo\r\nthree\r\n',
      old: 'one\ntwo',
      new: '1\n2\n2.5',
      after: '1\r\n2\r\n2.5\r\nthree\r\n',
    },
    {
      name: 'CRLF file, old given with \\r\\n',
      before: 'one\r\ntwo\r\nthree\r\n',
      old: 'one\r\ntwo\r\n',
      new: 'uno\r\n',
      after: 'uno\r\nthree\r\n',
    },
    {
      name: 'mixed endings: untouched LF kept, new break takes dominant CRLF',
      before: 'a\r\nb\nc\r\nd\r\n',
      old: 'b\nc',
      new: 'b\nx\nc',
      after: 'a\r\nb\nx\r\nc\r\nd\r\n',
    },
    {
      name: 'mixed endings: LF dominant',
      before: 'a\nb\r\nc\nd\n',
      old: 'c',
      new: 'c1\nc2',
      after: 'a\nb\r\nc1\nc2\nd\n',
    },
    { name: 'BOM kept', before: '\uFEFFhello\r\nworld\r\n', old: 'world', new: 'there', after: '\uFEFFhello\r\nthere\r\n' },
    { name: 'BOM kept when editing the first line', before: '\uFEFFhello\nworld\n', old: 'hello', new: 'hi', after: '\uFEFFhi\nworld\n' },
    { name: 'tab indentation is not space indentation', before: '\tfoo\n    foo\n', old: '    foo', new: '    bar', after: '\tfoo\n    bar\n' },
    { name: 'tab line targeted', before: '\tfoo\n    foo\n', old: '\tfoo', new: '\tbaz', after: '\tbaz\n    foo\n' },
    { name: 'trailing whitespace removed', before: 'x = 1;  \ny = 2;\n', old: 'x = 1;  \n', new: 'x = 1;\n', after: 'x = 1;\ny = 2;\n' },
    { name: 'emoji (surrogate pairs)', before: 'say 😀 hi\n', old: '😀', new: '😁', after: 'say 😁 hi\n' },
    { name: 'emoji inserted after emoji', before: '😀\n', old: '😀', new: '😀😀', after: '😀😀\n' },
    { name: 'CJK', before: '中文字符\n第二行\n', old: '文字', new: '汉字', after: '中汉字符\n第二行\n' },
    { name: 'combining marks', before: 'cafe\u0301 bar\n', old: 'cafe\u0301', new: 'caf\u00e9', after: 'caf\u00e9 bar\n' },
    { name: 'no final newline', before: 'a\nb', old: 'b', new: 'c\nd', after: 'a\nc\nd' },
    { name: 'append to the last line without newline', before: 'a\r\nb', old: 'b', new: 'b\n', after: 'a\r\nb\r\n' },
    { name: '1 MB single line', before: big, old: 'NEEDLE', new: 'pin', after: big.replace('NEEDLE', () => 'pin') },
    { name: '$& $1 $$ stay verbatim', before: 'price: 5\n', old: '5', new: '$& $1 $$ $<x> $`', after: 'price: $& $1 $$ $<x> $`\n' },
    { name: 'replace_all', before: 'a.b.a.b', old: 'a', new: 'x', all: true, after: 'x.b.x.b', count: 2 },
    { name: 'replace_all with a single match', before: 'a.b', old: 'a', new: 'x', all: true, after: 'x.b', count: 1 },
    { name: 'non-overlapping occurrences only', before: 'aaa', old: 'aa', new: 'X', after: 'Xa' },
    { name: 'deletion', before: 'keep\ndrop me\nkeep\n', old: 'drop me\n', new: '', after: 'keep\nkeep\n' },
    { name: 'lone CR file', before: 'a\rb\rc', old: 'b', new: 'B\nX', after: 'a\rB\rX\rc' },
    { name: 'whole text', before: 'abc', old: 'abc', new: '', after: '' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = expectApplied(c.before, computeEdit(c.before, { oldString: c.old, newString: c.new, replaceAll: c.all ?? false }, FILE), c.after);
      expect(r.replacements).toBe(c.count ?? 1);
    });
  }
});

describe('computeEdit: minimal edits', () => {
  it('touches only the changed span on a CRLF file', () => {
    const before = 'alpha\r\nbeta\r\ngamma\r\n';
    const r = expectApplied(before, computeEdit(before, { oldString: 'alpha\nbeta\ngamma', newString: 'alpha\nBETA\ngamma', replaceAll: false }, FILE), 'alpha\r\nBETA\r\ngamma\r\n');
    expect(r.edits).toHaveLength(1);
    const e = r.edits[0]!;
    expect(before.slice(e.start, e.end)).toBe('beta');
    expect(e.newText).toBe('BETA');
  });

  it('never splits a surrogate pair when trimming', () => {
    const before = 'x😀y';
    const r = expectApplied(before, computeEdit(before, { oldString: '😀', newString: '😁', replaceAll: false }, FILE), 'x😁y');
    const e = r.edits[0]!;
    expect(before.slice(e.start, e.end)).toBe('😀');
    expect(e.newText).toBe('😁');
  });
});

describe('computeEdit: failures', () => {
  it('empty old_string on an existing file is already_exists', () => {
    for (const before of ['x', '\n', ' ', '\uFEFF\n']) {
      const f = expectFailure(computeEdit(before, { oldString: '', newString: 'y', replaceAll: false }, FILE), 'already_exists');
      expect(f.message).toContain(FILE);
    }
  });

  it('empty old_string fills an existing empty file (a lone BOM kept), never one with content', () => {
    expectApplied('', computeEdit('', { oldString: '', newString: 'x = 1\n', replaceAll: false }, FILE), 'x = 1\n');
    expectApplied('\uFEFF', computeEdit('\uFEFF', { oldString: '', newString: 'x', replaceAll: false }, FILE), '\uFEFFx');
    const f = expectFailure(computeEdit('', { oldString: '', newString: '', replaceAll: false }, FILE), 'no_change');
    expect(f.message).toContain('already empty');
  });

  it('identical after line-ending normalisation is no_change', () => {
    const f = expectFailure(computeEdit('a\r\nb\r\n', { oldString: 'a\r\nb', newString: 'a\nb', replaceAll: false }, FILE), 'no_change');
    expect(f.message).toContain(FILE);
  });

  it('ambiguous carries count and lines', () => {
    const before = 'foo\nbar\nfoo\nbaz\nfoo\n';
    const f = expectFailure(computeEdit(before, { oldString: 'foo', newString: 'x', replaceAll: false }, FILE), 'ambiguous');
    expect(f.data).toEqual({ count: 3, lines: [1, 3, 5] });
    expect(f.message).toBe('old_string matched 3 times in src/a.ts (lines 1, 3, 5); add surrounding context or set replace_all');
  });

  it('ambiguous on a CRLF file counts lines correctly', () => {
    const before = 'x\r\nfoo\r\n\r\nfoo\r\n';
    const f = expectFailure(computeEdit(before, { oldString: 'foo', newString: 'y', replaceAll: false }, FILE), 'ambiguous');
    expect(f.data).toEqual({ count: 2, lines: [2, 4] });
  });

  it('ambiguous lists at most 50 lines but counts all', () => {
    const before = 'hit\n'.repeat(120);
    const f = expectFailure(computeEdit(before, { oldString: 'hit', newString: 'x', replaceAll: false }, FILE), 'ambiguous');
    expect(f.data?.['count']).toBe(120);
    expect(f.data?.['lines']).toHaveLength(50);
    expect(f.message).toContain('and 110 more');
  });

  it('not_found carries the closest candidate', () => {
    const before = 'const x = 1;\nfunction add(a, b) {\n  return a + b;\n}\nconst y = 2;\n';
    const f = expectFailure(
      computeEdit(before, { oldString: 'function add(a,b) {\n  return a+b;\n}', newString: 'z', replaceAll: false }, FILE),
      'not_found',
    );
    const closest = f.data?.['closest'] as { startLine: number; endLine: number; text: string; similarity: number };
    expect(closest.startLine).toBe(2);
    expect(closest.endLine).toBe(4);
    expect(closest.text).toBe('function add(a, b) {\n  return a + b;\n}');
    expect(closest.similarity).toBeGreaterThanOrEqual(0.8);
    expect(f.message).toContain('lines 2-4');
    expect(f.message).toContain(FILE);
  });

  it('not_found without a close candidate has no data', () => {
    const f = expectFailure(computeEdit('alpha\nbeta\n', { oldString: 'zzzzqqqq', newString: 'x', replaceAll: false }, FILE), 'not_found');
    expect(f.data).toBeUndefined();
  });

  it('strict: whitespace differences do not match', () => {
    expectFailure(computeEdit('  foo();\n', { oldString: 'foo(); ', newString: 'x', replaceAll: false }, FILE), 'not_found');
    expectFailure(computeEdit('\tfoo();\n', { oldString: '    foo();', newString: 'x', replaceAll: false }, FILE), 'not_found');
  });
});
