// What `editls --stdio` loads before it answers `initialize`: not the session bundle
// (dist/editls-session.js, loaded once the answer is written), none of the Node built-ins it needs only
// later (worker threads, V8's heap figures, crypto, fs/promises, perf_hooks, Node's ES module loader;
// the code reaches them through process.getBuiltinModule or fs.promises where it uses them), and
// not @vscode/ripgrep (child_process and net are vscode-languageserver's own). Each costs start-up 1-4 ms
// (docs/performance.md, "Start-up"). And once Claude Code's and Gemini CLI's IDE servers listen, the
// first request is answered without what a connecting agent needs (ide/claudeConnection.ts,
// ide/geminiSession.ts: the MCP SDK, ws, Hono; seen from outside by the built-ins they load). The
// real dist/editls.js, with a preload that records process.moduleLoadList when a message is
// written. Needs `node esbuild.mjs` first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/editls.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-start-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-ins loaded, whether @vscode/ripgrep is, and whether the session bundle is (it takes vscode-languageserver from server/sharedLsp.ts's symbol). */
interface Loaded {
  builtins: string[];
  ripgrep: boolean;
  session: boolean;
}

/**
 * A preload for editls recording the loaded built-ins, and whether @vscode/ripgrep is loaded, in
 * `folder`/loaded.json when editls writes a message: at its first write only, or at each.
 */
function recorder(folder: string, firstOnly: boolean): { preload: string; read: () => Loaded } {
  const out = path.join(folder, 'loaded.json');
  const preload = path.join(folder, 'preload.cjs');
  writeFileSync(
    preload,
    [
      "const fs = require('fs');",
      'const write = process.stdout.write.bind(process.stdout);',
      'let first = true;',
      'process.stdout.write = (...args) => {',
      `  if (first || ${!firstOnly}) {`,
      '    first = false;',
      "    const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));",
      "    const ripgrep = Object.keys(require.cache).some((f) => f.includes('@vscode' + require('path').sep + 'ripgrep'));",
      "    const session = Symbol.for('editls.vscode-languageserver') in globalThis;",
      `    fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ builtins, ripgrep, session }));`,
      '  }',
      '  return write(...args);',
      '};',
    ].join('\n'),
  );
  return { preload, read: () => JSON.parse(readFileSync(out, 'utf8')) as Loaded };
}

/** What is loaded when the answer to `initialize` is written. */
async function loadedAtAnswer(): Promise<Loaded> {
  const { preload, read } = recorder(dir, true);
  const child = spawn(process.execPath, ['-r', preload, BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  let answer = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`editls exited (${code}) before answering initialize`)));
    child.stdout.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (/"id":1/.test(answer) && /"capabilities"/.test(answer)) resolve();
    });
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return read();
}

/** A frame for editls's stdin. */
function frame(message: object): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Resolves once `check()` holds, polling the file system every 20 ms (the servers write their files when they listen). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('editls --stdio start-up', () => {
  it('answers initialize without loading what only later requests need', async () => {
    // The first start after a build checks the code cache's hashes (node:crypto) and notes the files
    // (server/launch.ts); later starts do not, and those are the ones measured here.
    expect(spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', timeout: 30_000 }).status).toBe(0);
    const { builtins, ripgrep, session } = await loadedAtAnswer();
    expect(session).toBe(false);
    // The preload itself loads fs and path only, which every start loads anyway.
    expect(builtins).toContain('vm');
    const later = ['worker_threads', 'v8', 'crypto', 'internal/fs/promises', 'perf_hooks', 'internal/modules/esm/loader'];
    expect(later.filter((m) => builtins.includes(m))).toEqual([]);
    expect(ripgrep).toBe(false);
  });

  it("answers the first request after the IDE servers listen without loading an agent's side of them", async () => {
    const root = mkdtempSync(path.join(dir, 'ide-'));
    const folder = path.join(root, 'w');
    const claudeDir = path.join(root, 'claude');
    const tmp = path.join(root, 'tmp');
    for (const d of [folder, tmp]) mkdirSync(d);
    const { preload, read } = recorder(root, false);
    const child = spawn(process.execPath, ['-r', preload, BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir, TMPDIR: tmp } });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const uri = pathToFileURL(folder).href;
      child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: uri, capabilities: {}, workspaceFolders: [{ uri, name: 'w' }] } }));
      await until(() => stdout.includes('"id":1'));
      child.stdin.write(frame({ method: 'initialized', params: {} }));
      const listening = (d: string, name: RegExp) => existsSync(d) && readdirSync(d).some((f) => name.test(f));
      await until(() => listening(path.join(claudeDir, 'ide'), /^\d+\.lock$/) && listening(path.join(tmp, 'gemini', 'ide'), /^gemini-ide-server-/));
      child.stdin.write(frame({ id: 2, method: 'workspace/symbol', params: { query: 'x' } }));
      await until(() => stdout.includes('"id":2'));
      const { builtins, session } = read();
      expect(session).toBe(true);
      expect(builtins).toContain('http');
      // Hono's node-server loads http2 and Node's fetch (undici), ws loads zlib, https and tls.
      expect(['http2', 'internal/deps/undici/undici', 'zlib', 'https', 'tls'].filter((m) => builtins.includes(m))).toEqual([]);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });
});
