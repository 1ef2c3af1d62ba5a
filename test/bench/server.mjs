// The editls server a benchmark talks to: dist/editls.js (or EDITLS_BIN, e.g. an older build to
// compare with) over stdio, initialized on one folder, with a client that accepts every
// workspace/applyEdit (unless told otherwise) and ignores logs, hints and progress.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';

const SERVER = process.env.EDITLS_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/editls.js');

/** `applyEdit`: the client's answer to workspace/applyEdit (default: applied). */
export async function startServer(root, initializationOptions, { applyEdit = () => ({ applied: true }) } = {}) {
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/u).filter((a) => a !== '');
  // BENCH_SERVER_THREADPOOL: libuv threadpool size for the server alone (UV_THREADPOOL_SIZE).
  const env = process.env.BENCH_SERVER_THREADPOOL ? { ...process.env, UV_THREADPOOL_SIZE: process.env.BENCH_SERVER_THREADPOOL } : process.env;
  const proc = spawn(process.execPath, [...nodeArgs, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  conn.onRequest('workspace/configuration', () => [null]);
  conn.onRequest('workspace/applyEdit', applyEdit);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('$/progress', () => undefined);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'bench' }],
    capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } },
    initializationOptions,
  });
  conn.sendNotification('initialized', {});
  return { proc, conn };
}

export async function stopServer(server) {
  await server.conn.sendRequest('shutdown');
  server.conn.sendNotification('exit');
  await new Promise((r) => server.proc.on('exit', r));
  server.conn.dispose();
}
