// What `editls --stdio` loads before it answers `initialize`: none of the Node built-ins it needs only
// later (worker threads, V8's heap figures, crypto, fs/promises, perf_hooks, Node's ES module loader;
// the code reaches them through process.getBuiltinModule or fs.promises where it uses them), and
// not @vscode/ripgrep (child_process and net are vscode-languageserver's own). Each costs start-up 1-4 ms
// (docs/performance.md, "Start-up"). The real dist/editls.js, with a preload that records
// process.moduleLoadList when the first byte of the answer is written. Needs `node esbuild.mjs` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/editls.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-start-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The modules loaded when the answer to `initialize` is written, and whether @vscode/ripgrep was required by then. */
async function loadedAtAnswer(): Promise<{ builtins: string[]; ripgrep: boolean }> {
  const out = path.join(dir, 'loaded.json');
  const preload = path.join(dir, 'preload.cjs');
  writeFileSync(
    preload,
    [
      "const fs = require('fs');",
      'const write = process.stdout.write.bind(process.stdout);',
      'let first = true;',
      'process.stdout.write = (...args) => {',
      '  if (first) {',
      '    first = false;',
      "    const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));",
      "    const ripgrep = Object.keys(require.cache).some((f) => f.includes('@vscode' + require('path').sep + 'ripgrep'));",
      `    fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ builtins, ripgrep }));`,
      '  }',
      '  return write(...args);',
      '};',
    ].join('\n'),
  );
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
  return JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; ripgrep: boolean };
}

describe('editls --stdio start-up', () => {
  it('answers initialize without loading what only later requests need', async () => {
    const { builtins, ripgrep } = await loadedAtAnswer();
    // The preload itself loads fs and path only, which every start loads anyway.
    expect(builtins).toContain('vm');
    const later = ['worker_threads', 'v8', 'crypto', 'internal/fs/promises', 'perf_hooks', 'internal/modules/esm/loader'];
    expect(later.filter((m) => builtins.includes(m))).toEqual([]);
    expect(ripgrep).toBe(false);
  });
});
