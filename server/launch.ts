// Process entry of dist/editls.js: runs the bundled server (dist/editls-server.js, built from
// main.ts) through V8's code cache (dist/editls-server.cache, written by `node esbuild.mjs` after a
// warm-up session), so that a start does not parse and compile the bundle's ~0.9 MB again. Node 20
// has no module.enableCompileCache; this is what it does, for one file. Without a cache, or with one
// made for another bundle, Node version or V8 flags, the bundle is compiled as usual.
// EDITLS_WRITE_CODE_CACHE=FILE writes the cache at exit (the build's warm-up);
// EDITLS_LOG_CODE_CACHE=1 says on stderr whether the cache was used.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

const bundle = path.join(__dirname, 'editls-server.js');
const cacheFile = path.join(__dirname, 'editls-server.cache');

const bytes = readFileSync(bundle);
const source = bytes.toString('utf8');
// V8 checks a cache against its own version, its flags and the source's length only, and crashes
// on a damaged one: the cache's first line holds the hash of the bundle it was made from and the
// hash of the rest of the file (checking both costs about 2 ms).
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const bundleHash = sha1(bytes);
let cachedData: Buffer | undefined;
let unused = '';
try {
  const data = readFileSync(cacheFile);
  const firstLine = /^editls code cache ([0-9a-f]{40}) ([0-9a-f]{40})\n/.exec(data.subarray(0, 120).toString('latin1'));
  const rest = data.subarray(firstLine?.[0].length ?? 0);
  if (firstLine === null) unused = 'the cache file is not one';
  else if (firstLine[1] !== bundleHash) unused = 'the cache was made from another bundle';
  else if (firstLine[2] !== sha1(rest)) unused = 'the cache is damaged';
  else cachedData = rest;
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
// No importModuleDynamically: the bundle has no import() of its own (Node 22 and later refuse one
// in a vm.Script without --experimental-vm-modules); it requires @vscode/ripgrep.
if (cachedData !== undefined && script.cachedDataRejected === true) unused = 'V8 rejected the cache (another Node version or other V8 flags)';
if (process.env.EDITLS_LOG_CODE_CACHE === '1') process.stderr.write(`editls: code cache ${unused === '' ? 'used' : `not used: ${unused}`}\n`);

const out = process.env.EDITLS_WRITE_CODE_CACHE;
if (out !== undefined && out !== '') {
  // At exit, so that the functions the session compiled are in it.
  process.on('exit', () => {
    const data = script.createCachedData();
    writeFileSync(`${out}.tmp`, Buffer.concat([Buffer.from(`editls code cache ${bundleHash} ${sha1(data)}\n`), data]));
    renameSync(`${out}.tmp`, out);
  });
}

const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;
const module = { exports: {} };
// This file's own require: the bundle sits beside it, so both resolve @vscode/ripgrep alike.
run.call(module.exports, module.exports, require, module, bundle, __dirname);
