// editls.replaceInFiles through the real server over stdio, on real temp workspaces and the real
// ripgrep: ignore files without git, nested ignores, hidden and binary files, symlinks out of the
// workspace, unsaved buffers (one applyEdit), CRLF/BOM/UTF-16 files, preserve case, regex templates,
// file_pattern, max_files, all-or-nothing (editor refusal, a file changed meanwhile), previews, undo
// of the whole command, progress, and 1,000 files.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

const RIF = 'editls.replaceInFiles';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** `needle`, found by a regex that does several times the work of `ne+dle` at every position. */
const SLOW_NEEDLE = 'ne+dle|[a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ zzz';
const UTF16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
/** editls's temp files under `root` (the temp files a command writes ahead, while it still reads and matches, included). */
const tempsUnder = (root: string) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => path.basename(n).startsWith('.editls-tmp-'));

/** LSP TextEdits applied to `text` (lines end at \r\n, \n or \r; characters are `encoding` units, UTF-16 by default). */
function applyTextEdits(
  text: string,
  edits: readonly { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[],
  encoding: 'utf-8' | 'utf-16' | 'utf-32' = 'utf-16',
): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') continue;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  const units = (from: number, character: number) => {
    if (encoding === 'utf-16') return character;
    let u = 0;
    for (let counted = 0; counted < character; ) {
      const ch = String.fromCodePoint(text.codePointAt(from + u)!);
      counted += encoding === 'utf-8' ? Buffer.byteLength(ch) : 1;
      u += ch.length;
    }
    return u;
  };
  const at = (p: { line: number; character: number }) => starts[p.line]! + units(starts[p.line]!, p.character);
  let out = text;
  for (const e of [...edits].sort((a, b) => at(b.range.start) - at(a.range.start))) out = out.slice(0, at(e.range.start)) + e.newText + out.slice(at(e.range.end));
  return out;
}

describe('which files', () => {
  it('honours .gitignore without git and nested ignores, skips hidden and binary files, never follows links out', async () => {
    const outside = tempWorkspace({ 'secret.txt': 'foo outside\n' });
    cleanups.push(() => outside.cleanup());
    const ws = setup({
      '.gitignore': 'build/\n*.log\n',
      'a.txt': 'foo a\n',
      'src/b.ts': 'const foo = 1;\n',
      'src/.ignore': 'gen.ts\n',
      'src/gen.ts': 'foo generated\n',
      'build/out.js': 'foo built\n',
      'x.log': 'foo log\n',
      '.hidden/h.txt': 'foo hidden\n',
      '.dot.txt': 'foo dot\n',
      'bin.dat': Buffer.from('foo\0binary\n'),
    });
    symlinkSync(outside.file('secret.txt'), ws.file('link.txt'));
    symlinkSync(outside.root, ws.file('linkdir'));
    const client = await start(ws);
    const r = await client.exec(RIF, { search: 'foo', replace: 'bar' });
    expect(r.files.map((f: any) => f.path).sort()).toEqual(['a.txt', 'src/b.ts']);
    expect(r).toMatchObject({ success: true, filesChanged: 2, replacements: 2 });
    expect(ws.read('a.txt')).toBe('bar a\n');
    expect(ws.read('src/b.ts')).toBe('const bar = 1;\n');
    for (const [rel, text] of [['src/gen.ts', 'foo generated\n'], ['build/out.js', 'foo built\n'], ['x.log', 'foo log\n'], ['.hidden/h.txt', 'foo hidden\n'], ['.dot.txt', 'foo dot\n']]) {
      expect(ws.read(rel!)).toBe(text);
    }
    expect(ws.bytes('bin.dat')).toEqual(Buffer.from('foo\0binary\n'));
    expect(outside.read('secret.txt')).toBe('foo outside\n');
    // respect_gitignore false reaches the ignored files (hidden ones stay skipped)
    const all = await client.exec(RIF, { search: 'foo', replace: 'baz', respect_gitignore: false });
    expect(all.files.map((f: any) => f.path).sort()).toEqual(['build/out.js', 'src/gen.ts', 'x.log']);
  });

  it('file_pattern narrows by name or path and never re-includes ignored files; path narrows to a folder or a file', async () => {
    const ws = setup({ '.gitignore': 'ignored.ts\n', 'a.ts': 'x\n', 'b.js': 'x\n', 'ignored.ts': 'x\n', 'sub/c.ts': 'x\n', 'sub/d.js': 'x\n' });
    const client = await start(ws);
    const preview = async (extra: object) => (await client.exec(RIF, { search: 'x', replace: 'y', apply: 'preview', ...extra })).files.map((f: any) => f.path);
    expect(await preview({ file_pattern: '*.ts' })).toEqual(['a.ts', 'sub/c.ts']);
    expect(await preview({ file_pattern: 'sub/*' })).toEqual(['sub/c.ts', 'sub/d.js']);
    expect(await preview({ path: 'sub' })).toEqual(['sub/c.ts', 'sub/d.js']);
    expect(await preview({ path: 'b.js' })).toEqual(['b.js']);
    const bad = await client.execError(RIF, { search: 'x', replace: 'y', file_pattern: '*.{a,b' });
    expect(bad.data.kind).toBe('invalid_args');
  });
});

