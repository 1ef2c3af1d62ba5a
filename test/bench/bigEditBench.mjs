// One edit of a 50 MB file (issue 30, item 3): the server's peak RSS against the file's size and its
// idle RSS, and how long it stays busy after answering. A text file of real source (this project's
// node_modules, repeated) with one unique line in its middle, edited with editls.edit (a) closed,
// written to disk atomically, and (b) open in the editor, answered as a WorkspaceEdit the client
// applies. Peak RSS is VmHWM after a reset through /proc/<pid>/clear_refs; "busy after" is the time
// from the answer to the server's last CPU tick (utime + stime from /proc/<pid>/stat, sampled every
// 2 ms; one tick is 10 ms). Medians of rounds taking turns between (a) and (b).
// Run: node esbuild.mjs && node test/bench/bigEditBench.mjs [MB=50] [rounds=3] (also in npm run bench;
// BIG_ASCII=1: ASCII text only, which V8 holds in one byte per character instead of two)
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { procTimes } from './procTimes.mjs';
import { startServer, stopServer } from './server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MARKER = 'EDITLS_BIG_EDIT_MARKER_LINE';

/** About `mb` MB of real JavaScript source, one marker line in the middle. */
function bigText(mb) {
  const sources = [];
  const walk = (dir, depth) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (sources.length > 400) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory() && depth < 6) walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.js') && statSync(p).size < 200_000) sources.push(readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'node_modules', 'typescript'), 0);
  walk(path.join(ROOT, 'node_modules', 'zod'), 0);
  const corpus = sources.join('\n');
  const target = mb * 1024 * 1024;
  const half = [];
  let size = 0;
  while (size < target / 2) {
    half.push(corpus);
    size += corpus.length;
  }
  let body = half.join('\n').slice(0, Math.floor(target / 2));
  // BIG_ASCII=1: only ASCII (V8 keeps it in one byte per character; any other character makes the whole string two).
  if (process.env.BIG_ASCII === '1') body = body.replace(/[^\x00-\x7f]/g, '?');
  return `${body}\n${MARKER}\n${body}\n`;
}

function stat(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function cpuTicks(pid) {
  const t = procTimes(pid);
  return t.utime + t.stime;
}

/** Samples the server's CPU time from the answer on; resolves with ms from `from` to its last tick. */
function busyAfter(pid, from, windowMs = 1000) {
  return new Promise((resolve) => {
    let last = cpuTicks(pid);
    let lastChange = from;
    const timer = setInterval(() => {
      const now = performance.now();
      const ticks = cpuTicks(pid);
      if (ticks !== last) {
        last = ticks;
        lastChange = now;
      }
      if (now - from > windowMs) {
        clearInterval(timer);
        resolve(lastChange - from);
      }
    }, 2);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runBigEditBench(mb = Number(process.env.BENCH_BIG_EDIT_MB ?? 50), rounds = 3) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-bigedit-'));
  const file = path.join(dir, 'big.txt');
  const text = bigText(mb);
  const fileMB = Buffer.byteLength(text) / 1024 / 1024;
  const results = { disk: [], editor: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 === 0 ? ['disk', 'editor'] : ['editor', 'disk']) {
        // A fresh server each time: its idle size is that of a session, not of the rounds before.
        writeFileSync(file, text);
        const server = await startServer(dir, { maxFileSize: 256 * 1024 * 1024 });
        const pid = server.proc.pid;
        // The session's sweep for stray temp files runs once, a second after the last request once
        // the index is built (server.ts, SWEEP_QUIET_MS), and says so in a log message: it is start-up
        // work, waited for here. Measured after the edit, it would land in the window below and count
        // as the edit's (stop 50: "busy after answering" read 893-995 ms, the sweep a second after the
        // edit's request; the edit's own work after its answer, the undo journal's digest, is ~80 ms).
        let swept;
        const sweepDone = new Promise((resolve) => (swept = resolve));
        server.conn.onNotification('window/logMessage', (p) => {
          if (/swept the workspace for temporary files/.test(p.message)) swept();
        });
        const uri = pathToFileURL(file).href;
        if (mode === 'editor') server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text } });
        // The start-up work (the symbol index of a folder without sources, ripgrep's helper, the sweep) and the didOpen are done.
        await server.conn.sendRequest('workspace/symbol', { query: 'x' });
        // (A build from before stop 44 sweeps at once and logs no such line: 5 s, then on.)
        const late = new Promise((resolve) => setTimeout(() => resolve('late'), 5_000).unref());
        if ((await Promise.race([sweepDone, late])) === 'late') console.error('bigEditBench: no sweep of stray temp files logged within 5 s of the first request');
        await busyAfter(pid, performance.now(), 300);
        const idle = stat(pid).rss;
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
        const t0 = performance.now();
        const result = await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'big.txt', old_string: MARKER, new_string: `${MARKER}_EDITED` }] });
        const answered = performance.now();
        const busy = await busyAfter(pid, answered);
        const { peak } = stat(pid);
        if (!result?.success) throw new Error(`edit failed: ${JSON.stringify(result).slice(0, 300)}`);
        results[mode].push({ ms: answered - t0, idle, peak, growth: peak - idle, busy });
        await stopServer(server);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = [];
  for (const [mode, rs] of Object.entries(results)) {
    const m = (k) => median(rs.map((r) => r[k]));
    rows.push({
      name: `editls.edit of one line in a ${fileMB.toFixed(1)} MB file, ${mode === 'disk' ? 'closed (written to disk)' : 'open in the editor (WorkspaceEdit)'}: peak RSS over idle, and busy after answering (medians of ${rounds})`,
      value: `${m('ms').toFixed(0)} ms; idle ${m('idle').toFixed(0)} MB + ${m('growth').toFixed(0)} MB (${(m('growth') / fileMB).toFixed(2)}x the file); busy ${m('busy').toFixed(0)} ms`,
      target: 'growth ≤ 4x the file; idle within 100 ms',
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await runBigEditBench(Number(process.argv[2] ?? 50), Number(process.argv[3] ?? 3))) console.log(`${r.name}\n  ${r.value} (goal: ${r.target})`);
}
