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
