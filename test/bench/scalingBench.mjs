// How searchFiles and the symbol index grow with the workspace (issue 28, goal 4): trees of 200,
// 2,000 and 20,000 real source files and one of about 500 MB (replaceTree.mjs), each measured side
// by side with the tool users run for the same job, with its defaults:
// - editls.searchFiles of a rare literal (every file read, a handful of hits, under the cap) over
//   stdio against `rg --json -e Q .` in the folder (parallel, unsorted), taking turns, medians;
// - the symbol index build (the server's own log line) against `ctags -R` (Universal Ctags), the
//   server's RSS once built, and 300 warm workspace/symbol queries of 3-8 characters (p50, p99).
// replaceInFiles at 200-20,000 files is replaceInFilesBench.mjs.
// Usage: node test/bench/scalingBench.mjs [sizes, e.g. 200,2000,20000,500MB]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { rawRipgrep } from './searchBench.mjs';
import { copyTree, treeFiles } from './replaceTree.mjs';
import { startServer, stopServer } from './server.mjs';
import { rssMiB, warmSymbolQueries } from './symbolScaleBench.mjs';

const SIZES = ['200', '2000', '20000', '500MB'];
const ROUNDS = 7;
/** Files of the ~500 MB tree (about 11 KB a file on average). */
const FILES_FOR_500MB = 46_000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`);

function hasCtags() {
  return spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout?.includes('Universal Ctags') ?? false;
}

/** A literal found in a few files of the tree (5-60 matching lines), so that every file is read and the answer stays under the cap. */
function rareLiteral(dir) {
  for (const word of ['deprecated', 'Copyright', 'TODO', 'FIXME', 'XXX', 'license', 'assert', 'warning']) {
    const count = countLines(dir, word);
    if (count >= 5 && count <= 60) return { word, count };
  }
  return { word: 'editls-scaling-no-such-text', count: 0 };
}

function countLines(dir, word) {
  const out = spawnSync(rgPath, ['--no-config', '--count', '--no-filename', '-F', '-e', word, '.'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  return out.stdout.split('\n').filter(Boolean).reduce((a, n) => a + Number(n), 0);
}

async function benchTree(size) {
  const n = size === '500MB' ? FILES_FOR_500MB : Number(size);
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), `editls-scaling-${size}-`)));
  const dir = path.join(base, 'tree');
  try {
    const files = treeFiles(n);
    const bytes = copyTree(files, [dir]);
    const label = `${files.length.toLocaleString('en-US')} files, ${(bytes / 1e6).toFixed(0)} MB`;
    const rows = [];
    const server = await startServer(dir);
    const built = new Promise((resolve) => {
      server.conn.onNotification('window/logMessage', (p) => {
        if (/symbol index: indexed/.test(p.message)) resolve(p.message);
      });
    });
    const summary = await built;
    const rssBuilt = rssMiB(server.proc.pid);
    const [, symbols, , buildMs] = /indexed (\d+) symbols in (\d+) files \((\d+) ms\)/.exec(summary) ?? [];

    // searchFiles against rg --json, taking turns.
    const literal = rareLiteral(dir);
    const search = { path: '.', regex: literal.word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), max_results: 1000 };
    await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [search] });
    await rawRipgrep(dir, search.regex);
    const ours = [];
    const theirs = [];
    for (let i = 0; i < ROUNDS; i++) {
      const runOurs = async () => {
        const t0 = performance.now();
        await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [search] });
        ours.push(performance.now() - t0);
      };
      const runTheirs = async () => theirs.push((await rawRipgrep(dir, search.regex)).ms);
      if (i % 2 === 0) {
        await runOurs();
        await runTheirs();
      } else {
        await runTheirs();
        await runOurs();
      }
    }
    rows.push({
      name: `scaling, ${label}: editls.searchFiles ${JSON.stringify(literal.word)} (${literal.count} matching lines; median of ${ROUNDS})`,
      value: ms(median(ours)),
      baseline: `${ms(median(theirs))} rg --json`,
      ratio: `${(median(ours) / median(theirs)).toFixed(2)}x`,
    });

    const times = await warmSymbolQueries(server.conn);
    await stopServer(server);

    let ctags = 'ctags row skipped: universal-ctags not installed';
    let ratio;
    if (hasCtags()) {
      const t0 = performance.now();
      execFileSync('ctags', ['-R', '-f', path.join(base, 'tags'), '.'], { cwd: dir, stdio: 'ignore', maxBuffer: 1 << 26 });
      const ctagsMs = performance.now() - t0;
      ctags = `${ms(ctagsMs)} ctags -R`;
      ratio = `${(Number(buildMs) / ctagsMs).toFixed(2)}x`;
    }
    rows.push({
      name: `scaling, ${label}: symbol index build (${Number(symbols).toLocaleString('en-US')} symbols), the server's RSS once built`,
      value: `${ms(Number(buildMs))}, ${rssBuilt.toFixed(0)} MiB`,
      baseline: ctags,
      ...(ratio ? { ratio } : {}),
    });
    if (times.length > 0) {
      rows.push({
        name: `scaling, ${label}: workspace/symbol warm queries of 3-8 characters (300)`,
        value: `p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}`,
      });
    }
    for (const r of rows) console.error(`[bench] ${r.name}: ${r.value}${r.baseline ? ` vs ${r.baseline}` : ''}`);
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

export async function runScalingBench(sizes = SIZES) {
  const rows = [];
  for (const size of sizes) rows.push(...(await benchTree(size)));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv[2] ? process.argv[2].split(',') : SIZES;
  for (const r of await runScalingBench(sizes)) console.log(r);
}
