// Issue 11 over stdio ("edits agents can trust"): empty files, empty `old`, re-indentation of the
// tolerant tiers, not_found candidates, line-number prefixes and diffs that `git apply` accepts, on
// closed files (disk) and open buffers, in the three position encodings where positions matter.
import { describe, expect, it } from 'vitest';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_NEOVIM_07, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';
import { applyWithTools, hasPatchTools, type PatchCase } from '../helpers/patchCheck.js';

const { setup, start } = serverFixture();

describe('empty files (editls.edit)', () => {
  it('empty old_string and new_string create an empty file on disk, never over an existing one', async () => {
    const ws = setup({ 'pkg/keep.txt': 'content\n' });
    const client = await start(ws);
    const r = await client.exec('editls.edit', { file_path: 'pkg/__init__.py', old_string: '', new_string: '' });
    expect(r.files[0]).toMatchObject({ path: 'pkg/__init__.py', created: true, via: 'disk' });
    expect(ws.bytes('pkg/__init__.py')).toEqual(Buffer.alloc(0));
    // the same call again: the file exists now (empty) and stays empty -> no_change, nothing written
    expect((await client.execError('editls.edit', { file_path: 'pkg/__init__.py', old_string: '', new_string: '' })).data.kind).toBe('no_change');
    const err = await client.execError('editls.edit', { file_path: 'pkg/keep.txt', old_string: '', new_string: '' });
    expect(err.data.kind).toBe('already_exists');
    expect(ws.read('pkg/keep.txt')).toBe('content\n');
  });

  it('creates an empty file through an editor that can create files', async () => {
    const ws = setup({});
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07 });
    const r = await client.exec('editls.edit', { file_path: '.gitkeep', old_string: '', new_string: '', apply: 'editor' });
    expect(r.edit.documentChanges[0]).toEqual({ kind: 'create', uri: client.uri('.gitkeep'), options: { ignoreIfExists: true } });
    expect(client.bufferText('.gitkeep')).toBe('');
  });

  it('an empty old_string fills an existing empty file: on disk (BOM kept) and in an open buffer', async () => {
    const ws = setup({ 'empty.py': '', 'bom.txt': Buffer.from([0xef, 0xbb, 0xbf]), 'full.txt': 'x\n' });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    const r = await client.exec('editls.edit', { file_path: 'empty.py', old_string: '', new_string: 'print("hi")\n' });
    expect(r.files[0]).toMatchObject({ created: false, via: 'disk' });
    expect(ws.read('empty.py')).toBe('print("hi")\n');
    await client.exec('editls.edit', { file_path: 'bom.txt', old_string: '', new_string: 'é\n' });
    expect(ws.bytes('bom.txt')).toEqual(Buffer.from('\uFEFFé\n', 'utf8'));
    ws.write('open.txt', '');
    await client.open('open.txt');
    await client.exec('editls.edit', { file_path: 'open.txt', old_string: '', new_string: 'filled\n' });
    expect(client.bufferText('open.txt')).toBe('filled\n');
    expect(ws.read('open.txt')).toBe('');
    expect((await client.execError('editls.edit', { file_path: 'open.txt', old_string: '', new_string: 'again\n' })).data.kind).toBe('already_exists');
    expect((await client.execError('editls.edit', { file_path: 'full.txt', old_string: '', new_string: 'y' })).data.kind).toBe('already_exists');
    expect(ws.read('full.txt')).toBe('x\n');
  });
});

describe('an empty old in editls.strReplace is invalid_args', () => {
  for (const command of ['editls.strReplace', 'editls.proposeStrReplace']) {
    it(command, async () => {
      const ws = setup({ 'a.txt': 'alpha\n' });
      const client = await start(ws, { capabilities: CAPS_VSCODE });
      for (const path of ['a.txt', 'missing.txt']) {
        const err = await client.execError(command, { path, replacements: [{ old: 'alpha', new: 'beta' }, { old: '', new: 'x' }] });
        expect(err.code).toBe(-32602);
        expect(err.data.kind).toBe('invalid_args');
        expect(err.message).toMatch(/replacements\.1\.old: must not be empty/);
      }
      expect(ws.read('a.txt')).toBe('alpha\n');
      expect(() => ws.read('missing.txt')).toThrow();
    });
  }
});

describe('not_found names every equally close candidate', () => {
  it('editls.edit and editls.strReplace carry data.candidates beside data.closest', async () => {
    const copy = 'if (ready) {\n  start(engine, options);\n}\n';
    const ws = setup({ 'a.ts': `${copy}\n${copy}\nlast();\n` });
    const client = await start(ws);
    const old = 'if (ready) {\n  start(engine, opts);\n}';
    const e1 = await client.execError('editls.edit', { file_path: 'a.ts', old_string: old, new_string: 'x' });
    const e2 = await client.execError('editls.strReplace', { path: 'a.ts', replacements: [{ old, new: 'x' }] });
    for (const err of [e1, e2]) {
      expect(err.data.kind).toBe('not_found');
      expect(err.data.candidates.map((c: any) => [c.startLine, c.endLine])).toEqual([[1, 3], [5, 7]]);
      expect(err.data.candidates[0].similarity).toBe(err.data.candidates[1].similarity);
      expect(err.data.closest).toEqual(err.data.candidates[0]);
      expect(err.message).toMatch(/lines 1-3 .*lines 5-7/);
    }
  });
});

