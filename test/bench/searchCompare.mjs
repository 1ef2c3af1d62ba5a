// editls.searchFiles of two editls bundles side by side on searchBench.mjs's corpus: a server of each,
// taking turns, every search right after a plain `rg --json -e Q .` run, with the CPU each server's
// main thread and all its threads took per search (/proc, Linux), for before/after figures on a
// machine whose speed drifts: `node test/bench/searchCompare.mjs <bundleA.js> <bundleB.js> [rounds]`.
// After each answer it waits AFTER_ANSWER_MS (searchBench.mjs) before the next plain rg run.
// A bundle is a `dist/editls.js` (e.g. built in a worktree of the base commit), copied under this
// checkout's node_modules/ so that it finds @vscode/ripgrep; `NODE_FLAGS|bundle` runs it with flags.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AFTER_ANSWER_MS, buildCorpus, rawRipgrep, startServer, stop } from './searchBench.mjs';
import { CLK_TCK, procTimes } from './procTimes.mjs';

const [a, b, roundsArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: node test/bench/searchCompare.mjs <bundleA.js> <bundleB.js> [rounds]');
const builds = [a, b].map((arg) => {
  const [flags, bundle] = arg.includes('|') ? arg.split('|') : ['', arg];
  return { label: arg, flags: flags.split(' ').filter(Boolean), bundle: path.resolve(bundle) };
});
const rounds = Number(roundsArg) || 3;
const REGEX = 'createConnection';
/** Searches of each phase: the first ones after the index build, then on to a warm JIT. */
const PHASES = [['searches 1-10 (fresh)', 10], ['searches 11-40', 30], ['searches 41-80 (warm)', 40]];
const withCpu = existsSync('/proc/self/task');

/** CPU time (ms) of a process, or of one of its threads, so far. */
function cpuMs(pid, tid) {
  const t = procTimes(pid, tid);
  return ((t.utime + t.stime) * 1000) / CLK_TCK;
}

const median = (v) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)];
/**
 * The geometric mean of each search's time over the plain rg run just before it, with its standard
 * error: each pair shares the machine's state of that moment, so this settles differences of 1–2%
 * that a ratio of medians, swayed by the machine's drift between phases, does not.
 */
function paired(logs) {
  const mean = logs.reduce((t, v) => t + v, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((t, v) => t + (v - mean) ** 2, 0) / Math.max(1, logs.length - 1));
  return `${Math.exp(mean).toFixed(3)}x ± ${((Math.exp(mean) * sd) / Math.sqrt(logs.length)).toFixed(3)}`;
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-search-compare-'));
try {
  const { files } = buildCorpus(dir);
  console.log(`corpus: ${files} files; /${REGEX}/; ${rounds} rounds of ${PHASES.reduce((n, [, k]) => n + k, 0)} searches a build, the builds taking turns`);
  const acc = builds.map(() => PHASES.map(() => ({ ours: [], raw: [], logRatios: [], main: 0, all: 0, n: 0, lines: new Set() })));
  for (let r = 0; r < rounds; r++) {
    const servers = [];
    for (const build of builds) {
      const server = await startServer(dir, { bundle: build.bundle, nodeFlags: build.flags });
      await server.indexed;
      servers.push(server);
    }
    for (const s of servers) await s.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: REGEX }] });
    for (const [p, [, count]] of PHASES.entries()) {
      for (let i = 0; i < count; i++) {
        for (let j = 0; j < servers.length; j++) {
          const k = (i + j + r) % servers.length; // each build goes first half the time
          const { proc, conn } = servers[k];
          const raw = (await rawRipgrep(dir, REGEX)).ms;
          const main0 = withCpu ? cpuMs(proc.pid, proc.pid) : 0;
          const all0 = withCpu ? cpuMs(proc.pid) : 0;
          const t0 = performance.now();
          const result = await conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: REGEX }] });
          const ours = performance.now() - t0;
          await new Promise((res) => setTimeout(res, AFTER_ANSWER_MS)); // the answer's last work (the next search's ripgrep started ahead) lands in this search's count, not in the next plain rg run
          const a = acc[k][p];
          a.ours.push(ours);
          a.raw.push(raw);
          a.logRatios.push(Math.log(ours / raw));
          a.lines.add(result.count);
          if (withCpu) {
            a.main += cpuMs(proc.pid, proc.pid) - main0;
            a.all += cpuMs(proc.pid) - all0;
          }
          a.n++;
        }
      }
    }
    for (const server of servers) await stop(server);
  }
  console.log('\n| phase | build | searchFiles | rg --json -e Q . | ratio of medians | paired ratio ± s.e. | main-thread CPU / search | all threads / search | lines |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [p, [phase]] of PHASES.entries()) {
    for (const [k, build] of builds.entries()) {
      const x = acc[k][p];
      const cpu = (v) => (withCpu ? `${(v / x.n).toFixed(2)} ms` : '-');
      console.log(`| ${phase} | ${build.label} | ${median(x.ours).toFixed(1)} ms | ${median(x.raw).toFixed(1)} ms | ${(median(x.ours) / median(x.raw)).toFixed(3)}x | ${paired(x.logRatios)} | ${cpu(x.main)} | ${cpu(x.all)} | ${[...x.lines].join(', ')} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
