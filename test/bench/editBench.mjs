// Round trip of editls.edit over stdio on a 100 KB and a 10 MB file (closed file written to disk,
// and an open buffer) against plain Node reading, finding and writing the same file in one
// process; plus initialize latency after spawn.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { corpusText } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = process.env.EDITLS_BIN ?? path.join(ROOT, 'dist/editls.js');

function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const ms = (v) => `${v.toFixed(2)} ms`;

async function startServer(root, capabilities) {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const buffers = new Map();
  conn.onRequest('workspace/applyEdit', async (params) => {
    // Apply like an editor (utf-16 positions), then report the new version with a full-text didChange.
    for (const change of params.edit.documentChanges ?? []) {
      if (!('textDocument' in change)) continue;
      const buf = buffers.get(change.textDocument.uri);
      if (!buf) continue;
      const lines = lineStarts(buf.text);
      const spans = change.edits.map((e) => [lines[e.range.start.line] + e.range.start.character, lines[e.range.end.line] + e.range.end.character, e.newText, e.range]);
      spans.sort((a, b) => b[0] - a[0]);
      for (const [s, e, t] of spans) buf.text = buf.text.slice(0, s) + t + buf.text.slice(e);
      buf.version++;
      // incremental, as editors send it (ranges applied last-first stay valid)
      conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: change.textDocument.uri, version: buf.version },
        contentChanges: spans.map(([, , t, range]) => ({ range, text: t })),
      });
    }
    return { applied: true };
  });
  conn.onRequest('workspace/configuration', () => [null]);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'bench' }],
    capabilities,
    initializationOptions: { maxFileSize: 64 * 1024 * 1024 },
  });
  const initMs = performance.now() - t0;
  conn.sendNotification('initialized', {});
  return { proc, conn, initMs, buffers };
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

async function stop(server) {
  await server.conn.sendRequest('shutdown');
  server.conn.sendNotification('exit');
  await new Promise((r) => server.proc.on('exit', r));
  server.conn.dispose();
}

function plainNodeEdit(file, oldString, newString) {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(oldString);
  if (at < 0 || text.indexOf(oldString, at + 1) >= 0) throw new Error('not unique');
  writeFileSync(file, text.slice(0, at) + newString + text.slice(at + oldString.length));
}

export async function runEditBench() {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-bench-')));
  const results = [];
  try {
    const caps = { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } };
    // initialize latency after spawn: median of 7 spawns
    const inits = [];
    for (let i = 0; i < 7; i++) {
      const s = await startServer(dir, caps);
      inits.push(s.initMs);
      await stop(s);
    }
    results.push({ name: 'initialize answered after spawn (p50 of 7)', value: ms(pct(inits, 50)), target: '<= 150 ms' });

    for (const [label, size, iterations, target] of [
      ['100 KB', 100 * 1000, 200, 'p50 <= 5 ms'],
      ['10 MB', 10 * 1000 * 1000, 12, '<= 150 ms'],
    ]) {
      const body = corpusText(ROOT, size);
      const marker = 'EDITLS_BENCH_MARK';
      const mid = body.indexOf('\n', Math.floor(body.length / 2)) + 1;
      const text = body.slice(0, mid) + `// ${marker}_A\n` + body.slice(mid);
      const file = path.join(dir, `bench-${size}.js`);
      const baseFile = path.join(dir, `plain-${size}.js`);
      writeFileSync(file, text);
      writeFileSync(baseFile, text);
      const server = await startServer(dir, caps);
      const timesDisk = [];
      for (let i = 0; i < iterations; i++) {
        const [from, to] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
        const t0 = performance.now();
        await server.conn.sendRequest('workspace/executeCommand', {
          command: 'editls.edit',
          arguments: [{ file_path: path.basename(file), old_string: `${marker}_${from}`, new_string: `${marker}_${to}` }],
        });
        timesDisk.push(performance.now() - t0);
      }
      const timesPlain = [];
      for (let i = 0; i < iterations; i++) {
        const [from, to] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
        const t0 = performance.now();
        plainNodeEdit(baseFile, `${marker}_${from}`, `${marker}_${to}`);
        timesPlain.push(performance.now() - t0);
      }
      // open buffer path: didOpen, then edits applied by the client and confirmed by didChange
      const uri = pathToFileURL(file).href;
      const current = readFileSync(file, 'utf8');
      server.buffers.set(uri, { text: current, version: 1 });
      server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text: current } });
      const timesOpen = [];
      for (let i = 0; i < iterations; i++) {
        const cur = server.buffers.get(uri).text.includes(`${marker}_A`) ? 'A' : 'B';
        const next = cur === 'A' ? 'B' : 'A';
        const t0 = performance.now();
        await server.conn.sendRequest('workspace/executeCommand', {
          command: 'editls.edit',
          arguments: [{ file_path: path.basename(file), old_string: `${marker}_${cur}`, new_string: `${marker}_${next}` }],
        });
        timesOpen.push(performance.now() - t0);
      }
      await stop(server);
      const p50d = pct(timesDisk, 50);
      const p50p = pct(timesPlain, 50);
      results.push({ name: `editls.edit ${label}, closed file -> disk (p50 of ${iterations})`, value: ms(p50d), baseline: `${ms(p50p)} plain Node`, ratio: `${(p50d / p50p).toFixed(2)}x`, target });
      results.push({ name: `editls.edit ${label}, closed file -> disk (p90)`, value: ms(pct(timesDisk, 90)), baseline: ms(pct(timesPlain, 90)) });
      results.push({ name: `editls.edit ${label}, open buffer via applyEdit (p50)`, value: ms(pct(timesOpen, 50)), baseline: `${ms(p50p)} plain Node`, ratio: `${(pct(timesOpen, 50) / p50p).toFixed(2)}x` });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
