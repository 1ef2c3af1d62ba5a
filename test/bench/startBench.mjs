// Start-up of the editor session against a bare Node: spawn → `initialize` answered for
// `editls --stdio` (dist/editls.js, `node esbuild.mjs` first), and spawn → exit for `node -e 0`,
// taking turns so that a busy machine slows both alike; medians and the ratio. Then the first
// request after `initialize` (a `workspace/symbol` on an empty folder), which lazy loading must not
// make slower. A third side, taking turns with the two: a bare server on the same library
// (vscode-languageserver's createConnection answering `initialize`, bundled here by esbuild as
// editls's bundle is, without a code cache): the floor of any server built on it.
// `node test/bench/startBench.mjs [rounds]`.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** The bare server: createConnection, an `initialize` answer, `exit`; CommonJS, minified, for Node 20. */
async function buildBareServer(dir) {
  const entry = path.join(dir, 'bare.mjs');
  writeFileSync(
    entry,
    [
      "import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';",
      'const connection = createConnection(ProposedFeatures.all);',
      "connection.onInitialize(() => ({ capabilities: { executeCommandProvider: { commands: ['bare.command'] } } }));",
      'connection.onExit(() => process.exit(0));',
      'connection.listen();',
    ].join('\n'),
  );
  const outfile = path.join(dir, 'bare.cjs');
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, nodePaths: [path.join(ROOT, 'node_modules')], logLevel: 'warning' });
  return outfile;
}

/** One editls start: spawn → initialize answered, then the first workspace/symbol answered (ms after initialize). */
async function startEditls(folder, server = SERVER) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const init = answered(child, 1);
  child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: pathToFileURL(folder).href, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'w' }] } }));
  const tInit = await init;
  if (server !== SERVER) {
    child.removeAllListeners('exit');
    child.kill();
    await new Promise((r) => child.once('close', r));
    return { init: tInit - t0 };
  }
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
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'editls-bare-'));
  const editls = [];
  const first = [];
  const node = [];
  const bare = [];
  try {
    const bareServer = await buildBareServer(scratch);
    await startEditls(folder); // warm the disk cache
    await startEditls(folder, bareServer);
    const orders = [
      ['editls', 'node', 'bare'],
      ['node', 'bare', 'editls'],
      ['bare', 'editls', 'node'],
    ];
    for (let i = 0; i < rounds; i++) {
      for (const side of orders[i % 3]) {
        if (side === 'node') node.push(await startNode());
        else if (side === 'bare') bare.push((await startEditls(folder, bareServer)).init);
        else {
          const r = await startEditls(folder);
          editls.push(r.init);
          first.push(r.first);
        }
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  const ratio = median(editls) / median(node);
  const bareRatio = median(bare) / median(node);
  if (print) {
    console.log(`editls --stdio, spawn → initialize answered: median ${median(editls).toFixed(1)} ms (${editls.map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`node -e 0, spawn → exit: median ${median(node).toFixed(1)} ms (${node.map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`a bare vscode-languageserver server, spawn → initialize answered: median ${median(bare).toFixed(1)} ms (${bare.map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`ratio ${ratio.toFixed(2)}x (the bare server: ${bareRatio.toFixed(2)}x); first workspace/symbol after initialize: median ${median(first).toFixed(1)} ms`);
  }
  return [
    { name: `start-up: spawn → initialize answered (median of ${rounds}, alternating)`, value: `${median(editls).toFixed(0)} ms`, baseline: `node -e 0: ${median(node).toFixed(0)} ms`, ratio: `${ratio.toFixed(2)}x`, target: '<= 1.5x' },
    { name: '  a bare vscode-languageserver server (createConnection answering initialize; the same runs)', value: `${median(bare).toFixed(0)} ms`, baseline: `node -e 0: ${median(node).toFixed(0)} ms`, ratio: `${bareRatio.toFixed(2)}x` },
    { name: 'first workspace/symbol after initialize (median)', value: `${median(first).toFixed(1)} ms` },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runStartBench({ rounds: Number(process.argv[2]) || 15 });
