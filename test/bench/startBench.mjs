// Start-up of the editor session against a bare Node: spawn → `initialize` answered for
// `editls --stdio` (dist/editls.js, `node esbuild.mjs` first), and spawn → exit for `node -e 0`,
// taking turns so that a busy machine slows both alike; medians and the ratio. Then the first
// request after `initialize` (a `workspace/symbol` on an empty folder), which lazy loading must not
// make slower. `node test/bench/startBench.mjs [rounds]`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = process.env.EDITLS_BIN ?? path.join(ROOT, 'dist/editls.js');

function frame(message) {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}

/** Milliseconds from spawn to the answer of the request with `id`, reading LSP frames from stdout. */
function answered(child, id) {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`editls exited (${code}) before answering ${id}`)));
    child.stdout.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const sep = buf.indexOf('\r\n\r\n');
        if (sep < 0) return;
        const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, sep).toString())?.[1]);
        if (buf.length < sep + 4 + len) return;
        const msg = JSON.parse(buf.subarray(sep + 4, sep + 4 + len).toString());
        buf = buf.subarray(sep + 4 + len);
        if (msg.id === id) resolve(performance.now());
      }
    });
  });
}

/** One editls start: spawn → initialize answered, then the first workspace/symbol answered (ms after initialize). */
async function startEditls(folder) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const init = answered(child, 1);
  child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: pathToFileURL(folder).href, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'w' }] } }));
  const tInit = await init;
  const first = answered(child, 2);
  child.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
  child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'workspace/symbol', params: { query: 'x' } }));
  const tFirst = await first;
  child.removeAllListeners('exit');
  child.kill();
  await new Promise((r) => child.once('close', r));
  return { init: tInit - t0, first: tFirst - tInit };
}

function startNode() {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', () => resolve(performance.now() - t0)));
}

const median = (l) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)];

export async function runStartBench({ rounds = 15, print = true } = {}) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'editls-start-'));
  const editls = [];
  const first = [];
  const node = [];
  try {
    await startEditls(folder); // warm the disk cache
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 ? ['node', 'editls'] : ['editls', 'node']) {
        if (side === 'node') node.push(await startNode());
        else {
          const r = await startEditls(folder);
          editls.push(r.init);
          first.push(r.first);
        }
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const ratio = median(editls) / median(node);
  if (print) {
    console.log(`editls --stdio, spawn → initialize answered: median ${median(editls).toFixed(1)} ms (${editls.map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`node -e 0, spawn → exit: median ${median(node).toFixed(1)} ms (${node.map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`ratio ${ratio.toFixed(2)}x; first workspace/symbol after initialize: median ${median(first).toFixed(1)} ms`);
  }
  return [
    { name: `start-up: spawn → initialize answered (median of ${rounds}, alternating)`, value: `${median(editls).toFixed(0)} ms`, baseline: `node -e 0: ${median(node).toFixed(0)} ms`, ratio: `${ratio.toFixed(2)}x`, target: '<= 1.5x' },
    { name: 'first workspace/symbol after initialize (median)', value: `${median(first).toFixed(1)} ms` },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runStartBench({ rounds: Number(process.argv[2]) || 15 });
