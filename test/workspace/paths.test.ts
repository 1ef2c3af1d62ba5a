// Path resolution and workspace confinement against real temp directories and symlinks.

import { rmSync, symlinkSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileUri, realpathOrSelf, resolveWorkspacePath, slashedRelative, uriToPath } from '../../server/workspace/disk/paths.js';
import { folderChangeMemo } from '../../server/workspace/disk/folders.js';

let root: string; // realpath'd temp dir holding ws/, ws2/ and outside/
let ws: string;
let ws2: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'editls-paths-')));
  ws = path.join(root, 'ws');
  ws2 = path.join(root, 'ws2');
  outside = path.join(root, 'outside');
  await mkdir(path.join(ws, 'src'), { recursive: true });
  await mkdir(ws2);
  await mkdir(outside);
  await writeFile(path.join(ws, 'src', 'a.ts'), 'a\n');
  await writeFile(path.join(ws2, 'b.ts'), 'b\n');
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function ok(input: string, folders: readonly string[] = [ws]) {
  const r = await resolveWorkspacePath(input, folders);
  if (!r.ok) throw new Error(`expected success for ${input}, got ${r.kind}: ${r.message}`);
  return r;
}

async function kindOf(input: string, folders: readonly string[] = [ws]) {
  const r = await resolveWorkspacePath(input, folders);
  return r.ok ? 'ok' : r.kind;
}

