// Text that editls would write but then refuse, or that it must leave alone, through the real server:
// a NUL in new text (refused up front as invalid_args), form feeds at line ends (page breaks, kept
// by trimTrailingWhitespace), and a tiny edit on a huge single line (TextEdits and diffs stay small).
import { describe, expect, it } from 'vitest';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

describe('a NUL in new text is refused before anything is written', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['editls.edit', { file_path: 'a.txt', old_string: 'b', new_string: 'x\u0000y' }, 'new_string'],
    ['editls.edit', { file_path: 'new.txt', old_string: '', new_string: '\u0000' }, 'new_string'],
    ['editls.strReplace', { path: 'a.txt', replacements: [{ old: 'b', new: '\u0000' }] }, 'replacements.0.new'],
    ['editls.searchAndReplace', { path: 'a.txt', search: 'b', replace: 'a\u0000' }, 'replace'],
    [
      'editls.replaceRange',
      { filePath: 'a.txt', startLine: 1, startColumn: 2, endLine: 1, endColumn: 3, expectedText: 'b', replacementText: '\u0000' },
      'replacementText',
    ],
  ];
  for (const [command, args, argument] of cases) {
    it(`${command} (${argument})`, async () => {
      const ws = setup({ 'a.txt': 'abc\n' });
      const client = await start(ws);
      const err = await client.execError(command, args);
      expect(err.data.kind).toBe('invalid_args');
      expect(err.message).toContain(argument);
      expect(err.message).toContain('NUL');
      expect(ws.read('a.txt')).toBe('abc\n');
      // The file stays editable as text.
      await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'b', new_string: 'B' });
      expect(ws.read('a.txt')).toBe('aBc\n');
    });
  }
});

describe('trimTrailingWhitespace keeps form feeds (page breaks)', () => {
  it('removes spaces and tabs only', async () => {
    const text = ';;; Page one\n\f\n(defun f () 1)  \n\f\t\nlast\f\n';
    const ws = setup({ 'a.el': text });
    const client = await start(ws);
    const r = await client.exec('editls.trimTrailingWhitespace', { path: 'a.el' });
    expect(r.replacements).toBe(2);
    expect(ws.read('a.el')).toBe(';;; Page one\n\f\n(defun f () 1)\n\f\nlast\f\n');
  });
});

describe('a 3-character edit on a 5 MB single-line file', () => {
  const line = `${'a'.repeat(2_500_000)}XYZ${'b'.repeat(2_500_000)}`;
  for (const open of [false, true]) {
    it(`answers with a TextEdit of the changed span and a diff cut within maxDiffChars (${open ? 'open buffer' : 'file on disk'})`, async () => {
      const ws = setup({ 'a.txt': `${line}\n` });
      const client = await start(ws);
      if (open) await client.open('a.txt');
      const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'XYZ', new_string: 'QRS' });
      const size = JSON.stringify(r).length;
      expect(size).toBeLessThan(200_000);
      const edits = open ? r.edit.documentChanges[0].edits : (r.edit.documentChanges?.[0]?.edits ?? Object.values(r.edit.changes ?? {})[0]);
      expect(edits).toEqual([{ range: { start: { line: 0, character: 2_500_000 }, end: { line: 0, character: 2_500_003 } }, newText: 'QRS' }]);
      expect(r.diffTruncated).toBe(true);
      expect(r.files[0].diff.length).toBeLessThanOrEqual(50_000 + 200);
      // The long line is cut, not dropped: its start is shown, then the notice.
      expect(r.files[0].diff).toMatch(/\n-aaaa/);
      expect(r.files[0].diff).toMatch(/\[diff truncated: [^\]]*maxDiffChars[^\]]*\]\n$/);
      if (open) expect(client.bufferText('a.txt')).toBe(`${line.replace('XYZ', 'QRS')}\n`);
      else expect(ws.read('a.txt')).toBe(`${line.replace('XYZ', 'QRS')}\n`);
    }, 60_000);
  }

  it('the maxDiffChars setting bounds the other commands too, and 0 means the whole diff', async () => {
    const ws = setup({ 'a.txt': `${line}  \n` });
    const client = await start(ws, { initializationOptions: { maxDiffChars: 1000 } });
    const trim = await client.exec('editls.trimTrailingWhitespace', { path: 'a.txt', apply: 'preview' });
    expect(trim.unifiedDiff.length).toBeLessThan(1200);
    const sr = await client.exec('editls.strReplace', { path: 'a.txt', replacements: [{ old: 'XYZ', new: 'QRS' }], apply: 'preview' });
    expect(JSON.stringify(sr).length).toBeLessThan(10_000);
    const whole = await start(ws, { initializationOptions: { maxDiffChars: 0 } });
    const full = await whole.exec('editls.edit', { file_path: 'a.txt', old_string: 'XYZ', new_string: 'QRS', apply: 'preview' });
    expect(full.unifiedDiff.length).toBeGreaterThan(10_000_000);
  }, 60_000);
});
