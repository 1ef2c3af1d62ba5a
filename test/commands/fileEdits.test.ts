// The single-file edit commands (edit, strReplace, proposeStrReplace, searchAndReplace, replaceRange,
// insert, trimTrailingWhitespace, normalizeLineEndings) against in-memory ports: what each leaves in
// the file, whole texts compared, over a closed file and an open buffer; and what a refused edit
// leaves (nothing, and nothing handed to apply).
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../server/commands/index.js';
import { applyPort, filesPort, MemoryWorkspace, only, requestPort, reviewPort, searchPort } from './memoryPorts.js';

/** What a file edit takes (EditPorts), and searchAndReplace's regex scans. */
function ports(ws: MemoryWorkspace) {
  const review = reviewPort();
  const { scanRegex } = searchPort(ws);
  return { ...requestPort(ws), ...filesPort(ws, review), ...applyPort(ws, { journal: review.undoJournal, requester: 'editor' }), journal: review.journal, previews: review.previews, scanRegex };
}

async function run(ws: MemoryWorkspace, id: string, args: unknown) {
  const command = findCommand(id);
  if (!command) throw new Error(`no command ${id}`);
  return command.execute(only(ports(ws)), args);
}

const CASES: { name: string; id: string; before: string; args: Record<string, unknown>; after: string }[] = [
  { name: 'edit: one exact match', id: 'editls.edit', before: 'const a = 1;\nconst b = 2;\n', args: { old_string: 'b = 2', new_string: 'b = 3' }, after: 'const a = 1;\nconst b = 3;\n' },
  { name: 'edit: replace_all', id: 'editls.edit', before: 'x x x', args: { old_string: 'x', new_string: 'y', replace_all: true }, after: 'y y y' },
  { name: 'edit: CRLF kept when the model sends LF', id: 'editls.edit', before: 'a\r\nb\r\nc\r\n', args: { old_string: 'a\nb', new_string: 'a\nB' }, after: 'a\r\nB\r\nc\r\n' },
  { name: 'edit: emoji and CJK', id: 'editls.edit', before: 'say("😀 你好")\n', args: { old_string: '你好', new_string: '再见' }, after: 'say("😀 再见")\n' },
  { name: 'strReplace: indentation-tolerant, in order', id: 'editls.strReplace', before: 'function f() {\n\treturn 1;\n}\n', args: { replacements: [{ old: 'return 1;', new: 'return 2;' }, { old: 'function f', new: 'function g' }] }, after: 'function g() {\n\treturn 2;\n}\n' },
  { name: 'searchAndReplace: regex within a line range, case-insensitive', id: 'editls.searchAndReplace', before: 'Foo\nfoo\nFOO\n', args: { search: 'fo+', replace: 'bar', use_regex: true, ignore_case: true, start_line: 2, end_line: 3 }, after: 'Foo\nbar\nbar\n' },
  { name: 'replaceRange: 1-based UTF-16 columns, guarded', id: 'editls.replaceRange', before: '😀ab\n', args: { startLine: 1, startColumn: 3, endLine: 1, endColumn: 4, expectedText: 'a', replacementText: 'A' }, after: '😀Ab\n' },
  { name: 'insert: after line 1, no final newline', id: 'editls.insert', before: 'one\ntwo', args: { insert_line: 1, new_str: 'one and a half' }, after: 'one\none and a half\ntwo' },
  { name: 'trimTrailingWhitespace', id: 'editls.trimTrailingWhitespace', before: 'a \t\nb\n', args: {}, after: 'a\nb\n' },
  { name: 'normalizeLineEndings: mixed to the majority', id: 'editls.normalizeLineEndings', before: 'a\r\nb\r\nc\n', args: {}, after: 'a\r\nb\r\nc\r\n' },
];

const PATH_ARG: Record<string, string> = { 'editls.edit': 'file_path', 'editls.replaceRange': 'filePath' };

