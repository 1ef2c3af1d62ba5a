// editls.replaceInFiles against `rg -l --no-require-git -F X | xargs sd -s X Y` (Debian's sd), side by
// side in one run on two copies of real source (this project's node_modules): the same literal
// replaced over ~300 files / ~1,200 matches, alternating X -> Y and back; after each round the two
// trees must be byte-identical. editls writes every file atomically (temp file, fsync, rename).
// Fair to both: every timed run starts from a quiet disk (`sync` first: file creation on ext4 slows
// down while the journal is busy with the previous run's writeback) and the two alternate which runs
// first. Printed: editls's split (list, compute, write, fsync, rename, reply) and the ratio with and
// without its fsync time, and the plain-Node floor of the write step, with and without fsync.
import { spawnSync } from 'node:child_process';
import { close, closeSync, copyFileSync, fsync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startServer, stopServer } from './server.mjs';
import { rgPath } from '@vscode/ripgrep';
import { corpusFiles } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ITERATIONS = 9;
/** Candidate literals; the one whose file and match counts come closest to ~300 / ~1,200 is used. */
const CANDIDATES = ['prototype', 'undefined', 'options', 'Error(', 'length', 'result', 'exports', 'value', 'typeof ', 'return this'];

const ms = (v) => `${v.toFixed(1)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function hasSd() {
  return spawnSync('sd', ['--version']).status === 0;
}

/** Picks the literal and copies the corpus into `dirA` and `dirB` (relative paths kept). */
function buildTrees(...dirs) {
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
    for (const dir of dirs) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      copyFileSync(f, path.join(dir, rel));
    }
  }
  return { ...best, total: files.length };
}

/**
 * The write step alone, in plain Node, on the files editls changed: read, replace, write a temp file
 * beside each, (fsync,) rename — 16 at a time through FileHandles (the threadpool), as editls's batch
 * did before its short steps became synchronous calls. With and without fsync.
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

/**
 * The floor of the write step: the same in synchronous calls (read, replace, temp file written), the
 * fsyncs all in flight at once through the threadpool, then the renames, each replaced file held open
 * over its rename and closed through the threadpool (freeing it is slow) — editls's batch without its
 * checks.
 */
async function plainSyncCalls(dir, rels, from, to, doFsync) {
  const t0 = performance.now();
  const temps = rels.map((rel) => {
    const file = path.join(dir, rel);
    const data = Buffer.from(readFileSync(file, 'utf8').split(from).join(to));
    const fd = openSync(`${file}.bench-tmp`, 'wx');
    for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done, done);
    return { file, fd };
  });
  if (doFsync) await Promise.all(temps.map(({ fd }) => new Promise((res, rej) => fsync(fd, (e) => (e ? rej(e) : res())))));
  for (const { file, fd } of temps) {
    closeSync(fd);
    const original = openSync(file, 'r');
    renameSync(`${file}.bench-tmp`, file);
    close(original, () => undefined);
  }
  return performance.now() - t0;
}

/** A quiet disk before a timed run: the previous run's writeback done. */
function quiet() {
  spawnSync('sync');
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
    const dirC = path.join(base, 'plain');
    const dirD = path.join(base, 'plain-nofsync');
    const dirE = path.join(base, 'plain-async');
    const dirF = path.join(base, 'plain-async-nofsync');
    const pick = buildTrees(dirA, dirB, dirC, dirD, dirE, dirF);
    const server = await startServer(dirA, { maxFileSize: 64 * 1024 * 1024 });
    // Warm both: the page cache, ripgrep's first start, the server's first command.
    spawnSync(rgPath, ['-l', '--no-require-git', '-F', 'no such text anywhere', '.'], { cwd: dirB, stdio: 'ignore' });
    await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.replaceInFiles', arguments: [{ search: 'no such text anywhere', replace: 'x', max_files: 100_000 }] });
    // The symbol index is built in the background after start: let it finish first.
    await new Promise((res) => setTimeout(res, 1500));
    const times = [];
    const baseline = [];
    const splits = [];
    const floor = { sync: [], nosync: [], asyncSync: [], asyncNoSync: [] };
    let replaced = 0;
    let changed = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const [from, to] = i % 2 === 0 ? [pick.word, `${pick.word}_EDITLS`] : [`${pick.word}_EDITLS`, pick.word];
      let rels = [];
      const runEditls = async () => {
        quiet();
        const t0 = performance.now();
        const r = await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.replaceInFiles', arguments: [{ search: from, replace: to, max_files: 100_000 }] });
        const total = performance.now() - t0;
        times.push(total);
        replaced = r.replacements;
        changed = r.filesChanged;
        if (r.timings) {
          const t = r.timings;
          // reply: building the result (diffs, edit) and sending it, i.e. everything outside the three phases.
          splits.push({ ...t, replyMs: total - t.listMs - t.computeMs - t.applyMs });
        }
        rels = r.files.map((f) => f.path);
        // The undo journal's digests are worked out right after the reply: let them finish before the next run.
        await new Promise((res) => setTimeout(res, 50));
      };
      const runSd = () => {
        quiet();
        const t1 = performance.now();
        const sd = spawnSync('bash', ['-c', `"$RG" -l --no-require-git -F -e "$X" . | xargs -d '\\n' sd -s "$X" "$Y"`], {
          cwd: dirB,
          env: { ...process.env, RG: rgPath, X: from, Y: to },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        baseline.push(performance.now() - t1);
        if (sd.status !== 0) throw new Error(`the sd pipeline failed (status ${sd.status})`);
      };
      if (i % 2 === 0) {
        await runEditls();
        runSd();
      } else {
        runSd();
        await runEditls();
      }
      if (!treesEqual(dirA, dirB)) throw new Error(`editls and sd disagree after round ${i + 1}`);
      quiet();
      floor.sync.push(await plainSyncCalls(dirC, rels, from, to, true));
      quiet();
      floor.nosync.push(await plainSyncCalls(dirD, rels, from, to, false));
      quiet();
      floor.asyncSync.push(await plainAtomicWrites(dirE, rels, from, to, true));
      quiet();
      floor.asyncNoSync.push(await plainAtomicWrites(dirF, rels, from, to, false));
    }
    await stopServer(server);
    const e = median(times);
    const b = median(baseline);
    const split = Object.fromEntries(Object.keys(splits[0] ?? {}).map((k) => [k, median(splits.map((s) => s[k]))]));
    const splitText = Object.entries(split).map(([k, v]) => `${k.replace(/Ms$/, '')} ${v.toFixed(0)}`).join(', ');
    results.push({
      name: `plain Node floor of the write step: the same ${changed} files read, replaced, written to a temp file and renamed (median of ${ITERATIONS})`,
      value: `${ms(median(floor.sync))} with fsync (sync calls, fsyncs at once)`,
      baseline: `${ms(median(floor.nosync))} without fsync`,
      ratio: `fsync costs ${ms(median(floor.sync) - median(floor.nosync))}; async FileHandle calls 16 at a time: ${ms(median(floor.asyncSync))} / ${ms(median(floor.asyncNoSync))} without fsync`,
    });
    results.push({
      name: `editls.replaceInFiles literal ${JSON.stringify(pick.word)}: ${replaced} replacements in ${changed} of ${pick.total} files, closed files -> disk, atomic + fsync (median of ${ITERATIONS}; split ms: ${splitText})`,
      value: ms(e),
      baseline: `${ms(b)} rg -l -F \\| xargs sd -s`,
      ratio: `${(e / b).toFixed(2)}x`,
      target: '<= 1.0x',
    });
    if (split.fsyncMs !== undefined) {
      results.push({
        name: 'editls.replaceInFiles without its fsync time (the median minus the median fsync phase; sd does not fsync)',
        value: ms(e - split.fsyncMs),
        baseline: `${ms(b)} rg -l -F \\| xargs sd -s`,
        ratio: `${((e - split.fsyncMs) / b).toFixed(2)}x`,
      });
    }
    console.error(`[bench] editls runs: ${times.map((t) => t.toFixed(0)).join(' ')} ms; sd runs: ${baseline.map((t) => t.toFixed(0)).join(' ')} ms`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await runReplaceInFilesBench()) console.log(r);
}