describe('text handling', () => {
  it('CRLF, BOM and UTF-16 files keep their endings, BOM and encoding; a \\n in the search matches CRLF breaks', async () => {
    const ws = setup({ 'crlf.txt': 'one foo\r\ntwo\r\n', 'bom.txt': Buffer.concat([BOM, Buffer.from('foo\n', 'utf8')]), 'w16.txt': UTF16('名前 foo 😀\r\n'), 'multi.txt': 'foo\r\nbar\r\n' });
    const client = await start(ws);
    await client.exec(RIF, { search: 'foo', replace: 'quux\nline' });
    expect(ws.read('crlf.txt')).toBe('one quux\r\nline\r\ntwo\r\n');
    expect(ws.bytes('bom.txt')).toEqual(Buffer.concat([BOM, Buffer.from('quux\nline\n', 'utf8')]));
    expect(ws.bytes('w16.txt')).toEqual(UTF16('名前 quux\r\nline 😀\r\n'));
    const r = await client.exec(RIF, { search: 'line\nbar', replace: 'LB' });
    expect(r.files.map((f: any) => f.path)).toEqual(['multi.txt']);
    expect(ws.read('multi.txt')).toBe('quux\r\nLB\r\n');
  });

  it('regex with $1 and named groups, ignore_case and preserve_case', async () => {
    const ws = setup({ 'a.ts': 'const fooBar = FooBar.foo_bar(FOO_BAR);\n', 'b.ts': 'getUser(id); GetUser(); GETUSER\n' });
    const client = await start(ws);
    await client.exec(RIF, { search: 'get(User)', replace: 'fetch$1', use_regex: true, ignore_case: true, preserve_case: true });
    expect(ws.read('b.ts')).toBe('fetchUser(id); FetchUser(); FETCHUSER\n');
    await client.exec(RIF, { search: 'foo_bar', replace: 'new_name', ignore_case: true, preserve_case: true, path: 'a.ts' });
    expect(ws.read('a.ts')).toBe('const fooBar = FooBar.new_name(NEW_NAME);\n');
    await client.exec(RIF, { search: '(?<w>foo)Bar', replace: '$<w>Baz', use_regex: true });
    expect(ws.read('a.ts')).toBe('const fooBaz = FooBar.new_name(NEW_NAME);\n');
    expect((await client.execError(RIF, { search: '(', replace: 'x', use_regex: true })).data.kind).toBe('invalid_regex');
  });

  it('a regex over long CRLF files with lone CRs (each sent to the regex worker from its body) and an LF one, then one undo', async () => {
    const crlf = (tag: string) => Array.from({ length: 9_000 }, (_, i) => (i % 701 === 0 ? `${tag}${i} 😀\r` : `${tag}${i} 中 x\r\n`)).join('');
    const files = { 'a.txt': crlf('id'), 'b.txt': Buffer.concat([BOM, Buffer.from(crlf('id'), 'utf8')]), 'c.txt': 'id7 lf\n'.repeat(12_000) };
    const ws = setup(files);
    const before = Object.fromEntries(Object.keys(files).map((f) => [f, ws.bytes(f)]));
    const client = await start(ws);
    const r = await client.exec(RIF, { search: '(id)(\\d+)(?= )', replace: '$2$1', use_regex: true });
    expect(r.filesChanged).toBe(3);
    const swap = (t: string) => t.replace(/(id)(\d+)(?= )/gu, '$2$1');
    expect(ws.read('a.txt')).toBe(swap(files['a.txt']));
    expect(ws.bytes('b.txt')).toEqual(Buffer.concat([BOM, Buffer.from(swap(crlf('id')), 'utf8')]));
    expect(ws.read('c.txt')).toBe(swap(files['c.txt']));
    await client.exec('editls.undo', {});
    for (const [f, bytes] of Object.entries(before)) expect(ws.bytes(f)).toEqual(bytes);
  });

  it('no match is a success that changes nothing', async () => {
    const ws = setup({ 'a.txt': 'abc\n' });
    const client = await start(ws);
    const r = await client.exec(RIF, { search: 'zzz', replace: 'y' });
    expect(r).toMatchObject({ success: true, filesChanged: 0, replacements: 0, filesScanned: 0 });
    expect(r.message).toContain('no match');
  });
});

