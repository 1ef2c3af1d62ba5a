// Process entry of dist/editls.js: runs the bundled server (dist/editls-server.js, built from
// main.ts, and dist/editls-session.js, built from session.ts, which main.ts loads once `initialize`
// is answered) through V8's code cache (dist/<bundle>.cache, written by `node esbuild.mjs` after a
// warm-up session), so that a start does not parse and compile them again. Node 20 has no
// module.enableCompileCache; this is what it does, for these two files. Without a cache, or with
// one made for another bundle, Node version or V8 flags, a bundle is compiled as usual.
// EDITLS_WRITE_CODE_CACHE=DIR writes each bundle's cache there at exit (the build's warm-up);
// EDITLS_LOG_CODE_CACHE=1 says on stderr whether each cache was used.
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/**
 * A file's bytes and its identity once they are read (device, inode, size, modification and change
 * times in ns): a write during the read changes the change time the identity holds.
 */
function readWithStamp(file: string): { bytes: Buffer; stamp: string } {
  const fd = openSync(file, 'r');
  try {
    const bytes = readFileSync(fd);
    const st: BigIntStats = fstatSync(fd, { bigint: true });
    return { bytes, stamp: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` };
  } finally {
    closeSync(fd);
  }
}

// node:crypto only when a hash is computed: a start that needs none does not load it (~5 ms).
const sha1 = (data: Buffer): string => (require('node:crypto') as typeof import('node:crypto')).createHash('sha1').update(data).digest('hex');

/** The regular file's text, or '' when it cannot be read (opened without blocking: a FIFO put there never stops a start). */
function readOr(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    return fstatSync(fd).isFile() ? readFileSync(fd, 'latin1') : '';
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes a bundle's `.checked` note (atomically); a folder editls may not write to keeps none. */
function noteChecked(checkedFile: string, text: string): void {
  const temp = `${checkedFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, checkedFile);
  } catch {
    rmSync(temp, { force: true });
  }
}

type Require = (id: string) => unknown;

/**
 * Runs dist/<name>.js as Node runs a CommonJS module, through its code cache when that is usable,
 * and returns its exports; `requireFor` is the bundle's `require`.
 */
function runBundle(name: string, requireFor: Require): unknown {
  const bundle = path.join(__dirname, `${name}.js`);
  const cacheFile = path.join(__dirname, `${name}.cache`);
  /** Where a start that checked the cache's hashes notes the two files as they were then (see below). */
  const checkedFile = path.join(__dirname, `${name}.checked`);
  const { bytes, stamp: bundleStamp } = readWithStamp(bundle);
  const source = bytes.toString('utf8');
  // V8 checks a cache against its own version, its flags and the source's length only, and crashes
  // on a damaged one: the cache's first line holds the hash of the bundle it was made from and the
  // hash of the rest of the file. Checking both costs 3-4 ms, so a start that checked them writes down
  // both files' identity (<name>.checked); later starts whose files have that identity still skip
  // the hashes. Any write to a file changes its change time, and a file replaced is another inode,
  // so an edited bundle or a damaged cache is hashed, and refused, again. Where the folder is
  // read-only, every start checks the hashes.
  let cachedData: Buffer | undefined;
  let unused = '';
  let checkedBefore = false;
  try {
    const cache = readWithStamp(cacheFile);
    const firstLine = /^editls code cache ([0-9a-f]{40}) ([0-9a-f]{40})\n/.exec(cache.bytes.subarray(0, 120).toString('latin1'));
    const rest = cache.bytes.subarray(firstLine?.[0].length ?? 0);
    const checked = firstLine === null ? '' : `${firstLine[0].trim()} ${bundleStamp} ${cache.stamp}\n`;
    checkedBefore = checked !== '' && readOr(checkedFile) === checked;
    if (firstLine === null) unused = 'the cache file is not one';
    else if (checkedBefore) cachedData = rest;
    else if (firstLine[1] !== sha1(bytes)) unused = 'the cache was made from another bundle';
    else if (firstLine[2] !== sha1(rest)) unused = 'the cache is damaged';
    else {
      cachedData = rest;
      noteChecked(checkedFile, checked);
    }
  } catch (error) {
    unused = `no cache (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }

  // Node's own CommonJS wrapper, written out: node:module (for its `wrap`) would load Node's ES module
  // loader at every start (13 internal modules, about 1 ms).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new vm.Script(wrapped, {
    filename: bundle,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  // No importModuleDynamically: the bundles have no import() of their own (Node 22 and later refuse
  // one in a vm.Script without --experimental-vm-modules); they require what they load.
  if (cachedData !== undefined && script.cachedDataRejected === true) unused = 'V8 rejected the cache (another Node version or other V8 flags)';
  if (process.env.EDITLS_LOG_CODE_CACHE === '1') {
    const what = name === 'editls-server' ? 'code cache' : `code cache of ${name}.js`;
    process.stderr.write(`editls: ${what} ${unused !== '' ? `not used: ${unused}` : checkedBefore ? 'used (its files unchanged since a start checked them)' : 'used'}\n`);
  }

  const out = process.env.EDITLS_WRITE_CODE_CACHE;
  if (out !== undefined && out !== '') {
    // At exit, so that the functions the session compiled are in it.
    process.on('exit', () => {
      const data = script.createCachedData();
      const file = path.join(out, `${name}.cache`);
      writeFileSync(`${file}.tmp`, Buffer.concat([Buffer.from(`editls code cache ${sha1(bytes)} ${sha1(data)}\n`), data]));
      renameSync(`${file}.tmp`, file);
    });
  }

  const run = script.runInThisContext() as (exports: object, require: Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  const module: { exports: unknown } = { exports: {} };
  run.call(module.exports as object, module.exports as object, requireFor, module, bundle, __dirname);
  return module.exports;
}

// This file's own require serves both bundles: they sit beside it, so all resolve @vscode/ripgrep
// alike. The server bundle's require('./editls-session.js') (main.ts loading the rest) runs the
// second bundle here, through its own cache, once.
let session: { exports: unknown } | undefined;
const requireForServer = Object.assign((id: string): unknown => {
  if (id !== './editls-session.js') return require(id);
  session ??= { exports: runBundle('editls-session', require) };
  return session.exports;
}, require);
runBundle('editls-server', requireForServer);
