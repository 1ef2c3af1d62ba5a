// dist/editls.js (server/launch.ts) runs each bundle (dist/editls-server.js, and dist/editls-session.js,
// which the first loads once `initialize` is answered or `editls mcp` starts) through the V8 code
// cache the build wrote for it, and
// only a cache made from that very bundle, undamaged, for this Node and these V8 flags: a bundle
// edited after the build (even to the same length, which V8 alone would not notice), a damaged or
// missing cache, or other V8 flags start as usual, running the bundle's own code. A start that
// checked the hashes notes both files' identity (editls-server.checked) and later starts skip the
// hashes while the files keep it; any write to either file changes it. Needs `node esbuild.mjs`
// first (npm test runs it).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const VERSION = (JSON.parse(readFileSync(path.resolve(DIST, '../package.json'), 'utf8')) as { version: string }).version;

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

/** A copy of dist/ (without source maps) to spoil. */
function distCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-dist-'));
  temps.push(dir);
  cpSync(DIST, dir, { recursive: true, filter: (f) => !f.endsWith('.map') });
  return dir;
}

function run(dist: string, args: string[], nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, path.join(dist, 'editls.js'), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    input: '',
    env: { ...process.env, EDITLS_LOG_CODE_CACHE: '1' },
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const USED = 'editls: code cache used\n';
const USED_AS_CHECKED = 'editls: code cache used (its files unchanged since a start checked them)\n';

/** `editls mcp` on an empty folder whose agent is gone at once (stdin closed): it loads the session bundle. */
function runSession(dist: string, nodeArgs: string[] = []) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'editls-cache-mcp-'));
  temps.push(folder);
  const r = run(dist, ['mcp', '--root', folder], nodeArgs);
  return { ...r, cacheLines: r.stderr.split('\n').filter((l) => l.includes('code cache')) };
}