describe('open buffers', () => {
  for (const [name, caps, clientName] of [
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['lsp-mode (utf-32)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`unsaved buffers are replaced as the user sees them, in one applyEdit, disk untouched; closed files on disk — ${name}`, async () => {
      const ws = setup({ 'open1.txt': 'nothing here\n', 'open2.txt': 'x😀 foo\n', 'closed.txt': 'foo closed\n' });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('open1.txt');
      await client.open('open2.txt');
      await client.type('open1.txt', 'nothing', 'foo typed');
      const r = await client.exec(RIF, { search: 'foo', replace: '名前' });
      expect(client.appliedEdits).toHaveLength(1);
      expect(client.bufferText('open1.txt')).toBe('名前 typed here\n');
      expect(client.bufferText('open2.txt')).toBe('x😀 名前\n');
      expect(ws.read('open1.txt')).toBe('nothing here\n');
      expect(ws.read('open2.txt')).toBe('x😀 foo\n');
      expect(ws.read('closed.txt')).toBe('名前 closed\n');
      expect(Object.fromEntries(r.files.map((f: any) => [f.path, f.via]))).toEqual({ 'closed.txt': 'disk', 'open1.txt': 'editor', 'open2.txt': 'editor' });
    });
  }
});

describe('all or nothing', () => {
  it('an editor refusal writes nothing anywhere', async () => {
    const ws = setup({ 'open.txt': 'foo\n', 'closed.txt': 'foo\n' });
    const client = await start(ws, { applyBehavior: 'refuse' });
    await client.open('open.txt');
    const err = await client.execError(RIF, { search: 'foo', replace: 'bar' });
    expect(err.data.kind).toBe('apply_rejected');
    expect(ws.read('closed.txt')).toBe('foo\n');
    expect(client.bufferText('open.txt')).toBe('foo\n');
  });

  it('a closed file changed on disk while the editor part waits: nothing is written to disk, the error names it', async () => {
    const ws = setup({ 'open.txt': 'foo\n', 'a.txt': 'foo a\n', 'b.txt': 'foo b\n' });
    const client = await start(ws, {
      applyBehavior: async (params) => {
        writeFileSync(ws.file('b.txt'), 'foo b changed by another program\n');
        return client.applyStrict(params);
      },
    });
    await client.open('open.txt');
    const err = await client.execError(RIF, { search: 'foo', replace: 'bar' });
    expect(err.data.kind).toBe('stale');
    expect(err.message).toContain('b.txt');
    expect(err.message).toContain('were reverted');
    expect(client.bufferText('open.txt')).toBe('foo\n');
    expect(ws.read('a.txt')).toBe('foo a\n');
    expect(ws.read('b.txt')).toBe('foo b changed by another program\n');
  });

  const root = process.platform === 'linux' && process.geteuid?.() === 0;

  it.runIf(root)('an immutable file (chattr +i) fails the disk part before anything is written; the editor part is reverted; nothing to undo', async () => {
    const ws = setup({ 'open.txt': 'foo\n', 'a.txt': 'foo a\n', 'b.txt': 'foo b\n', 'c.txt': 'foo c\n' });
    const client = await start(ws, {
      applyBehavior: async (params) => {
        execFileSync('chattr', ['+i', ws.file('b.txt')]);
        return client.applyStrict(params);
      },
    });
    cleanups.push(() => execFileSync('chattr', ['-i', ws.file('b.txt')]));
    await client.open('open.txt');
    const err = await client.execError(RIF, { search: 'foo', replace: 'bar' });
    expect(err.message).toMatch(/b\.txt.*(immutable|changed on disk).*the edits already made in the editor were reverted/);
    expect(err.data.partiallyApplied).toBeUndefined();
    expect(client.bufferText('open.txt')).toBe('foo\n');
    expect([ws.read('a.txt'), ws.read('b.txt'), ws.read('c.txt')]).toEqual(['foo a\n', 'foo b\n', 'foo c\n']);
    expect((await client.execError('editls.undo', {})).data.kind).toBe('no_change');
  });

  it.runIf(root)('a full disk (the workspace on a 1 MiB tmpfs): nothing written, the editor part reverted, no temp file left', async () => {
    const mnt = mkdtempSync(path.join(os.tmpdir(), 'editls-full-ws-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
    cleanups.push(() => (execFileSync('umount', [mnt]), rmSync(mnt, { recursive: true, force: true })));
    for (let i = 0; i < 6; i++) writeFileSync(path.join(mnt, `f${i}.txt`), `${'x'.repeat(100_000)}\n`);
    writeFileSync(path.join(mnt, 'open.txt'), 'x\n');
    const client = await TestClient.start({ root: mnt });
    cleanups.push(() => client.shutdown());
    await client.open('open.txt');
    const err = await client.execError(RIF, { search: 'x', replace: 'yy' });
    expect(err.message).toMatch(/ENOSPC.*the edits already made in the editor were reverted/);
    expect(client.bufferText('open.txt')).toBe('x\n');
    expect(readdirSync(mnt).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'open.txt']);
    for (let i = 0; i < 6; i++) expect(readFileSync(path.join(mnt, `f${i}.txt`), 'utf8')).toBe(`${'x'.repeat(100_000)}\n`);
  });

  it.runIf(process.platform === 'linux')('under a descriptor limit of 256 (prlimit), 600 files are replaced and one undo reverts them', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`d${i % 3}/f${i}.txt`] = `foo ${i}\r\n`;
    const ws = setup(files);
    const client = await start(ws, { runAs: ['prlimit', '--nofile=256:256'] });
    const r = await client.exec(RIF, { search: 'foo', replace: 'bar' });
    expect(r.filesChanged).toBe(600);
    for (let i = 0; i < 600; i += 97) expect(ws.read(`d${i % 3}/f${i}.txt`)).toBe(`bar ${i}\r\n`);
    await client.exec('editls.undo', {});
    for (let i = 0; i < 600; i += 97) expect(ws.read(`d${i % 3}/f${i}.txt`)).toBe(`foo ${i}\r\n`);
  });

  it('more changed files than max_files is too_large, nothing applied, also for a preview', async () => {
    const ws = setup({ 'a.txt': 'x\n', 'b.txt': 'x\n', 'c.txt': 'x\n' });
    const client = await start(ws);
    for (const apply of ['auto', 'preview']) {
      const err = await client.execError(RIF, { search: 'x', replace: 'y', max_files: 2, apply });
      expect(err.data).toMatchObject({ kind: 'too_large', files: 3, maxFiles: 2 });
    }
    expect([ws.read('a.txt'), ws.read('b.txt'), ws.read('c.txt')]).toEqual(['x\n', 'x\n', 'x\n']);
  });

  it('is refused as soon as the count passes max_files, without reading the other files', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`f${i}.txt`] = `x ${i}\r\n`;
    const ws = setup(files);
    const client = await start(ws);
    const err = await client.execError(RIF, { search: 'x', replace: 'y', max_files: 2 });
    // Every file changes, so the third file read is the one that passes the limit.
    expect(err.data).toMatchObject({ kind: 'too_large', files: 3, maxFiles: 2, filesScanned: 3, candidates: 60 });
    expect(err.message).toContain('counting stopped at 3 after reading 3 of 60 candidate files');
    for (let i = 0; i < 60; i += 7) expect(ws.read(`f${i}.txt`)).toBe(`x ${i}\r\n`);
    // The two temp files written ahead before the third file passed the limit are gone.
    expect(tempsUnder(ws.root)).toEqual([]);
  });
});

