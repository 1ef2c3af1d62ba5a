// Bundles server/main.ts into dist/editls-server.js (Node 20, CommonJS: what answers `initialize`),
// server/session.ts into dist/editls-session.js (the rest, which main.ts loads once the answer is
// written), and server/launch.ts into the executable dist/editls.js (with a shebang) that runs both
// through V8's code cache, then writes their caches (dist/editls-server.cache,
// dist/editls-session.cache) from a short warm-up session (see launch.ts). dist/ is CommonJS
// (dist/package.json): Node starts a CommonJS entry about 12 ms sooner than an ES module.
// @vscode/ripgrep stays external: it locates its platform binary relative to its own package.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The MCP SDK's Server validates elicitation answers with ajv (ajv, ajv-formats, fast-uri: ~130 KB
// that every `editls --stdio` start would parse). editls never elicits and passes its own validator
// (server/mcp/mcpServer.ts), so the SDK's ajv provider is replaced by a stub that refuses to be used.
const noAjv = {
  name: 'no-ajv',
  setup(b) {
    b.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) => ({ path: args.path, namespace: 'no-ajv' }));
    b.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents: "export class AjvJsonSchemaValidator { constructor() { throw new Error('ajv is not bundled: pass jsonSchemaValidator'); } }",
      loader: 'js',
    }));
  },
};

// zod 4 re-exports all of its ~40 locales (`z.locales`, about 260 KB of the bundle, a quarter of what
// every start-up parses); editls and the MCP SDK use only the English messages zod sets by default.
// `locales/index.js` is replaced by a module that exports `en` alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-english-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

