// Confinement under a changing file system, through the real server over stdio: a workspace folder
// replaced by a symlink (or removed) after initialize is refused, never followed, by every consumer
// (edits, creates, searches, previews, workspace/symbol); one file open under two URIs (a symlinked
// path) stays open until both are closed, so edits go to the editor, never to disk under it.
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

interface Symbol {
  name: string;
  location: { uri: string };
}

/** A temp folder holding proj/ (the workspace) and elsewhere/ (what proj/ will be swapped for), and the server on proj/. */
async function swappable(files: Record<string, string> = {}) {
  const base = setup({
    'proj/a.ts': 'export function insideFn() {}\n',
    'elsewhere/a.ts': 'export function secretFn() {} // outside\n',
    'elsewhere/other.ts': 'export function otherSecret() {}\n',
    'second/b.ts': 'export function secondFn() {}\n',
    ...files,
  });
  const proj = base.file('proj');
  const client = await TestClient.start({ root: proj });
  cleanups.push(() => client.shutdown());
  const symbols = async (query: string) => ((await client.conn.sendRequest('workspace/symbol', { query })) as Symbol[]).map((s) => s.name);
  return {
    base,
    proj,
    client,
    symbols,
    /** mv proj proj.bak; ln -s elsewhere proj */
    swap: () => {
      renameSync(proj, base.file('proj.bak'));
      symlinkSync(base.file('elsewhere'), proj, 'dir');
    },
  };
}

describe('a workspace folder replaced by a symlink after initialize', () => {
  it('refuses edits, creates, absolute paths and searches with outside_workspace, logs it, and changes nothing elsewhere', async () => {
    const { base, proj, client, swap } = await swappable();
    expect((await client.exec('editls.searchFiles', { path: '.', regex: 'insideFn' })).count).toBe(1);
    swap();
    const before = base.read('elsewhere/a.ts');

    const edit = await client.execError('editls.edit', { file_path: 'a.ts', old_string: 'outside', new_string: 'pwned' });
    expect(edit.data.kind).toBe('outside_workspace');
    expect(edit.message).toContain(`workspace folder ${proj}`);
    expect(edit.message).toContain(`now resolves to ${base.file('elsewhere')}`);
    const abs = await client.execError('editls.edit', { file_path: path.join(proj, 'a.ts'), old_string: 'outside', new_string: 'pwned' });
    expect(abs.data.kind).toBe('outside_workspace');
    const uri = await client.execError('editls.strReplace', { path: pathToFileURL(path.join(proj, 'a.ts')).href, replacements: [{ old: 'outside', new: 'pwned' }] });
    expect(uri.data.kind).toBe('outside_workspace');
    const create = await client.execError('editls.edit', { file_path: 'new.ts', old_string: '', new_string: 'planted\n' });
    expect(create.data.kind).toBe('outside_workspace');
    const search = await client.execError('editls.searchFiles', { path: '.', regex: 'secretFn|outside' });
    expect(search.data.kind).toBe('outside_workspace');
    const preview = await client.execError('editls.proposeStrReplace', { path: 'a.ts', replacements: [{ old: 'outside', new: 'pwned' }] });
    expect(preview.data.kind).toBe('outside_workspace');

    expect(base.read('elsewhere/a.ts')).toBe(before);
    expect(existsSync(base.file('elsewhere/new.ts'))).toBe(false);
    expect(client.logs.some((l) => l.includes(`workspace folder ${proj}`) && l.includes('does not follow'))).toBe(true);
  });

  it('applyPreview of a preview made before the swap refuses and writes nothing elsewhere', async () => {
    const { base, client, swap } = await swappable({ 'elsewhere/a.ts': 'export function insideFn() {}\n' });
    const p = await client.exec('editls.proposeStrReplace', { path: 'a.ts', replacements: [{ old: 'insideFn', new: 'renamed' }] });
    swap();
    const r = await client.execError('editls.applyPreview', { id: p.previewId });
    expect(r.data.kind).toBe('outside_workspace');
    expect(base.read('elsewhere/a.ts')).toBe('export function insideFn() {}\n');
    expect(base.read('proj.bak/a.ts')).toBe('export function insideFn() {}\n');
  });

  it('workspace/symbol drops the folder and a rebuild does not index where it now leads', async () => {
    const { base, client, symbols, swap } = await swappable();
    expect(await symbols('insideFn')).toEqual(['insideFn']);
    swap();
    // Locations under the folder now lead elsewhere: they are no longer answered.
    expect(await symbols('insideFn')).toEqual([]);
    // A folder change rebuilds the index over the folders: the replaced one is skipped.
    await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: pathToFileURL(base.file('second')).href, name: 'second' }], removed: [] },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await symbols('secondFn')).toEqual(['secondFn']);
    expect(await symbols('secretFn')).toEqual([]);
    expect(await symbols('otherSecret')).toEqual([]);
    // Watched-file events for paths under it are not followed either.
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: client.uri('other.ts'), type: 1 }] });
    expect(await symbols('otherSecret')).toEqual([]);
  });

  it('a removed folder (renamed away) is refused clearly and not recreated', async () => {
    const { base, proj, client } = await swappable();
    renameSync(proj, base.file('proj.bak'));
    const create = await client.execError('editls.edit', { file_path: 'new.ts', old_string: '', new_string: 'x\n' });
    expect(create.data.kind).toBe('outside_workspace');
    expect(create.message).toContain('no longer exists');
    expect(existsSync(proj)).toBe(false);
    expect(existsSync(base.file('proj.bak/new.ts'))).toBe(false);
    const edit = await client.execError('editls.edit', { file_path: 'a.ts', old_string: 'insideFn', new_string: 'x' });
    expect(edit.data.kind).toBe('outside_workspace');
    expect(base.read('proj.bak/a.ts')).toBe('export function insideFn() {}\n');
  });

  it('a folder removed through didChangeWorkspaceFolders after the swap is removed (found by the path it was named by)', async () => {
    const { base, proj, client, swap } = await swappable();
    swap();
    await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: pathToFileURL(base.file('second')).href, name: 'second' }], removed: [{ uri: pathToFileURL(proj).href, name: 'proj' }] },
    });
    // 'b.ts' is now relative to the only folder, second/.
    const r = await client.exec('editls.edit', { file_path: 'b.ts', old_string: 'secondFn', new_string: 'secondRenamed' });
    expect(r.success).toBe(true);
    expect(base.read('second/b.ts')).toContain('secondRenamed');
    expect(base.read('elsewhere/a.ts')).toContain('secretFn');
  });
});

