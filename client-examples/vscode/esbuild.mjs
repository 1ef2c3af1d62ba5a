// Bundles src/extension.ts and vscode-languageclient into dist/extension.js (CommonJS, as VS Code
// loads extensions), so the .vsix carries no node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: 'linked',
  minify: true,
  logLevel: 'warning',
});