describe('resolveWorkspacePath', () => {
  it('resolves a relative path against the first folder', async () => {
    const r = await ok('src/a.ts');
    expect(r.absPath).toBe(path.join(ws, 'src', 'a.ts'));
    expect(r.relPath).toBe('src/a.ts');
    expect(r.exists).toBe(true);
    expect(r.folder).toBe(ws);
    expect(r.uri).toBe(pathToFileURL(path.join(ws, 'src', 'a.ts')).href);
  });

  it('resolves an absolute path inside the folder', async () => {
    const r = await ok(path.join(ws, 'src', 'a.ts'));
    expect(r.relPath).toBe('src/a.ts');
    expect(r.exists).toBe(true);
  });

  it('normalises .. that stays inside', async () => {
    const r = await ok('src/../src/./a.ts');
    expect(r.absPath).toBe(path.join(ws, 'src', 'a.ts'));
  });

  it('accepts file:// URIs with percent-encoded spaces and non-ASCII characters', async () => {
    const dir = path.join(ws, 'my dir');
    await mkdir(dir);
    await writeFile(path.join(dir, 'café.ts'), 'x');
    const uri = pathToFileURL(path.join(dir, 'café.ts')).href;
    expect(uri).toContain('my%20dir/caf%C3%A9.ts');
    const r = await ok(uri);
    expect(r.absPath).toBe(path.join(dir, 'café.ts'));
    expect(r.relPath).toBe('my dir/café.ts');
    expect(r.exists).toBe(true);
    expect(r.uri).toBe(uri);
    // Upper-case scheme and localhost host are file URIs too.
    expect((await ok(`FILE://localhost${new URL(uri).pathname}`)).absPath).toBe(path.join(dir, 'café.ts'));
  });

  it('rejects .. escapes', async () => {
    const r = await resolveWorkspacePath('../outside/secret.txt', [ws]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('outside_workspace');
    expect(r.message).toContain('../outside/secret.txt');
    expect(r.message).toContain(ws);
    expect(await kindOf('src/../../outside/secret.txt')).toBe('outside_workspace');
  });

  it('rejects an absolute path outside the workspace, and file:// URIs outside', async () => {
    expect(await kindOf(path.join(outside, 'secret.txt'))).toBe('outside_workspace');
    expect(await kindOf(pathToFileURL(path.join(outside, 'secret.txt')).href)).toBe('outside_workspace');
    expect(await kindOf('/etc/passwd')).toBe('outside_workspace');
    expect(await kindOf('/')).toBe('outside_workspace');
  });

  it('rejects a symlinked file that points outside', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
    const r = await resolveWorkspacePath('link.txt', [ws]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('outside_workspace');
    expect(r.message).toContain(path.join(outside, 'secret.txt'));
  });

  it('rejects a symlinked folder that points outside, for existing and missing files', async () => {
    await symlink(outside, path.join(ws, 'linked'), 'dir');
    expect(await kindOf('linked/secret.txt')).toBe('outside_workspace');
    expect(await kindOf('linked/new.txt')).toBe('outside_workspace');
    expect(await kindOf('linked/deeper/new.txt')).toBe('outside_workspace');
  });

  it('rejects a dangling symlink whose target would be created outside', async () => {
    await symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling.txt'));
    expect(await kindOf('dangling.txt')).toBe('outside_workspace');
  });

  it('follows a dangling symlink that points inside to its target', async () => {
    await symlink('src/future.ts', path.join(ws, 'dangling.ts'));
    const r = await ok('dangling.ts');
    expect(r.absPath).toBe(path.join(ws, 'src', 'future.ts'));
    expect(r.exists).toBe(false);
  });

  it('allows a symlink inside pointing inside, and reports the target', async () => {
    await symlink(path.join(ws, 'src', 'a.ts'), path.join(ws, 'alias.ts'));
    await symlink('src', path.join(ws, 'srclink'), 'dir');
    const r = await ok('alias.ts');
    expect(r.absPath).toBe(path.join(ws, 'src', 'a.ts'));
    expect(r.relPath).toBe('src/a.ts');
    expect(r.exists).toBe(true);
    expect((await ok('srclink/a.ts')).absPath).toBe(path.join(ws, 'src', 'a.ts'));
  });

  it('resolves folders given through a symlink (fixed to their real path, as initialize does)', async () => {
    const wsLink = path.join(root, 'ws-link');
    await symlink(ws, wsLink, 'dir');
    const fixed = [realpathOrSelf(wsLink)];
    const r = await ok(path.join(wsLink, 'src', 'a.ts'), fixed);
    expect(r.absPath).toBe(path.join(ws, 'src', 'a.ts'));
    expect(r.folder).toBe(ws);
    expect((await ok('src/a.ts', fixed)).relPath).toBe('src/a.ts');
  });

  it('refuses, never follows, a folder replaced by a symlink or removed after it was fixed', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, 'a.txt'), 'outside\n');
    const { rename } = await import('node:fs/promises');
    await rename(ws, path.join(root, 'ws.bak'));
    await symlink(elsewhere, ws, 'dir');
    for (const input of ['a.txt', 'new.txt', path.join(ws, 'a.txt'), pathToFileURL(path.join(ws, 'a.txt')).href]) {
      const r = await resolveWorkspacePath(input, [ws]);
      expect(r.ok ? r.absPath : r.kind).toBe('outside_workspace');
      if (!r.ok) expect(r.message).toContain(`now resolves to ${elsewhere}`);
    }
    expect(await kindOf(path.join(elsewhere, 'a.txt'))).toBe('outside_workspace');
    // A second folder that did not change still works.
    expect(await kindOf(path.join(ws2, 'b.ts'), [ws, ws2])).toBe('ok');
    // Removed (renamed away, nothing in its place): refused too, not resolved lexically.
    await rm(ws);
    const gone = await resolveWorkspacePath('new.txt', [ws]);
    expect(gone.ok ? gone.absPath : gone.kind).toBe('outside_workspace');
    if (!gone.ok) expect(gone.message).toContain('no longer exists');
    expect(await kindOf('.', [ws])).toBe('outside_workspace');
  });

  it('handles a missing file in an existing folder', async () => {
    const r = await ok('src/new.ts');
    expect(r.absPath).toBe(path.join(ws, 'src', 'new.ts'));
    expect(r.exists).toBe(false);
    expect(r.relPath).toBe('src/new.ts');
  });

  it('handles a missing file in missing folders', async () => {
    const r = await ok('x/y/z/new.ts');
    expect(r.absPath).toBe(path.join(ws, 'x', 'y', 'z', 'new.ts'));
    expect(r.exists).toBe(false);
    expect(r.relPath).toBe('x/y/z/new.ts');
  });

  it('treats a path below a regular file as missing', async () => {
    const r = await ok('src/a.ts/child');
    expect(r.exists).toBe(false);
  });

  it('is not fooled by a sibling folder sharing the prefix (/ws vs /ws2)', async () => {
    expect(await kindOf(path.join(ws2, 'b.ts'), [ws])).toBe('outside_workspace');
    expect(await kindOf('../ws2/b.ts', [ws])).toBe('outside_workspace');
    expect(await kindOf(`${ws}2/new.ts`, [ws])).toBe('outside_workspace');
  });

  it('accepts files in any of several folders, relative paths against the first', async () => {
    const a = await ok('src/a.ts', [ws, ws2]);
    expect(a.folder).toBe(ws);
    const b = await ok(path.join(ws2, 'b.ts'), [ws, ws2]);
    expect(b.folder).toBe(ws2);
    expect(b.relPath).toBe('../ws2/b.ts');
    expect(b.exists).toBe(true);
    // relative paths go to the first folder only
    const r = await ok('b.ts', [ws, ws2]);
    expect(r.absPath).toBe(path.join(ws, 'b.ts'));
    expect(r.exists).toBe(false);
  });

  it('reports the innermost folder when folders nest', async () => {
    const r = await ok('src/a.ts', [ws, path.join(ws, 'src')]);
    expect(r.folder).toBe(path.join(ws, 'src'));
    expect(r.relPath).toBe('src/a.ts');
  });

  it('names every folder in the outside_workspace message', async () => {
    const r = await resolveWorkspacePath(path.join(outside, 'secret.txt'), [ws, ws2]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(ws);
    expect(r.message).toContain(ws2);
    expect(r.data?.folders).toEqual([ws, ws2]);
  });

  it('fails with outside_workspace when no folder is open', async () => {
    const r = await resolveWorkspacePath('src/a.ts', []);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('outside_workspace');
    expect(r.message).toContain('no workspace folder is open');
    expect(await kindOf(path.join(ws, 'src', 'a.ts'), [])).toBe('outside_workspace');
  });

  it('fails with io_error for a directory, and for the workspace folder itself', async () => {
    const r = await resolveWorkspacePath('src', [ws]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('io_error');
    expect(r.message).toContain('is a directory');
    expect(await kindOf('.')).toBe('io_error');
    expect(await kindOf(ws)).toBe('io_error');
  });

  it('rejects empty input, NUL bytes and other URI schemes as invalid_args', async () => {
    expect(await kindOf('')).toBe('invalid_args');
    expect(await kindOf('   ')).toBe('invalid_args');
    expect(await kindOf('src/a\0.ts')).toBe('invalid_args');
    expect(await kindOf('untitled:Untitled-1')).toBe('invalid_args');
    expect(await kindOf('https://example.com/a.ts')).toBe('invalid_args');
    expect(await kindOf('file://remote-host/share/a.ts')).toBe('invalid_args');
    expect(await kindOf(`file://${ws}/a%00.ts`)).toBe('invalid_args');
    // invalid input wins over "no folder"
    expect(await kindOf('', [])).toBe('invalid_args');
  });

  it('follows a dangling link in the middle of a missing path, relative to the folder that holds it, and chains of them', async () => {
    await symlink('../outside/gone', path.join(ws, 'mid'));
    const out = await resolveWorkspacePath('mid/x/y.ts', [ws]);
    expect(out.ok ? 'ok' : out.kind).toBe('outside_workspace');
    if (!out.ok) expect(out.data?.absPath).toBe(path.join(outside, 'gone', 'x', 'y.ts'));
    // link1 -> link2 -> src/later (missing): two hops, inside.
    await symlink('link2/b', path.join(ws, 'link1'));
    await symlink('src/later', path.join(ws, 'link2'));
    expect((await ok('link1/c.ts')).absPath).toBe(path.join(ws, 'src', 'later', 'b', 'c.ts'));
    // A loop of links ends (ELOOP), it does not spin.
    await symlink('loopB/x', path.join(ws, 'loopA'));
    await symlink('loopA/x', path.join(ws, 'loopB'));
    const loop = await resolveWorkspacePath('loopA/y.ts', [ws]);
    expect(loop.ok ? 'ok' : `${loop.kind} ${loop.message}`).toMatch(/^io_error .*ELOOP/);
  });

  it('refuses a path longer than the system opens (131,072 components) at once, and resolves a deep one inside PATH_MAX', async () => {
    const huge = `${'a/'.repeat(131_072)}f.ts`;
    const r = await resolveWorkspacePath(huge, [ws]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.kind).toBe('invalid_args');
      expect(r.message).toMatch(/over the system's limit of 4096 bytes/);
    }
    // As a file:// URI too.
    const uri = await resolveWorkspacePath(pathToFileURL(path.join(ws, huge)).href, [ws]);
    expect(uri.ok ? 'ok' : uri.kind).toBe('invalid_args');
    // 1,900 missing folders (about 3,800 bytes): resolved, one walk up and one down.
    const deep = `${'d/'.repeat(1_900)}f.ts`;
    const d = await ok(deep);
    expect(d.absPath).toBe(path.join(ws, deep));
    expect(d.exists).toBe(false);
    // realpathOrSelf takes any length without a stack overflow.
    expect(realpathOrSelf(path.join(ws, huge))).toBe(path.join(ws, huge));
  });

  it('reads a relative name containing a colon through ./', async () => {
    const r = await ok('./c:d.txt');
    expect(r.absPath).toBe(path.join(ws, 'c:d.txt'));
  });
});

