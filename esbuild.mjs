// Bundles server/main.ts into one executable dist/editls.js (Node 20, ESM, with a shebang).
// @vscode/ripgrep stays external: it locates its platform binary relative to its own package.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

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

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/editls.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  // Minified: about 10 ms less parsing at start-up (initialize is answered sooner); the linked source
  // map keeps stack traces readable with node --enable-source-maps.
  minify: true,
  external: ['@vscode/ripgrep'],
  plugins: [noAjv],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __editlsCreateRequire } from 'node:module';\nconst require = __editlsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/editls.js', 0o755);
