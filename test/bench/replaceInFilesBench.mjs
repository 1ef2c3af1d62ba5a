// editls.replaceInFiles against `rg -l --no-require-git -F X | xargs sd -s X Y` (Debian's sd), side by
// side in one run on two copies of real source (this project's node_modules): the same literal
// replaced over ~300 files / ~1,200 matches, alternating X -> Y and back; after each round the two
// trees must be byte-identical. editls writes every file atomically (temp file, fsync, rename).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startServer, stopServer } from './server.mjs';
import { rgPath } from '@vscode/ripgrep';
import { corpusFiles } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ITERATIONS = 7;
/** Candidate literals; the one whose file and match counts come closest to ~300 / ~1,200 is used. */
const CANDIDATES = ['prototype', 'undefined', 'options', 'Error(', 'length', 'result', 'exports', 'value', 'typeof ', 'return this'];

const ms = (v) => `${v.toFixed(1)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function hasSd() {
  return spawnSync('sd', ['--version']).status === 0;
}

/** Picks the literal and copies the corpus into `dirA` and `dirB` (relative paths kept). */
function buildTrees(dirA, dirB) {
  const files = corpusFiles(ROOT);
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  let best;
  for (const word of CANDIDATES) {
    let nFiles = 0;
    let matches = 0;
    for (const t of texts) {
      const n = t.split(word).length - 1;
      if (n > 0) {
        nFiles++;
        matches += n;
      }
    }
    const score = Math.abs(Math.log(nFiles / 300)) + Math.abs(Math.log(matches / 1200));
    if (!best || score < best.score) best = { word, nFiles, matches, score };
  }
  for (const f of files) {
    const rel = path.relative(path.join(ROOT, 'node_modules'), f);
    for (const dir of [dirA, dirB]) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      copyFileSync(f, path.join(dir, rel));
    }
  }
  return { ...best, total: files.length };
}

/**
 * The write step alone, in plain Node, on the files editls changed: read, replace, write a temp file
 * beside each, (fsync,) rename — 16 at a time, as editls's batch does. With and without fsync, so the
 * result says how much of editls's time durability costs.
 */
async function plainAtomicWrites(dir, rels, from, to, fsync) {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < rels.length) {
      const file = path.join(dir, rels[next++]);
      const text = (await readFile(file, 'utf8')).split(from).join(to);
      const temp = `${file}.bench-tmp`;
      const h = await open(temp, 'w');
      await h.writeFile(text);
      if (fsync) await h.sync();
      await h.close();
      await rename(temp, file);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return performance.now() - t0;
}


function treesEqual(a, b) {
  const out = spawnSync('diff', ['-rq', a, b], { encoding: 'utf8' });
  return out.status === 0;
}

export async function runReplaceInFilesBench() {
  if (!hasSd()) return [{ name: 'editls.replaceInFiles vs rg | xargs sd', value: 'skipped: sd is not installed (apt-get install sd)' }];
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-rif-bench-')));
  const dirA = path.join(base, 'editls');
  const dirB = path.join(base, 'sd');
  const results = [];
  try {
    const pick = buildTrees(dirA, dirB);
    const server = await startServer(dirA, { maxFileSize: 64 * 1024 * 1024 });
    // Warm both: the page cache, ripgrep's first start, the server's first command.
    spawnSync(rgPath, ['-l', '--no-require-git', '-F', 'no such text anywhere', '.'], { cwd: dirB, stdio: 'ignore' });
    const times = [];
    const baseline = [];
    const splits = [];
    const plainSync = [];
    const plainNoSync = [];
    const dirC = path.join(base, 'plain');
    for (const f of corpusFiles(ROOT)) {
      const rel = path.relative(path.join(ROOT, 'node_modules'), f);
      mkdirSync(path.dirname(path.join(dirC, rel)), { recursive: true });
      copyFileSync(f, path.join(dirC, rel));
    }
    let replaced = 0;
    let changed = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const [from, to] = i % 2 === 0 ? [pick.word, `${pick.word}_EDITLS`] : [`${pick.word}_EDITLS`, pick.word];
      const t0 = performance.now();
      const r = await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.replaceInFiles', arguments: [{ search: from, replace: to, max_files: 100_000 }] });
      times.push(performance.now() - t0);
      replaced = r.replacements;
      changed = r.filesChanged;
      if (r.timings) splits.push(r.timings);
      const rels = r.files.map((f) => f.path);
      (i % 2 === 0 ? plainSync : plainNoSync).push(await plainAtomicWrites(dirC, rels, from, to, i % 2 === 0));
      const t1 = performance.now();
      const sd = spawnSync('bash', ['-c', `"$RG" -l --no-require-git -F -e "$X" . | xargs -d '\\n' sd -s "$X" "$Y"`], {
        cwd: dirB,
        env: { ...process.env, RG: rgPath, X: from, Y: to },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      baseline.push(performance.now() - t1);
      if (sd.status !== 0) throw new Error(`the sd pipeline failed (status ${sd.status})`);
      if (!treesEqual(dirA, dirB)) throw new Error(`editls and sd disagree after round ${i + 1}`);
    }
    await stopServer(server);
    const e = median(times);
    const b = median(baseline);
    const split = splits.length > 0 ? ` (median split: ${Object.keys(splits[0]).map((k) => `${k} ${median(splits.map((s) => s[k])).toFixed(0)}`).join(', ')} ms)` : '';
    results.push({
      name: `plain Node: the same ${changed} files read, replaced, written to a temp file and renamed, 16 at a time`,
      value: `${ms(median(plainSync))} with fsync`,
      baseline: `${ms(median(plainNoSync))} without fsync`,
      ratio: `fsync costs ${ms(median(plainSync) - median(plainNoSync))}`,
    });
    results.push({
      name: `editls.replaceInFiles literal ${JSON.stringify(pick.word)}: ${replaced} replacements in ${changed} of ${pick.total} files, closed files -> disk, atomic + fsync (median of ${ITERATIONS})${split}`,
      value: ms(e),
      baseline: `${ms(b)} rg -l -F \\| xargs sd -s`,
      ratio: `${(e / b).toFixed(2)}x`,
      target: '<= 1.0x',
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await runReplaceInFilesBench()) console.log(r);
}
