// Bundles server/main.ts into one executable dist/editls.js (Node 20, ESM, with a shebang).
// @vscode/ripgrep stays external: it locates its platform binary relative to its own package.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import path from 'node:path';

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

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/editls.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  // Minified: about 10 ms less parsing at start-up (initialize is answered sooner); the linked source
  // map keeps stack traces readable with node --enable-source-maps. EDITLS_NO_MINIFY=1 keeps the
  // names, for CPU profiles (BENCH_SERVER_NODE_ARGS="--cpu-prof" in test/bench/server.mjs).
  minify: process.env.EDITLS_NO_MINIFY !== '1',
  external: ['@vscode/ripgrep'],
  plugins: [noAjv, zodEnglishOnly],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __editlsCreateRequire } from 'node:module';\nconst require = __editlsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/editls.js', 0o755);
