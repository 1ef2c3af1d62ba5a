// `editls mcp` from spawn to its answer to MCP initialize, against a bare stdio MCP server made with
// the same SDK (one tool, nothing else), spawned alternately (medians of 15 each): the goal is
// <= 1.5x (issue 25). Both are started by a raw newline-JSON client, so no client library is timed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = process.env.EDITLS_BIN ?? path.join(ROOT, 'dist/editls.js');
const N = 15;

const BARE = `
import { Server } from '${path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js')}';
import { StdioServerTransport } from '${path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js')}';
import { ListToolsRequestSchema } from '${path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js')}';
const server = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'noop', inputSchema: { type: 'object' } }] }));
await server.connect(new StdioServerTransport());
`;

/** ms from spawn to the initialize answer. */
function timeInitialize(args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, XDG_RUNTIME_DIR: cwd } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"id":1')) {
        const ms = performance.now() - started;
        child.kill('SIGKILL');
        resolve(ms);
      }
    });
    child.on('error', reject);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`);
  });
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

export async function runMcpStartBench() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-mcp-start-'));
  const bare = path.join(dir, 'bare.mjs');
  writeFileSync(bare, BARE);
  const editls = [];
  const base = [];
  try {
    for (let i = 0; i < N; i++) {
      editls.push(await timeInitialize([SERVER, 'mcp', '--root', dir], dir));
      base.push(await timeInitialize([bare], dir));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const e = median(editls);
  const b = median(base);
  console.log(`mcpStart: editls mcp initialize ${e.toFixed(0)} ms, bare SDK server ${b.toFixed(0)} ms (medians of ${N}, alternating)`);
  return [{ name: '`editls mcp`: spawn to the answer to initialize (median)', value: `${e.toFixed(0)} ms`, baseline: `${b.toFixed(0)} ms, a bare MCP SDK stdio server`, ratio: `${(e / b).toFixed(2)}x`, target: '≤ 1.5x' }];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runMcpStartBench());