describe('every diff applies to the original file with git apply and patch', () => {
  const files: Record<string, Buffer> = {
    'crlf.txt': Buffer.from('one\r\ntwo\r\nthree\r\n'),
    'bom-crlf.cs': Buffer.from('\uFEFFusing System;\r\nclass A {\r\n}\r\n'),
    'mixed.txt': Buffer.from('a\nb\r\nc\nd\r\n'),
    'no-final.txt': Buffer.from('x\r\ny\r\nlast'),
  };
  const edits: Record<string, { old: string; new: string }> = {
    'crlf.txt': { old: 'two', new: 'TWO\nand a half' },
    'bom-crlf.cs': { old: 'using System;', new: 'using System.IO;' },
    'mixed.txt': { old: 'b\nc', new: 'B\nC' },
    'no-final.txt': { old: 'last', new: 'final' },
  };
  for (const open of [false, true]) {
    it.skipIf(!hasPatchTools())(`${open ? 'open buffers' : 'closed files'}: CRLF, BOM, mixed, no final newline`, async () => {
      const ws = setup(files);
      const client = await start(ws, { capabilities: CAPS_HELIX });
      const cases: PatchCase[] = [];
      for (const [rel, bytes] of Object.entries(files)) {
        if (open) await client.open(rel);
        const r = await client.exec('editls.strReplace', { path: rel, replacements: [edits[rel]] });
        const after = open ? Buffer.from(client.bufferText(rel)!) : ws.bytes(rel);
        expect(r.files[0].diff).toBe(r.unifiedDiff);
        // An open buffer's diff is of the buffer as the editor holds it (editors keep a BOM apart from the text).
        const before = open ? Buffer.from(bytes.toString('utf8').replace(/^\uFEFF/, '')) : bytes;
        cases.push({ name: rel, before, after, patch: r.unifiedDiff });
      }
      expect(cases.find((c) => c.name === 'crlf.txt')!.patch).toContain('-two\r\n+TWO\r\n+and a half\r\n');
      expect(applyWithTools(cases)).toEqual([]);
    });
  }
});

describe('re-indentation over stdio', () => {
  const GO = 'package main\n\n// 😀 中文\nfunc f(x int) int {\n\tif x > 0 { // é\n\t\treturn 1\n\t}\n\treturn 0\n}\n';
  const OLD = '    if x > 0 { // é\n        return 1\n    }';
  const NEW = '    if x > 0 { // é\n        log("😀")\n        return 1\n    }';
  const AFTER = GO.replace('\t\treturn 1', '\t\tlog("😀")\n\t\treturn 1');
  for (const [name, caps, clientName] of [
    ['utf-8 (Helix)', CAPS_HELIX, 'helix'],
    ['utf-16 (VS Code)', CAPS_VSCODE, undefined],
    ['utf-32 (lsp-mode)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`a tab-indented Go block edited with spaces: open buffer and closed file, ${name}`, async () => {
      const ws = setup({ 'open.go': GO, 'closed.go': GO.replace(/\n/g, '\r\n') });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('open.go');
      const r = await client.exec('editls.strReplace', { path: 'open.go', replacements: [{ old: OLD, new: NEW }] });
      expect(r.matchedBy).toBe('whitespace');
      expect(client.bufferText('open.go')).toBe(AFTER);
      const d = await client.exec('editls.strReplace', { path: 'closed.go', replacements: [{ old: OLD, new: NEW }] });
      expect(d.files[0].via).toBe('disk');
      expect(ws.read('closed.go')).toBe(AFTER.replace(/\n/g, '\r\n'));
    });
  }

  it('a region that cannot be re-indented is refused over stdio and nothing changes', async () => {
    const ws = setup({ 'a.txt': 'start\n    x\n  y\nend\n' });
    const client = await start(ws);
    const err = await client.execError('editls.proposeStrReplace', { path: 'a.txt', replacements: [{ old: 'x\ny', new: 'X\nY' }] });
    expect(err.data.kind).toBe('not_found');
    expect(err.data.closest).toMatchObject({ startLine: 2, endLine: 3 });
    expect(err.message).toMatch(/cannot be re-indented/);
    expect(ws.read('a.txt')).toBe('start\n    x\n  y\nend\n');
  });
});

describe('line-number prefixes copied from editls.searchFiles', () => {
  it('an agent pastes searchFiles lines into strReplace and edit: open buffer and closed file', async () => {
    const src = 'const a = 1;\nfunction total(xs) {\n  return xs.length; // 😀\n}\n';
    const ws = setup({ 'open.js': src, 'closed.js': src });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    await client.open('open.js');
    const found = await client.exec('editls.searchFiles', { path: '.', regex: 'xs.length', file_pattern: 'closed.js' });
    const listed = found.text.split('\n').filter((l: string) => /^ *\d+ \| /.test(l)).join('\n');
    expect(listed).toContain('  3 |   return xs.length; // 😀');
    const neu = listed.replace('xs.length', 'xs.length * 2');
    const r = await client.exec('editls.strReplace', { path: 'closed.js', replacements: [{ old: listed, new: neu }] });
    expect(r.details[0]).toMatchObject({ matchedBy: 'exact', lineNumberPrefixes: 'searchFiles', strippedFromNew: true });
    expect(ws.read('closed.js')).toBe(src.replace('xs.length', 'xs.length * 2'));
    const d = await client.exec('editls.edit', { file_path: 'open.js', old_string: listed, new_string: neu });
    expect(d.lineNumberPrefixes).toBe('searchFiles');
    expect(client.bufferText('open.js')).toBe(src.replace('xs.length', 'xs.length * 2'));
  });
});