describe('file edit commands over in-memory ports', () => {
  for (const where of ['disk', 'buffer'] as const) {
    for (const c of CASES) {
      it(`${c.name} (${where})`, async () => {
        const ws = new MemoryWorkspace();
        if (where === 'disk') ws.disk.set('src/a.ts', c.before);
        else {
          ws.disk.set('src/a.ts', 'stale disk copy');
          ws.open('src/a.ts', c.before);
        }
        const result = await run(ws, c.id, { ...c.args, [PATH_ARG[c.id] ?? 'path']: 'src/a.ts' });
        expect(result.ok, JSON.stringify(result)).toBe(true);
        expect(ws.text('src/a.ts')).toBe(c.after);
        if (where === 'buffer') expect(ws.disk.get('src/a.ts')).toBe('stale disk copy');
        expect(ws.applied.map((a) => a.mode)).toEqual(['auto']);
        expect(ws.locked).toContainEqual(['/ws/src/a.ts']);
      });
    }
  }

  it('creates a file with edit and an empty old_string, and undo removes it', async () => {
    const ws = new MemoryWorkspace();
    const p = ports(ws);
    const created = await findCommand('editls.edit')!.execute(only(p), { file_path: 'new/b.md', old_string: '', new_string: '# B\n' });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    expect(ws.disk.get('new/b.md')).toBe('# B\n');
    await new Promise((r) => setImmediate(r)); // the journal works out its digests after the answer
    const undone = await findCommand('editls.undo')!.execute(only(p), { path: 'new/b.md' });
    expect(undone.ok, JSON.stringify(undone)).toBe(true);
    expect(ws.disk.has('new/b.md')).toBe(false);
  });

  it('proposeStrReplace previews: nothing changes, and applyPreview lands exactly that', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const p = ports(ws);
    const proposed = await findCommand('editls.proposeStrReplace')!.execute(only(p), { path: 'a.txt', replacements: [{ old: 'beta', new: 'gamma' }] });
    expect(proposed.ok, JSON.stringify(proposed)).toBe(true);
    expect(ws.text('a.txt')).toBe('alpha\nbeta\n');
    const id = (proposed as { value: { previewId: string } }).value.previewId;
    expect(id).toEqual(expect.any(String));
    const applied = await findCommand('editls.applyPreview')!.execute(only(p), { id });
    expect(applied.ok, JSON.stringify(applied)).toBe(true);
    expect(ws.text('a.txt')).toBe('alpha\ngamma\n');
    expect(ws.applied.map((a) => a.mode)).toEqual(['preview', 'auto']);
  });

  it('an applyPreview whose file moved on since the preview changes nothing', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const p = ports(ws);
    const proposed = await findCommand('editls.proposeStrReplace')!.execute(only(p), { path: 'a.txt', replacements: [{ old: 'beta', new: 'gamma' }] });
    const id = (proposed as { value: { previewId: string } }).value.previewId;
    ws.disk.set('a.txt', 'alpha\nbeta\nand more\n');
    const applied = await findCommand('editls.applyPreview')!.execute(only(p), { id });
    expect(applied.ok).toBe(false);
    expect(ws.text('a.txt')).toBe('alpha\nbeta\nand more\n');
    expect(ws.applied.map((a) => a.mode)).toEqual(['preview']);
  });

  const REFUSED: { name: string; id: string; args: Record<string, unknown>; kind: string }[] = [
    { name: 'edit: old_string not found', id: 'editls.edit', args: { file_path: 'a.txt', old_string: 'nope', new_string: 'x' }, kind: 'not_found' },
    { name: 'edit: old_string twice', id: 'editls.edit', args: { file_path: 'a.txt', old_string: 'o', new_string: 'x' }, kind: 'ambiguous' },
    { name: 'edit: outside the workspace', id: 'editls.edit', args: { file_path: '../etc/passwd', old_string: 'root', new_string: 'x' }, kind: 'outside_workspace' },
    { name: 'strReplace atomic: a later replacement fails, the earlier one is not kept', id: 'editls.strReplace', args: { path: 'a.txt', atomic: true, replacements: [{ old: 'one', new: '1' }, { old: 'zzz', new: 'x' }] }, kind: 'not_found' },
    { name: 'replaceRange: expectedText differs', id: 'editls.replaceRange', args: { filePath: 'a.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 4, expectedText: 'two', replacementText: 'x' }, kind: 'stale' },
    { name: 'insert: past the end', id: 'editls.insert', args: { path: 'a.txt', insert_line: 9, new_str: 'x' }, kind: 'invalid_range' },
  ];
  for (const r of REFUSED) {
    it(`refuses and changes nothing: ${r.name}`, async () => {
      const ws = new MemoryWorkspace({ 'a.txt': 'one\ntwo\n' });
      const result = await run(ws, r.id, r.args);
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.kind).toBe(r.kind);
      expect(ws.text('a.txt')).toBe('one\ntwo\n');
      expect(ws.applied).toEqual([]);
    });
  }

  it('an edit computed on a buffer the editor changed meanwhile is refused as stale by apply, nothing lands', async () => {
    const ws = new MemoryWorkspace();
    ws.open('a.txt', 'one\n');
    const p = ports(ws);
    const snapshot = p.snapshot;
    p.snapshot = async (at) => {
      const s = await snapshot(at);
      ws.open('a.txt', 'one\ntyped meanwhile\n', 2);
      return s;
    };
    const result = await findCommand('editls.edit')!.execute(only(p), { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' });
    expect(result.ok ? '' : result.kind).toBe('stale');
    expect(ws.text('a.txt')).toBe('one\ntyped meanwhile\n');
  });
});