describe('the code cache of dist/editls.js', () => {
  it('the build wrote one and a start uses it', () => {
    expect(readFileSync(path.join(DIST, 'editls-server.cache')).subarray(0, 18).toString()).toBe('editls code cache ');
    const r = run(DIST, ['--version']);
    expect({ ...r, stderr: r.stderr === USED_AS_CHECKED ? USED : r.stderr }).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: USED });
  });

  it('a start checks the hashes once; later starts of the same files skip them, and the files stay out of the package', () => {
    const dist = distCopy();
    // Copied files are other inodes: a note copied along from dist/ does not hold for them.
    expect(run(dist, ['--version']).stderr).toBe(USED);
    const note = readFileSync(path.join(dist, 'editls-server.checked'), 'latin1');
    expect(note).toMatch(/^editls code cache [0-9a-f]{40} [0-9a-f]{40}( \d+:\d+:\d+:\d+:\d+){2}\n$/);
    expect(run(dist, ['--version'])).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: USED_AS_CHECKED });
    expect(run(dist, ['--version']).stderr).toBe(USED_AS_CHECKED);
    // A note that does not match (another build's, a damaged one) is checked again and rewritten.
    writeFileSync(path.join(dist, 'editls-server.checked'), note.replace(/ \d+:/, ' 1:'));
    expect(run(dist, ['--version']).stderr).toBe(USED);
    expect(readFileSync(path.join(dist, 'editls-server.checked'), 'latin1')).toBe(note);
    expect(readdirSync(dist).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const files = (JSON.parse(readFileSync(path.resolve(DIST, '../package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).toContain('!dist/*.checked');
  });

  it('where the note cannot be written, every start checks the hashes and uses the cache', () => {
    const dist = distCopy();
    rmSync(path.join(dist, 'editls-server.checked'), { force: true });
    mkdirSync(path.join(dist, 'editls-server.checked')); // what a read-only folder does to the write
    expect(run(dist, ['--version']).stderr).toBe(USED);
    expect(run(dist, ['--version'])).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: USED });
    expect(readdirSync(dist).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A FIFO in its place is not read (opening it would wait for a writer for ever).
    rmSync(path.join(dist, 'editls-server.checked'), { recursive: true });
    if (process.platform !== 'win32') {
      expect(spawnSync('mkfifo', [path.join(dist, 'editls-server.checked')]).status).toBe(0);
      expect(run(dist, ['--version'])).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: USED });
    }
  });

  it('a bundle edited after the build (same length) runs its own code, not the cached one', () => {
    const dist = distCopy();
    expect(run(dist, ['--version']).stderr).toBe(USED); // the note of a checked start exists before the edit
    expect(existsSync(path.join(dist, 'editls-server.checked'))).toBe(true);
    const bundle = path.join(dist, 'editls-server.js');
    const text = readFileSync(bundle, 'utf8');
    expect(text).toContain('usage: editls [--stdio]');
    writeFileSync(bundle, text.replace('usage: editls [--stdio]', 'usage: EDITLS [--stdio]'));
    const help = run(dist, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: EDITLS \[--stdio\]\n/);
    expect(help.stderr).toBe('editls: code cache not used: the cache was made from another bundle\n');
  });

  it("the session bundle's cache: used, checked once, refused when damaged or missing", () => {
    const dist = distCopy();
    expect(readFileSync(path.join(DIST, 'editls-session.cache')).subarray(0, 18).toString()).toBe('editls code cache ');
    const first = runSession(dist);
    expect(first.status).toBe(0);
    expect(first.cacheLines).toEqual(['editls: code cache used', 'editls: code cache of editls-session.js used']);
    expect(readFileSync(path.join(dist, 'editls-session.checked'), 'latin1')).toMatch(/^editls code cache [0-9a-f]{40} [0-9a-f]{40}( \d+:\d+:\d+:\d+:\d+){2}\n$/);
    expect(runSession(dist).cacheLines).toEqual([USED_AS_CHECKED.trim(), 'editls: code cache of editls-session.js used (its files unchanged since a start checked them)']);
    const cache = path.join(dist, 'editls-session.cache');
    const good = readFileSync(cache);
    const damaged = Buffer.from(good);
    for (let i = damaged.indexOf(10) + 1000; i < damaged.length; i += 97) damaged[i]! ^= 0x5a;
    writeFileSync(cache, damaged);
    const refused = runSession(dist);
    expect(refused.status).toBe(0);
    expect(refused.cacheLines[1]).toBe('editls: code cache of editls-session.js not used: the cache is damaged');
    rmSync(cache);
    expect(runSession(dist).cacheLines[1]).toBe('editls: code cache of editls-session.js not used: no cache (ENOENT)');
    // A session bundle edited after the build runs its own code.
    const bundle = path.join(dist, 'editls-session.js');
    writeFileSync(cache, good);
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('editls mcp: serving ', 'EDITLS MCP: serving '));
    const edited = runSession(dist);
    expect(edited.cacheLines[1]).toBe('editls: code cache of editls-session.js not used: the cache was made from another bundle');
    expect(edited.stderr).toContain('EDITLS MCP: serving ');
  });

  it('a damaged, foreign or missing cache is not used, and editls starts', () => {
    const dist = distCopy();
    const cache = path.join(dist, 'editls-server.cache');
    expect(run(dist, ['--version']).stderr).toBe(USED); // checked and noted before the damage
    const good = readFileSync(cache);
    // Bytes changed after the first line: V8 would crash deserialising them.
    const damaged = Buffer.from(good);
    for (let i = damaged.indexOf(10) + 1000; i < damaged.length; i += 97) damaged[i]! ^= 0x5a;
    writeFileSync(cache, damaged);
    expect(run(dist, ['--version'])).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: 'editls: code cache not used: the cache is damaged\n' });
    writeFileSync(cache, good.subarray(0, good.length >> 1));
    expect(run(dist, ['--version']).stderr).toBe('editls: code cache not used: the cache is damaged\n');
    writeFileSync(cache, 'not a cache\n');
    expect(run(dist, ['--version']).stderr).toBe('editls: code cache not used: the cache file is not one\n');
    rmSync(cache);
    expect(run(dist, ['--version'])).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: 'editls: code cache not used: no cache (ENOENT)\n' });
  });

  it('other V8 flags: V8 refuses the caches and editls compiles its bundles', () => {
    const r = run(DIST, ['--version'], ['--max-old-space-size=64']);
    expect(r).toEqual({ status: 0, signal: null, stdout: `editls ${VERSION}\n`, stderr: 'editls: code cache not used: V8 rejected the cache (another Node version or other V8 flags)\n' });
    expect(runSession(DIST, ['--max-old-space-size=64']).cacheLines).toEqual([
      'editls: code cache not used: V8 rejected the cache (another Node version or other V8 flags)',
      'editls: code cache of editls-session.js not used: V8 rejected the cache (another Node version or other V8 flags)',
    ]);
  });
});
