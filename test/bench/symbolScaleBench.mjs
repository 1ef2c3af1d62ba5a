// workspace/symbol at a million symbols (issue 30, item 2): /usr/include copied as often as it
// takes to hold at least a million symbols (BENCH_SYMBOL_COPIES fixes the number), the index built
// by the real server over stdio, then 300 warm queries of 3 to 8 characters (prefixes of names the
// index holds, as a picker sends them per keystroke); p50 and p99 of the answers, the build's time,
// when the name table was ready and the server's RSS.
// Usage: node test/bench/symbolScaleBench.mjs
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer, stopServer } from './server.mjs';

const SOURCE = '/usr/include';

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The resident memory of a process (MiB), from /proc. */
export function rssMiB(pid) {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/**
 * 300 warm workspace/symbol queries of 3 to 8 characters, timed (ms): prefixes of names from all
 * over the index (the best hits of each letter, digit and `_`), as a picker sends them per
 * keystroke, after 30 untimed ones. Empty when the index holds no name of 3 characters or more.
 */
export async function warmSymbolQueries(conn) {
  const names = new Set();
  for (const c of 'abcdefghijklmnopqrstuvwxyz_0123456789') {
    for (const s of await conn.sendRequest('workspace/symbol', { query: c })) names.add(s.name);
  }
  const pool = [...names].filter((n) => n.length >= 3);
  if (pool.length === 0) return [];
  const queries = [];
  for (let i = 0; queries.length < 300; i++) {
    const n = pool[(i * 7919) % pool.length];
    queries.push(n.slice(0, 3 + (i % 6)));
  }
  for (const q of queries.slice(0, 30)) await conn.sendRequest('workspace/symbol', { query: q });
  const times = [];
  for (const q of queries) {
    const t0 = performance.now();
    await conn.sendRequest('workspace/symbol', { query: q });
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * A server on `root` with its index built, and its name table, which the first query after the
 * build starts: the build's and the name table's log lines.
 */
async function indexedServer(root) {
  const server = await startServer(root);
  const logs = { built: undefined, table: undefined };
  let built;
  let tabled;
  const builtLog = new Promise((resolve) => (built = resolve));
  const tableLog = new Promise((resolve) => (tabled = resolve));
  server.conn.onNotification('window/logMessage', (p) => {
    if (/symbol index: indexed/.test(p.message)) built((logs.built = p.message));
    if (/symbol index: name table/.test(p.message)) tabled((logs.table = p.message));
  });
  await builtLog;
  await server.conn.sendRequest('workspace/symbol', { query: 'a' });
  await tableLog;
  return { server, logs };
}

export async function runSymbolScaleBench() {
  if (!existsSync(SOURCE)) return [{ name: 'workspace/symbol at a million symbols', value: `skipped: ${SOURCE} not found` }];
  const fixed = process.env.BENCH_SYMBOL_COPIES === undefined ? undefined : Number(process.env.BENCH_SYMBOL_COPIES);
  const root = mkdtempSync(path.join(os.tmpdir(), 'editls-bench-symbols-'));
  try {
    let copies = 0;
    let indexed;
    for (;;) {
      copies++;
      mkdirSync(path.join(root, `c${copies}`));
      cpSync(SOURCE, path.join(root, `c${copies}`, 'include'), { recursive: true, verbatimSymlinks: true });
      if (fixed !== undefined && copies < fixed) continue;
      indexed = await indexedServer(root);
      const count = Number(/indexed (\d+) symbols/.exec(indexed.logs.built)?.[1] ?? 0);
      if (fixed !== undefined || count >= 1_000_000 || copies >= 8) break;
      await stopServer(indexed.server);
    }
    const { server, logs } = indexed;
    const times = await warmSymbolQueries(server.conn);
    const rss = rssMiB(server.proc.pid);
    await stopServer(server);
    const symbols = /indexed (\d+) symbols in (\d+) files \((\d+) ms\)/.exec(logs.built);
    const table = /name table of (\d+) names for \d+ symbols \((\d+) ms\)/.exec(logs.table);
    console.error(`[bench] symbols at scale: ${logs.built}; ${logs.table}; p50 ${quantile(times, 0.5).toFixed(1)} p90 ${quantile(times, 0.9).toFixed(1)} p99 ${quantile(times, 0.99).toFixed(1)} ms`);
    return [
      {
        name: `workspace/symbol warm queries of 3-8 characters at ${symbols ? Number(symbols[1]).toLocaleString('en-US') : '?'} symbols (${copies} ${copies === 1 ? 'copy' : 'copies'} of ${SOURCE}; 300 queries over stdio)`,
        value: `p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`,
        target: 'p50 <= 10 ms, p99 <= 30 ms',
      },
      {
        name: `  its index build (${symbols ? Number(symbols[2]).toLocaleString('en-US') : '?'} files), then its name table (${table ? Number(table[1]).toLocaleString('en-US') : '?'} names, built in the background after the first query), and the server's RSS after the queries`,
        value: `${symbols ? symbols[3] : '?'} ms + ${table ? table[2] : '?'} ms, ${rss.toFixed(0)} MiB`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await runSymbolScaleBench()) console.log(r);
}
