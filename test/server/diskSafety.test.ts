// Disk writes under real conditions, over stdio: a folder swapped for a symlink while a command waits
// behind a slow one, another program changing the file between read and write, and permissions seen
// by an unprivileged server (run through setpriv as nobody when the tests run as root).
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPS_VSCODE, SERVER_JS } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

/** A line the regex engine needs a while for (`(a+)+$` backtracks 2^n times on it), and no match. */
const SLOW_LINE = `${'a'.repeat(27)}!`;
/** A few hundred ms of backtracking: long enough for another program's append to land mid-command. */
const SLOWISH_LINE = `${'a'.repeat(24)}!`;

function outsideFolder(files: Record<string, string>): string {
  return setup(files).root;
}

describe('time of check, time of use', () => {
  it('a command queued behind a slow regex does not write through a folder swapped for a symlink', async () => {
    // The swap must come after the slow command took the file (its answer then is regex_timeout, not
    // outside_workspace). Nothing the client sees tells when it did, so the scenario runs again on a
    // new workspace until it did (a busy machine may start the slow command late); every run checks
    // that nothing was written outside.
    let behindTheSlowOne = 0;
    for (let attempt = 0; attempt < 5 && behindTheSlowOne === 0; attempt++) {
      const ws = setup({ 'sub/f.txt': `alpha\n${SLOW_LINE}\n` });
      const outside = outsideFolder({ 'f.txt': `alpha\n${SLOW_LINE}\n` });
      const client = await start(ws, { initializationOptions: { regexTimeoutMs: 600 } });
      const slow = client.exec('editls.searchAndReplace', { path: 'sub/f.txt', search: '(a+)+$', replace: 'x', use_regex: true }).catch((e) => e?.data?.kind);
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      const queued = client.exec('editls.edit', { file_path: 'sub/f.txt', old_string: 'alpha', new_string: 'BETA' }).then(
        () => 'applied',
        (e) => e?.data?.kind,
      );
      await new Promise((r) => setTimeout(r, 50));
      renameSync(ws.file('sub'), ws.file('sub.moved'));
      symlinkSync(outside, ws.file('sub'));
      const slowKind = await slow;
      expect(['regex_timeout', 'outside_workspace']).toContain(slowKind);
      expect(await queued).toBe('outside_workspace');
      expect(readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe(`alpha\n${SLOW_LINE}\n`);
      expect(readdirSync(outside)).toEqual(['f.txt']);
      if (slowKind === 'regex_timeout') behindTheSlowOne++;
    }
    expect(behindTheSlowOne).toBe(1);
  });

  it('a create queued behind a slow editor makes no folder through a symlink', async () => {
    const ws = setup({ 'sub/keep.txt': 'k' });
    const outside = outsideFolder({});
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    // The editor is asked (so the slow command holds the file) before the next command is sent.
    let asked!: () => void;
    const editorAsked = new Promise<void>((resolve) => (asked = resolve));
    client.applyBehavior = async () => {
      asked();
      await new Promise((r) => setTimeout(r, 500));
      return { applied: false, failureReason: 'user declined' };
    };
    const slow = client.exec('editls.edit', { file_path: 'sub/new/x.ts', old_string: '', new_string: 'one', apply: 'editor' }).catch((e) => e?.data?.kind);
    await editorAsked;
    const queued = client.exec('editls.edit', { file_path: 'sub/new/x.ts', old_string: '', new_string: 'two', apply: 'disk' }).then(
      () => 'applied',
      (e) => e?.data?.kind,
    );
    await new Promise((r) => setTimeout(r, 50));
    renameSync(ws.file('sub'), ws.file('sub.moved'));
    symlinkSync(outside, ws.file('sub'));
    expect(await slow).toBe('apply_rejected');
    expect(await queued).toBe('outside_workspace');
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('another program writing the file', () => {
  it('a file changed between read and write gets the command once more, on its new text', async () => {
    const ws = setup({ 'log.txt': `token\n${SLOWISH_LINE}\n` });
    const client = await start(ws, { initializationOptions: { regexTimeoutMs: 20000 } });
    // The slow alternative keeps the scan busy long enough for the append to land before the write.
    const run = client.exec('editls.searchAndReplace', { path: 'log.txt', search: 'token|(a+)+$', replace: 'TOKEN', use_regex: true });
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(ws.file('log.txt'), 'appended meanwhile\n');
    const result = await run;
    expect(result.success).toBe(true);
    expect(ws.read('log.txt')).toBe(`TOKEN\n${SLOWISH_LINE}\nappended meanwhile\n`);
  });
});

describe('permissions', () => {
  it('root keeps the owner and group of a file it edits', async () => {
    if (process.getuid?.() !== 0) return;
    const ws = setup({ 'theirs.ts': 'old\n' });
    chownSync(ws.file('theirs.ts'), 1234, 5678);
    chmodSync(ws.file('theirs.ts'), 0o640);
    const client = await start(ws);
    await client.exec('editls.edit', { file_path: 'theirs.ts', old_string: 'old', new_string: 'new' });
    const st = statSync(ws.file('theirs.ts'));
    expect([st.uid, st.gid, st.mode & 0o7777, ws.read('theirs.ts')]).toEqual([1234, 5678, 0o640, 'new\n']);
  });

  /** Whether user nobody can run the server at all: a checkout under a 0700 folder (e.g. `mktemp -d`) keeps it out. */
  function nobodyCanRunServer(): boolean {
    if (process.getuid?.() !== 0 || !existsSync('/usr/bin/setpriv')) return false;
    try {
      execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', 'require("node:fs").accessSync(process.argv[1], require("node:fs").constants.R_OK)', SERVER_JS], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  describe.runIf(nobodyCanRunServer())('an unprivileged server (setpriv as nobody)', () => {
    const NOBODY = 65534;
    const runAs = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];

    function nobodyWorkspace(files: Record<string, string>) {
      const ws = setup(files);
      execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, ws.root]);
      return ws;
    }

    it('refuses a read-only (0444) file, in a folder it could write', async () => {
      const ws = nobodyWorkspace({ 'ro.ts': 'old\n' });
      chmodSync(ws.file('ro.ts'), 0o444);
      const client = await start(ws, { runAs });
      const err = await client.execError('editls.edit', { file_path: 'ro.ts', old_string: 'old', new_string: 'new' });
      expect(err.data.kind).toBe('io_error');
      expect(err.message).toMatch(/^cannot write ro\.ts: it is read-only for you \(mode 0444/);
      expect(ws.read('ro.ts')).toBe('old\n');
      expect(statSync(ws.file('ro.ts')).mode & 0o777).toBe(0o444);
    });

    it('refuses a file it cannot write that belongs to someone else, instead of taking it over', async () => {
      const ws = nobodyWorkspace({ 'roots.ts': 'old\n' });
      chownSync(ws.file('roots.ts'), 0, 0);
      chmodSync(ws.file('roots.ts'), 0o644);
      const client = await start(ws, { runAs });
      const err = await client.execError('editls.edit', { file_path: 'roots.ts', old_string: 'old', new_string: 'new' });
      expect(err.data.kind).toBe('io_error');
      expect(err.message).toContain('read-only');
      const st = statSync(ws.file('roots.ts'));
      expect([st.uid, ws.read('roots.ts')]).toEqual([0, 'old\n']);
    });

    it('a writable file in a read-only folder: the error names the file and says the folder is read-only', async () => {
      const ws = nobodyWorkspace({ 'locked/w.ts': 'old\n' });
      chmodSync(ws.file('locked'), 0o555);
      const client = await start(ws, { runAs });
      const err = await client.execError('editls.edit', { file_path: 'locked/w.ts', old_string: 'old', new_string: 'new' });
      expect(err.data.kind).toBe('io_error');
      expect(err.message).toMatch(/^cannot write locked\/w\.ts: the file is writable but folder locked is read-only/);
      expect(ws.read('locked/w.ts')).toBe('old\n');
    });

    it('a create in a read-only folder leaves no folder behind', async () => {
      const ws = nobodyWorkspace({ 'locked/keep.ts': 'k' });
      chmodSync(ws.file('locked'), 0o555);
      const client = await start(ws, { runAs });
      const err = await client.execError('editls.edit', { file_path: 'locked/x.ts', old_string: '', new_string: 'new' });
      expect(err.message).toBe('cannot create locked/x.ts: folder locked is read-only (EACCES)');
      chmodSync(ws.file('locked'), 0o755);
      expect(readdirSync(ws.file('locked'))).toEqual(['keep.ts']);
    });
  });
});

