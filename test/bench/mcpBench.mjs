// One `edit` through `editls mcp` attached to an editor's editls, against the editor's own
// workspace/executeCommand for the same edit on the same open buffer (p50 of 20 each); the MCP
// overhead goal is <= +5 ms. A private XDG_RUNTIME_DIR keeps the record out of the user's folder.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { corpusText } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = process.env.EDITLS_BIN ?? path.join(ROOT, 'dist/editls.js');
const N = 20;

function p50(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
const ms = (v) => `${v.toFixed(2)} ms`;

export async function runMcpBench() {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-mcp-bench-')));
  const xdg = mkdtempSync(path.join(os.tmpdir(), 'editls-mcp-bench-xdg-'));
  const env = { ...process.env, XDG_RUNTIME_DIR: xdg };
  const file = path.join(dir, 'bench.js');
  const text = corpusText(ROOT, 100 * 1000) + '\n// MARK_A\n';
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  const proc = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const buf = { text, version: 1 };
  conn.onRequest('workspace/applyEdit', (params) => {
    for (const change of params.edit.documentChanges ?? []) {
      if (!('textDocument' in change)) continue;
      const starts = [0];
      for (let i = 0; i < buf.text.length; i++) if (buf.text.charCodeAt(i) === 10) starts.push(i + 1);
      const spans = change.edits.map((e) => [starts[e.range.start.line] + e.range.start.character, starts[e.range.end.line] + e.range.end.character, e.newText, e.range]).sort((a, b) => b[0] - a[0]);
      for (const [s, e, t] of spans) buf.text = buf.text.slice(0, s) + t + buf.text.slice(e);
      buf.version++;
      conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: buf.version }, contentChanges: spans.map(([, , t, range]) => ({ range, text: t })) });
    }
    return { applied: true };
  });
  conn.onRequest('workspace/configuration', () => [null]);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: 'bench-editor' },
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'bench' }],
    capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } },
  });
  conn.sendNotification('initialized', {});
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text } });
  const recordFile = path.join(xdg, 'editls', `${proc.pid}.json`);
  while (!existsSync(recordFile)) await new Promise((r) => setTimeout(r, 20));
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, 'mcp', '--root', dir], env, stderr: 'ignore' });
  const agent = new Client({ name: 'bench-agent', version: '1' });
  await agent.connect(transport);
  const flip = () => (buf.text.includes('MARK_A') ? ['MARK_A', 'MARK_B'] : ['MARK_B', 'MARK_A']);
  // Warm both paths (the first MCP call attaches).
  for (let i = 0; i < 3; i++) {
    const [a, b] = flip();
    await agent.callTool({ name: 'edit', arguments: { file_path: 'bench.js', old_string: a, new_string: b } });
    const [c, d] = flip();
    await conn.sendRequest('workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'bench.js', old_string: c, new_string: d }] });
  }
  const viaEditor = [];
  const viaMcp = [];
  for (let i = 0; i < N; i++) {
    let [a, b] = flip();
    let t0 = performance.now();
    await conn.sendRequest('workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'bench.js', old_string: a, new_string: b }] });
    viaEditor.push(performance.now() - t0);
    [a, b] = flip();
    t0 = performance.now();
    const r = await agent.callTool({ name: 'edit', arguments: { file_path: 'bench.js', old_string: a, new_string: b } });
    viaMcp.push(performance.now() - t0);
    if (r.isError || r.structuredContent?.session?.mode !== 'attached') throw new Error(`mcp edit failed: ${JSON.stringify(r).slice(0, 300)}`);
  }
  await agent.close();
  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  await new Promise((r) => proc.on('exit', r));
  conn.dispose();
  rmSync(dir, { recursive: true, force: true });
  rmSync(xdg, { recursive: true, force: true });
  const e = p50(viaEditor);
  const m = p50(viaMcp);
  return [
    { name: `edit 100 KB open buffer through editls mcp, attached (p50 of ${N})`, value: ms(m), baseline: `${ms(e)} editor executeCommand`, ratio: `+${ms(m - e)}`, target: '<= +5 ms' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await runMcpBench()) console.log(r);
}