describe('removing a swapped folder', () => {
  it('a folder swapped for a link to the other workspace folder, then removed, leaves the other folder in place', async () => {
    const base = setup({ 'proj/a.ts': 'export const a = 1;\n', 'second/b.ts': 'export const b = 1;\n' });
    const proj = base.file('proj');
    const client = await TestClient.start({ root: proj, folders: [proj, base.file('second')] });
    cleanups.push(() => client.shutdown());
    renameSync(proj, base.file('proj.bak'));
    symlinkSync(base.file('second'), proj, 'dir');
    await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [{ uri: pathToFileURL(proj).href, name: 'proj' }] } });
    const r = await client.exec('editls.edit', { file_path: 'b.ts', old_string: 'b = 1', new_string: 'b = 2' });
    expect(r.files[0].path).toBe('b.ts');
    expect(base.read('second/b.ts')).toBe('export const b = 2;\n');
    expect(client.logs).toContain(`workspace folders: ${base.file('second')}`);
  });
});

describe('one file open under two URIs (through a symlinked path)', () => {
  for (const [kept, closed] of [
    ['link.ts', 'real.ts'],
    ['real.ts', 'link.ts'],
  ] as const) {
    it(`open ${kept} then ${closed}, change ${kept}, close ${closed}: an edit goes to the editor, the disk stays byte-identical`, async () => {
      const ws = setup({ 'real.ts': 'const a = 1;\r\n' });
      symlinkSync(ws.file('real.ts'), ws.file('link.ts'));
      const client = await start(ws);
      await client.open(kept, 'const a = 1;\r\n');
      await client.open(closed, 'const a = 1;\r\n');
      await client.type(kept, 'a = 1', 'a = 2');
      await client.close(closed);
      const disk = ws.bytes('real.ts');

      const r = await client.exec('editls.edit', { file_path: 'real.ts', old_string: 'const', new_string: 'let' });
      expect(r.files[0].via).toBe('editor');
      expect(client.bufferText(kept)).toBe('let a = 2;\r\n');
      expect(ws.bytes('real.ts').equals(disk)).toBe(true);
      // Through the link's path too.
      const r2 = await client.exec('editls.edit', { file_path: 'link.ts', old_string: 'let', new_string: 'var' });
      expect(r2.files[0].via).toBe('editor');
      expect(client.bufferText(kept)).toBe('var a = 2;\r\n');
      expect(ws.bytes('real.ts').equals(disk)).toBe(true);

      // Once the last URI closes, the disk is the truth again.
      await client.close(kept);
      const r3 = await client.exec('editls.edit', { file_path: 'real.ts', old_string: 'const', new_string: 'let' });
      expect(r3.files[0].via).toBe('disk');
      expect(ws.read('real.ts')).toBe('let a = 1;\r\n');
    });
  }

  it('searchFiles reports the file once, as its latest buffer', async () => {
    const ws = setup({ 'real.ts': 'needle one\n' });
    symlinkSync(ws.file('real.ts'), ws.file('link.ts'));
    const client = await start(ws);
    await client.open('real.ts', 'needle one\n');
    await client.open('link.ts', 'needle one\n');
    await client.type('real.ts', 'one', 'three');
    await client.type('link.ts', 'one', 'two');
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
    expect(r.matches.map((m: { path: string; text: string }) => `${m.path}: ${m.text}`)).toEqual(['real.ts: needle two']);
  });
});

describe('searchFiles scope', () => {
  it('a sub-folder replaced by a link to another folder inside the workspace searches where it leads (still inside)', async () => {
    const ws = setup({ 'sub/a.txt': 'needle inside\n', 'outside/secret.txt': 'needle secret\n' });
    const client = await start(ws);
    expect((await client.exec('editls.searchFiles', { path: 'sub', regex: 'needle' })).count).toBe(1);
    renameSync(ws.file('sub'), ws.file('sub.bak'));
    mkdirSync(ws.file('elsewhere'));
    writeFileSync(ws.file('elsewhere/secret.txt'), 'needle secret\n');
    symlinkSync(ws.file('elsewhere'), ws.file('sub'), 'dir');
    // The scope resolves to elsewhere/ (inside the workspace, so allowed: it is what `sub` names now).
    const r = await client.exec('editls.searchFiles', { path: 'sub', regex: 'needle' });
    expect(r.matches.map((m: { path: string }) => m.path)).toEqual(['elsewhere/secret.txt']);
    expect(readFileSync(ws.file('elsewhere/secret.txt'), 'utf8')).toBe('needle secret\n');
  });
});