describe('previews, undo, progress, size', () => {
  it('a preview changes nothing; applyPreview re-checks and applies every file; one undo reverts them all', async () => {
    const ws = setup({ 'a.txt': 'foo\n', 'b/c.txt': 'foo foo\n' });
    const client = await start(ws);
    const p = await client.exec(RIF, { search: 'foo', replace: 'bar', apply: 'preview' });
    expect(p).toMatchObject({ status: 'preview', filesChanged: 2, replacements: 3 });
    expect(p.unifiedDiff).toContain('+++ b/b/c.txt');
    expect(ws.read('a.txt')).toBe('foo\n');
    await client.exec('editls.applyPreview', { id: p.previewId });
    expect([ws.read('a.txt'), ws.read('b/c.txt')]).toEqual(['bar\n', 'bar bar\n']);
    const u = await client.exec('editls.undo', {});
    expect(u.filesChanged).toBe(2);
    expect([ws.read('a.txt'), ws.read('b/c.txt')]).toEqual(['foo\n', 'foo foo\n']);
  });

  it('300 files of every kind (BOM, CRLF, UTF-16, emoji and CJK, no final newline): past the first 100 their texts are let go once written, yet the edit, the files and one undo are exact', async () => {
    const kinds = [
      (i: number) => Buffer.concat([BOM, Buffer.from(`😀 ${i} needle 中文\r\nneedle\r\n`)]),
      (i: number) => Buffer.from(`a\tneedle ${i}\nb needle 😀needle`),
      (i: number) => UTF16(`é ${i} needle\r\n中 needle\n`),
      (i: number) => Buffer.from(`mixed ${i}\r\nneedle\rneedle\n\u2028needle`),
    ];
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 7}/f${String(i).padStart(3, '0')}.txt`] = kinds[i % kinds.length]!(i);
    const ws = setup(files);
    // An editor that takes documentChanges and counts in UTF-16 (VS Code): the edit is checked against the files.
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    const r = await client.exec(RIF, { search: 'needle', replace: 'pin🎯' });
    expect(r).toMatchObject({ filesChanged: 300, diffsOmitted: 200 });
    const changes = r.edit.documentChanges as { textDocument: { uri: string }; edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[] }[];
    expect(changes).toHaveLength(300);
    for (const [rel, before] of Object.entries(files)) {
      const after = ws.bytes(rel);
      const text = (b: Buffer) => (b[0] === 0xff ? b.subarray(2).toString('utf16le') : b.toString('utf8').replace(/^\uFEFF/, ''));
      expect(text(after)).toBe(text(before).replaceAll('needle', 'pin🎯'));
      // The TextEdits, applied to the text as it was (positions in UTF-16 units on \n, \r\n and \r lines), give the text written.
      const doc = changes.find((c) => c.textDocument.uri.endsWith(`/${rel}`))!;
      expect(applyTextEdits(text(before), doc.edits)).toBe(text(after));
    }
    const u = await client.exec('editls.undo', {});
    expect(u.filesChanged).toBe(300);
    for (const [rel, before] of Object.entries(files)) expect(ws.bytes(rel)).toEqual(before);
  });

  for (const [name, caps, clientName, encoding, replace] of [
    ['VS Code, UTF-16 columns', CAPS_VSCODE, 'vscode', 'utf-16', 'pin'],
    ['Helix, UTF-8 columns', CAPS_HELIX, 'helix', 'utf-8', 'needles'],
    ['lsp-mode, UTF-32 columns', CAPS_LSPMODE_8, 'emacs', 'utf-32', 'ne_dle'],
  ] as const) {
    it(`300 UTF-8 files worked out on their bytes past the first 100 (ASCII, BOM, emoji and CJK; CRLF ones through their text): the edit, the files and one undo exact — ${name}`, async () => {
      const kinds = [
        (i: number) => Buffer.from(`line ${i} needle\n\tneedleneedle x\nno final newline needle`),
        (i: number) => Buffer.concat([BOM, Buffer.from(`😀 ${i} needle 中文\nneedle😀needle\n`)]),
        (i: number) => Buffer.from(`é ${i}\n${'中文 '.repeat(50)}needle\n\n😀😀 needle`),
        (i: number) => Buffer.from(`crlf ${i} needle\r\nneedle\r\n`),
      ];
      const files: Record<string, Buffer> = {};
      for (let i = 0; i < 300; i++) files[`d${i % 7}/f${String(i).padStart(3, '0')}.txt`] = kinds[i % kinds.length]!(i);
      const ws = setup(files);
      const client = await start(ws, { capabilities: caps, clientName });
      const r = await client.exec(RIF, { search: 'needle', replace });
      expect(r).toMatchObject({ filesChanged: 300, diffsOmitted: 200 });
      for (const [rel, before] of Object.entries(files)) {
        const after = ws.bytes(rel);
        const text = (b: Buffer) => b.toString('utf8').replace(/^\uFEFF/, '');
        expect(text(after)).toBe(text(before).replaceAll('needle', replace));
        expect(after.subarray(0, 3).equals(BOM)).toBe(before.subarray(0, 3).equals(BOM));
        // The TextEdits (in the client's columns), applied to the text as it was, give the text written.
        const uri = pathToFileURL(ws.file(rel)).href;
        const edits = r.edit.documentChanges ? r.edit.documentChanges.find((c: { textDocument: { uri: string } }) => c.textDocument.uri === uri).edits : r.edit.changes[uri];
        expect(applyTextEdits(text(before), edits, encoding)).toBe(text(after));
      }
      const u = await client.exec('editls.undo', {});
      expect(u.filesChanged).toBe(300);
      for (const [rel, before] of Object.entries(files)) expect(ws.bytes(rel)).toEqual(before);
    });
  }

  it('1,000 files in one command, with $/progress', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`d${i % 10}/f${i}.txt`] = `line ${i} needle\r\nother\r\n`;
    const ws = setup(files);
    const client = await start(ws);
    const r = await client.exec(RIF, { search: 'needle', replace: 'pin' });
    expect(r).toMatchObject({ filesChanged: 1000, replacements: 1000 });
    expect(ws.read('d7/f517.txt')).toBe('line 517 pin\r\nother\r\n');
    const kinds = client.progress.map((p) => p.value.kind);
    expect(kinds[0]).toBe('begin');
    expect(kinds[kinds.length - 1]).toBe('end');
  });

  it('a change too large for the heap (a server started with a 64 MB old space) is refused as too_large, nothing written, and the server serves on', async () => {
    const files: Record<string, string> = {};
    const body = 'needle in a haystack of one line\n'.repeat(32_000); // about 1 MB
    for (let i = 0; i < 40; i++) files[`big/f${String(i).padStart(2, '0')}.txt`] = body;
    files['small.txt'] = 'one needle\n';
    const ws = setup(files);
    const client = await start(ws, { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=64' } });
    const error = await client.conn.sendRequest('workspace/executeCommand', { command: RIF, arguments: [{ search: 'needle', replace: 'pin', max_files: 100 }] }).then(
      () => undefined,
      (e: { message: string; data: any }) => e,
    );
    expect(error?.data?.kind).toBe('too_large');
    expect(error?.message).toMatch(/changes more text than editls can hold in memory at once/);
    expect(ws.read('big/f00.txt')).toBe(body);
    expect(ws.read('small.txt')).toBe('one needle\n');
    const r = await client.exec(RIF, { search: 'needle', replace: 'pin', path: 'small.txt' });
    expect(r.replacements).toBe(1);
    expect(ws.read('small.txt')).toBe('one pin\n');
  });

  it('the diffs of many files share about 200,000 characters: 2,000 each for 100 files (the first matched, shown in path order), the rest left out and counted', async () => {
    const files: Record<string, string> = {};
    const body = Array.from({ length: 40 }, (_, k) => `${'x'.repeat(70)} needle ${k}\n`).join('');
    for (let i = 0; i < 300; i++) files[`d${i % 3}/f${String(i).padStart(3, '0')}.txt`] = body;
    const ws = setup(files);
    const client = await start(ws);
    const r = await client.exec(RIF, { search: 'needle', replace: 'pin' });
    expect(r).toMatchObject({ filesChanged: 300, replacements: 12_000, diffTruncated: true, diffsOmitted: 200 });
    const withDiff = r.files.filter((f: { diff: string }) => f.diff !== '');
    expect(withDiff).toHaveLength(100);
    for (const f of withDiff) {
      expect(f.diff.length).toBeLessThan(2_000 + 200);
      expect(f.diff).toContain('[diff truncated: ');
    }
    expect(r.files.filter((f: { diff: string }) => f.diff === '')).toHaveLength(200);
    // The files listed in path order, the diffs too.
    const paths = r.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual([...paths].sort());
    const diffed = [...r.unifiedDiff.matchAll(/^\+\+\+ b\/(.*)$/gm)].map((m) => m[1]);
    expect(diffed).toEqual(withDiff.map((f: { path: string }) => f.path));
    expect(r.unifiedDiff.length).toBeLessThan(200_000 + 100 * 200 + 300);
    expect(r.unifiedDiff.endsWith("[diffs of 200 more files left out: a result's diffs share about 200,000 characters; `files` and `edit` list every change]\n")).toBe(true);
    // Every change is still in the edit and on disk.
    expect(ws.read('d2/f299.txt')).toBe(body.replaceAll('needle', 'pin'));
  });

  it('$/cancelRequest and the progress cancel, while files are matched, answer cancelled and change nothing', async () => {
    const files: Record<string, string> = {};
    const body = 'lorem ipsum dolor sit amet needle consectetur\n'.repeat(2000);
    for (let i = 0; i < 300; i++) files[`d${i % 10}/f${i}.txt`] = body;
    const ws = setup(files);
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    // A regex (every file is read and matched in the regex worker) is slow enough to cancel mid-way,
    // once the first progress report says files are being matched: its second branch, which never
    // matches, walks six words at every position (a busy machine's round trip to the client and back
    // must not outlast the matching).
    const reported = (token: string) =>
      new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (client.progress.some((p) => p.token === token && p.value.kind === 'report')) {
            clearInterval(timer);
            resolve();
          }
        }, 1);
      });
    const source = new CancellationTokenSource();
    const first = reported('rif-0');
    const pending = client.conn.sendRequest('workspace/executeCommand', { command: RIF, arguments: [{ search: SLOW_NEEDLE, replace: 'pin', use_regex: true }], workDoneToken: 'rif-0' }, source.token);
    await first;
    source.cancel();
    const error = await pending.then(
      () => undefined,
      (e: { data: any }) => e,
    );
    expect(error?.data?.kind).toBe('cancelled');
    const began = reported('rif-1');
    const second = client.conn.sendRequest('workspace/executeCommand', { command: RIF, arguments: [{ search: SLOW_NEEDLE, replace: 'pin', use_regex: true }], workDoneToken: 'rif-1' });
    await began;
    await client.conn.sendNotification('window/workDoneProgress/cancel', { token: 'rif-1' });
    const error2 = await second.then(
      () => undefined,
      (e: { data: any }) => e,
    );
    expect(error2?.data?.kind).toBe('cancelled');
    for (let i = 0; i < 300; i += 37) expect(ws.read(`d${i % 10}/f${i}.txt`)).toBe(body);
    expect(tempsUnder(ws.root)).toEqual([]);
    // The server keeps serving.
    const r = await client.exec(RIF, { search: 'needle', replace: 'pin', path: 'd0/f0.txt' });
    expect(r.replacements).toBe(2000);
  });

  it('files over maxFileSize are skipped and listed', async () => {
    const ws = setup({ 'small.txt': 'foo\n', 'big.txt': `foo${'x'.repeat(2000)}\n` });
    const client = await start(ws, { initializationOptions: { maxFileSize: 1000 } });
    const r = await client.exec(RIF, { search: 'foo', replace: 'bar' });
    expect(r.files.map((f: any) => f.path)).toEqual(['small.txt']);
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'big.txt', reason: expect.stringMatching(/^too_large/) })]);
    expect(ws.read('big.txt').startsWith('foo')).toBe(true);
  });
});