// esbuild wraps a CommonJS package in a fresh copy of its exports (one getter each) for every module
// that imports it: vscode-languageserver's ~320 exports were copied 16 times at every start. Each of
// its two entry points is imported through one ES module facade instead, copied once.
const oneCopyOfLsp = {
  name: 'one-copy-of-lsp',
  setup(b) {
    b.onResolve({ filter: /^vscode-languageserver(\/node)?$/ }, (args) => (args.namespace === 'lsp-facade' ? undefined : { path: args.path, namespace: 'lsp-facade' }));
    b.onLoad({ filter: /.*/, namespace: 'lsp-facade' }, (args) => ({ contents: `export * from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: process.cwd() }));
  },
};

// vscode-jsonrpc's Node entry requires node:crypto at load (about 5 ms of start-up) for the random
// names of pipe transports, which `editls --stdio` never makes: the require is made on first use of
// randomBytes. A vscode-jsonrpc whose line reads otherwise fails the build, so that this is revisited.
const jsonrpcCryptoOnUse = {
  name: 'jsonrpc-crypto-on-use',
  setup(b) {
    b.onLoad({ filter: /[\\/]vscode-jsonrpc[\\/]lib[\\/]node[\\/]main\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const eager = 'const crypto_1 = require("crypto");';
      if (text.split(eager).length !== 2 || /crypto_1\.(?!randomBytes\b)/.test(text)) throw new Error(`esbuild.mjs: ${args.path} no longer requires crypto as jsonrpcCryptoOnUse expects`);
      return { contents: text.replace(eager, 'const crypto_1 = { get randomBytes() { return require("crypto").randomBytes; } };'), loader: 'js' };
    });
  },
};

// main.ts requires session.ts: in the build that is the second bundle, loaded at run time.
const sessionApart = {
  name: 'session-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/session\.js$/ }, () => ({ path: './editls-session.js', external: true }));
  },
};

// The second bundle takes the first one's vscode-languageserver (server/sharedLsp.ts: main.ts puts
// it there before it loads the session) instead of a copy of its own; both of its entry points are
// that one module, read through one ES module facade (copied once, as oneCopyOfLsp does).
const sharedLsp = {
  name: 'shared-lsp',
  setup(b) {
    b.onResolve({ filter: /^vscode-languageserver(\/node)?$/ }, () => ({ path: 'facade', namespace: 'shared-lsp' }));
    b.onResolve({ filter: /^shared-lsp:module$/ }, () => ({ path: 'module', namespace: 'shared-lsp' }));
    b.onLoad({ filter: /^facade$/, namespace: 'shared-lsp' }, () => ({ contents: "export * from 'shared-lsp:module';", loader: 'js' }));
    b.onLoad({ filter: /^module$/, namespace: 'shared-lsp' }, () => ({
      contents: [
        "const lsp = globalThis[Symbol.for('editls.vscode-languageserver')];",
        "if (lsp === undefined) throw new Error('dist/editls-session.js is loaded by dist/editls-server.js, which gives it vscode-languageserver');",
        'module.exports = lsp;',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const BUNDLES = ['editls-server', 'editls-session'];
for (const name of BUNDLES) {
  rmSync(`dist/${name}.cache`, { force: true });
  // What a start wrote after checking the last cache's hashes (server/launch.ts).
  rmSync(`dist/${name}.checked`, { force: true });
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Linked: the source map keeps stack traces readable with node --enable-source-maps.
  sourcemap: 'linked',
  // Minified: about 10 ms less parsing when there is no code cache. EDITLS_NO_MINIFY=1 keeps the
  // names, for CPU profiles (BENCH_SERVER_NODE_ARGS="--cpu-prof" in test/bench/server.mjs).
  minify: process.env.EDITLS_NO_MINIFY !== '1',
  external: ['@vscode/ripgrep'],
  metafile: true,
  logLevel: 'warning',
};
// The symbol index build's ripgrep arguments with the default maxFileSize, up to the folders: main.ts
// starts that ripgrep ahead with them (server/indexAhead.ts), without the index's code, and the
// first build uses them rather than making languages.ts's regex again (symbolIndex.ts).
const probe = await build({
  stdin: {
    contents: "export { indexArgsBefore } from './server/workspace/symbols/symbolIndex.ts'; export { SETTINGS_DEFAULTS } from './server/settings.ts';",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  write: false,
  external: ['@vscode/ripgrep'],
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
});
const probed = { exports: {} };
new Function('module', 'exports', 'require', probe.outputFiles[0].text)(probed, probed.exports, createRequire(import.meta.url));
const { maxFileSize } = probed.exports.SETTINGS_DEFAULTS;
const indexArgs = JSON.stringify({ maxFileSize, before: probed.exports.indexArgsBefore(maxFileSize) });

const server = await build({
  ...common,
  entryPoints: ['server/main.ts'],
  outfile: 'dist/editls-server.js',
  plugins: [zodEnglishOnly, oneCopyOfLsp, jsonrpcCryptoOnUse, sessionApart],
  define: { EDITLS_INDEX_ARGS: indexArgs },
});
const session = await build({
  ...common,
  entryPoints: ['server/session.ts'],
  outfile: 'dist/editls-session.js',
  plugins: [noAjv, zodEnglishOnly, sharedLsp],
  define: { EDITLS_INDEX_ARGS: indexArgs },
});

// What answers `initialize` stays small: no command, no workspace service, no agent side.
const serverInputs = Object.keys(server.metafile.inputs);
const strays = serverInputs.filter((f) => /^server\/(commands\/(?!ids\.ts)|handlers\/|ide\/|mcp\/|attach\/|workspace\/(?!disk\/(paths|folders)\.ts|search\/ripgrep(ToFile|Binary)\.ts|symbols\/indexArgs\.ts)|core\/(?!result|errno|containment))|@modelcontextprotocol|vscode-languageserver-textdocument/.test(f));
if (strays.length > 0) throw new Error(`esbuild.mjs: dist/editls-server.js takes in what initialize does not need: ${strays.join(', ')}`);
// One vscode-languageserver: the session's imports of it are the server bundle's.
const copies = Object.keys(session.metafile.inputs).filter((f) => /node_modules[\\/]vscode-(languageserver(-protocol)?|jsonrpc)[\\/]/.test(f));
if (copies.length > 0) throw new Error(`esbuild.mjs: dist/editls-session.js bundles a copy of ${copies[0]}`);

// V8 holds a script's source as one-byte characters only when every character is one: a single
// non-ASCII character (esbuild leaves them in regular expression literals) makes the whole bundle a
// two-byte string, slower to decode, compile and hash at every start (measured: 3-7 ms). An
// unminified build (for profiles) keeps the sources' comments, and is not checked.
for (const name of BUNDLES) {
  const bundled = readFileSync(`dist/${name}.js`);
  const nonAscii = bundled.findIndex((byte) => byte > 0x7f);
  if (nonAscii !== -1 && process.env.EDITLS_NO_MINIFY !== '1') {
    const line = bundled.subarray(0, nonAscii).toString('latin1').split('\n').length;
    throw new Error(`esbuild.mjs: dist/${name}.js has a non-ASCII character on line ${line}; escape it in the source (\\uXXXX)`);
  }
}

await build({
  entryPoints: ['server/launch.ts'],
  outfile: 'dist/editls.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync('dist/editls.js', 0o755);

await writeCodeCache();

/**
 * A warm-up session of the built server (initialize, a symbol query, an edit, shutdown) with
 * EDITLS_WRITE_CODE_CACHE set, so that the caches hold the functions a session compiles first. A
 * failed warm-up leaves no cache (editls then compiles its bundles at every start) and says so.
 */
async function writeCodeCache() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'editls-warmup-'));
  writeFileSync(path.join(folder, 'a.ts'), 'export function warmUp() {}\n');
  const uri = pathToFileURL(folder).href;
  const child = spawn(process.execPath, ['dist/editls.js', '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, EDITLS_WRITE_CODE_CACHE: 'dist', EDITLS_LOG_CODE_CACHE: '' },
  });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  };
  const answers = new Map();
  let buffered = Buffer.alloc(0);
  child.stdout.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, end).toString())?.[1]);
      if (buffered.length < end + 4 + length) return;
      const message = JSON.parse(buffered.subarray(end + 4, end + 4 + length).toString());
      buffered = buffered.subarray(end + 4 + length);
      if (message.id !== undefined && message.method !== undefined) send({ id: message.id, result: null }); // the server's own requests
      else if (message.id !== undefined) answers.get(message.id)?.(message);
    }
  });
  const request = (id, method, params) =>
    new Promise((resolve) => {
      answers.set(id, resolve);
      send({ id, method, params });
    });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    await Promise.race([
      (async () => {
        await request(1, 'initialize', { processId: process.pid, rootUri: uri, capabilities: {}, workspaceFolders: [{ uri, name: 'warm-up' }] });
        send({ method: 'initialized', params: {} });
        await request(2, 'workspace/symbol', { query: 'warm' });
        await request(3, 'workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'a.ts', old_string: 'warmUp', new_string: 'warmedUp' }] });
        await request(4, 'workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: 'warmed' }] });
        await request(5, 'shutdown');
        send({ method: 'exit' });
      })(),
      exited,
    ]);
    const code = await exited;
    if (code !== 0) throw new Error(`the warm-up session exited with ${code}`);
    for (const name of BUNDLES) if (!existsSync(`dist/${name}.cache`)) throw new Error(`the warm-up session wrote no dist/${name}.cache`);
  } catch (error) {
    for (const name of BUNDLES) rmSync(`dist/${name}.cache`, { force: true });
    console.warn(`esbuild.mjs: no code cache written (${error instanceof Error ? error.message : String(error)}); editls will compile its bundles at every start`);
  } finally {
    clearTimeout(deadline);
    rmSync(folder, { recursive: true, force: true });
  }
}