describe.runIf(process.platform === 'linux')('resolveWorkspacePath of a listed path (a file ripgrep named)', () => {
  it('is taken as real, confined by string, while a plain path through a link is resolved', async () => {
    await symlink(path.join(ws, 'src'), path.join(ws, 'link'));
    await symlink(outside, path.join(ws, 'out'));
    const listed = await resolveWorkspacePath(path.join(ws, 'src', 'a.ts'), [ws], { listed: true });
    expect(listed).toMatchObject({ ok: true, absPath: path.join(ws, 'src', 'a.ts'), relPath: 'src/a.ts', exists: true, folder: ws });
    // Not looked up again: the confined read refuses such a path (test/workspace/replaceReadEarly.test.ts).
    expect(await resolveWorkspacePath(path.join(ws, 'link', 'a.ts'), [ws], { listed: true })).toMatchObject({ ok: true, absPath: path.join(ws, 'link', 'a.ts') });
    expect(await resolveWorkspacePath(path.join(ws, 'out', 'secret.txt'), [ws], { listed: true })).toMatchObject({ ok: true, absPath: path.join(ws, 'out', 'secret.txt') });
    // Unlisted, the same paths are resolved through the links.
    expect(await resolveWorkspacePath(path.join(ws, 'link', 'a.ts'), [ws])).toMatchObject({ ok: true, absPath: path.join(ws, 'src', 'a.ts') });
    expect(await resolveWorkspacePath(path.join(ws, 'out', 'secret.txt'), [ws])).toMatchObject({ ok: false, kind: 'outside_workspace' });
    // Still confined by its string, and a relative one is resolved as always.
    expect(await resolveWorkspacePath(path.join(outside, 'secret.txt'), [ws], { listed: true })).toMatchObject({ ok: false, kind: 'outside_workspace' });
    expect(await resolveWorkspacePath('link/a.ts', [ws], { listed: true })).toMatchObject({ ok: true, absPath: path.join(ws, 'src', 'a.ts') });
  });

  it('checks the folders through the memo it is given: once a turn, seen again after it', async () => {
    const check = folderChangeMemo();
    expect((await resolveWorkspacePath(path.join(ws, 'src', 'a.ts'), [ws, ws2], { listed: true, folderChange: check })).ok).toBe(true);
    // Swapped for a link within the turn: the memo still holds what it saw at the turn's first check...
    rmSync(ws2, { recursive: true });
    symlinkSync(outside, ws2);
    expect(check(ws2)).toBeUndefined();
    expect((await resolveWorkspacePath(path.join(ws2, 'b.ts'), [ws, ws2], { listed: true, folderChange: check })).ok).toBe(true);
    // ...a plain check sees it at once, and the memo after the turn.
    expect(await resolveWorkspacePath(path.join(ws2, 'b.ts'), [ws, ws2])).toMatchObject({ ok: false, kind: 'outside_workspace', data: { reason: 'folder_changed' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(check(ws2)).toMatch(/now resolves to/);
    expect(await resolveWorkspacePath(path.join(ws2, 'b.ts'), [ws, ws2], { listed: true, folderChange: check })).toMatchObject({ ok: false, kind: 'outside_workspace', data: { reason: 'folder_changed' } });
  });
});

describe('uriToPath', () => {
  it('decodes file URIs and ignores other schemes', () => {
    expect(uriToPath('file:///tmp/a%20b/caf%C3%A9.ts')).toBe('/tmp/a b/café.ts');
    expect(uriToPath('untitled:Untitled-1')).toBeUndefined();
    expect(uriToPath('https://x/y')).toBeUndefined();
    expect(uriToPath('file:///a%2Fb')).toBeUndefined();
  });
});

describe('realpathOrSelf', () => {
  it('returns the real path of existing paths and resolves the nearest ancestor of missing ones', async () => {
    await symlink(outside, path.join(ws, 'linked'), 'dir');
    expect(realpathOrSelf(path.join(ws, 'linked', 'secret.txt'))).toBe(path.join(outside, 'secret.txt'));
    expect(realpathOrSelf(path.join(ws, 'linked', 'a', 'b.txt'))).toBe(path.join(outside, 'a', 'b.txt'));
    expect(realpathOrSelf(path.join(ws, 'nope', '..', 'src', 'a.ts'))).toBe(path.join(ws, 'src', 'a.ts'));
  });
});

describe('fileUri and slashedRelative (the per-file shortcuts of searches and the index)', () => {
  // Path segments from characters URLs escape or not: ASCII punctuation, space, %, #, ?, \, line
  // breaks, tabs, non-ASCII (Latin, CJK, emoji, a lone surrogate), and the plain ones of the fast path.
  const segment = fc
    .array(fc.constantFrom('a', 'Z', '0', '.', '_', '-', '+', '~', ' ', '%', '#', '?', '\\', '\n', '\r', '\t', '"', "'", '<', '>', '`', '{', '}', '|', '^', '[', ']', '@', ':', ';', '=', '&', '$', ',', '!', '*', '(', ')', 'é', '漢', '😀', '\ud800'), { minLength: 1, maxLength: 6 })
    .map((cs) => cs.join(''))
    .filter((s) => s !== '.' && s !== '..');
  const absPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => path.resolve(`/${segs.join('/')}`));

  it('fileUri spells every normalised absolute path as pathToFileURL does', () => {
    fc.assert(
      fc.property(absPath, (abs) => {
        expect(fileUri(abs)).toBe(pathToFileURL(abs).href);
      }),
      { numRuns: 3000 },
    );
    for (const abs of ['/', '/a', '/tmp/x.ts', '/a b/c', '/a%20b', '/a#b?c', '/x/.hidden', '/x/a+b~c', '/漢字/😀.ts']) expect(fileUri(abs)).toBe(pathToFileURL(abs).href);
  });

  it('slashedRelative answers as path.relative does, inside the folder and out of it', () => {
    const pair = fc.tuple(absPath, fc.array(segment, { minLength: 0, maxLength: 3 }), fc.boolean(), absPath);
    fc.assert(
      fc.property(pair, ([dir, below, inside, other]) => {
        const abs = inside ? path.resolve(dir, ...below) : other;
        expect(slashedRelative(dir, abs)).toBe(path.relative(dir, abs));
      }),
      { numRuns: 3000 },
    );
    for (const [dir, abs] of [['/', '/a'], ['/a', '/a'], ['/a', '/ab'], ['/a', '/a/b'], ['/a/b', '/a'], ['/a', '/b/c']] as const) expect(slashedRelative(dir, abs)).toBe(path.relative(dir, abs));
  });
});
