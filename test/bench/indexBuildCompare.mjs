// The symbol index build of two source trees of editls (e.g. a `git archive` of the base commit and
// this worktree) on the same corpus as searchBench.mjs, in fresh processes taking turns, so that a
// loaded machine slows both alike: `node test/bench/indexBuildCompare.mjs <treeA> <treeB> [rounds]`.
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCorpus } from './searchBench.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [a, b, roundsArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: node test/bench/indexBuildCompare.mjs <treeA> <treeB> [rounds]');
const rounds = Number(roundsArg) || 9;
const trees = [path.resolve(a), path.resolve(b)];
const corpus = mkdtempSync(path.join(os.tmpdir(), 'editls-index-compare-'));
// Under node_modules so that the bundles find @vscode/ripgrep (kept external, as in dist/).
const cache = path.join(ROOT, 'node_modules/.cache');
mkdirSync(cache, { recursive: true });
const bundles = trees.map((tree, i) => {
  const entry = path.join(corpus, `entry-${i}.ts`);
  writeFileSync(entry, [
    // workspace/symbols/ since the workspace split; a tree from before it has the index at workspace/.
    `import { SymbolIndex } from ${JSON.stringify(['server/workspace/symbols/symbolIndex.ts', 'server/workspace/symbolIndex.ts'].map((p) => path.join(tree, p)).find((p) => existsSync(p)))};`,
    `const index = new SymbolIndex({ folders: () => [${JSON.stringify(path.join(corpus, 'tree'))}], encoding: () => 'utf-16', documents: { get: () => undefined, getByPath: () => undefined }, maxFileSize: () => 10485760, log: () => undefined, startProgress: () => ({ signal: new AbortController().signal, report() {}, done() {} }) });`,
    'const t0 = performance.now();',
    'await index.rebuild();',
    'console.log(JSON.stringify({ ms: performance.now() - t0, symbols: index.symbolCount }));',
  ].join('\n'));
  const out = path.join(cache, `editls-index-compare-${process.pid}-${i}.mjs`);
  // The sources require @vscode/ripgrep where a CommonJS require exists (workspace/search/ripgrep.ts): an ES module bundle gets one.
  buildSync({ banner: { js: "import { createRequire as editlsCreateRequire } from 'node:module'; const require = editlsCreateRequire(import.meta.url);" }, entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, external: ['@vscode/ripgrep'], logLevel: 'error' });
  return out;
});
try {
  mkdirSync(path.join(corpus, 'tree'));
  const { files, bytes } = buildCorpus(path.join(corpus, 'tree'));
  console.log(`corpus: ${files} files, ${(bytes / 1048576).toFixed(1)} MiB; ${rounds} rounds, the two trees taking turns`);
  const runs = [[], []];
  const symbols = [0, 0];
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const out = JSON.parse(spawnSync(process.execPath, [bundles[i]], { encoding: 'utf8', cwd: ROOT }).stdout.trim().split('\n').pop());
      // An index that could not run ripgrep builds nothing, fast: never a figure.
      if (out.symbols === 0) throw new Error(`${trees[i]}: the build found no symbol (was ripgrep run?)`);
      runs[i].push(out.ms);
      symbols[i] = out.symbols;
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  trees.forEach((tree, i) => console.log(`${tree}: median ${median(runs[i]).toFixed(0)} ms, ${symbols[i]} symbols (runs: ${runs[i].map((t) => t.toFixed(0)).join(', ')})`));
} finally {
  rmSync(corpus, { recursive: true, force: true });
  for (const out of bundles) rmSync(out, { force: true });
}
