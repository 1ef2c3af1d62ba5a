// A one-file search while the symbol index builds on a large tree, against the same search on the
// idle server once the build is done: requests must not wait for the build (issue 28, goal 3).
// The tree: /usr/include copied BENCH_BUILD_COPIES times (25: about 200,000 files, 3.2 GB).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, stopServer } from './server.mjs';

const SOURCE = '/usr/include';

function median(a) {
  const b = [...a].sort((x, y) => x - y);
  return b[Math.floor(b.length / 2)];
}

function quantile(a, q) {
  const b = [...a].sort((x, y) => x - y);
  return b[Math.min(b.length - 1, Math.floor(q * b.length))];
}

/** Searches `file` every 250 ms from `initialized` until the build's log line, then 20 more on the idle server. */
async function measure(root, file) {
  const server = await startServer(root);
  let building = true;
  let summary = '';
  server.conn.onNotification('window/logMessage', (p) => {
    if (/symbol index: indexed/.test(p.message)) {
      building = false;
      summary = p.message;
    }
  });
  const during = [];
  const idle = [];
  const started = performance.now();
  while (idle.length < 20 && performance.now() - started < 600_000) {
    const s = performance.now();
    await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: file, regex: 'define' }] });
    (building ? during : idle).push(performance.now() - s);
    await new Promise((r) => setTimeout(r, 250));
  }
  await stopServer(server);
  return { during, idle, summary };
}

export async function runDuringBuildBench() {
  if (!existsSync(SOURCE)) {
    console.log(`duringBuild: ${SOURCE} not found; skipped`);
    return [];
  }
  const copies = Number(process.env.BENCH_BUILD_COPIES ?? 25);
  const root = mkdtempSync(path.join(os.tmpdir(), 'editls-bench-build-'));
  try {
    for (let i = 1; i <= copies; i++) {
      mkdirSync(path.join(root, `c${i}`));
      cpSync(SOURCE, path.join(root, `c${i}`, 'include'), { recursive: true, verbatimSymlinks: true });
    }
    const { during, idle, summary } = await measure(root, 'c1/include/stdio.h');
    console.log(`duringBuild: ${summary}; during the build n=${during.length} p50 ${median(during).toFixed(1)} ms p90 ${quantile(during, 0.9).toFixed(1)} ms; idle p50 ${median(idle).toFixed(1)} ms`);
    return [
      {
        name: `one-file searchFiles during the index build (${copies} copies of ${SOURCE}), median`,
        value: `${median(during).toFixed(1)} ms (p90 ${quantile(during, 0.9).toFixed(1)})`,
        baseline: `${median(idle).toFixed(1)} ms on the idle server`,
        ratio: `${(median(during) / median(idle)).toFixed(2)}x`,
        target: '≤ 2x',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
