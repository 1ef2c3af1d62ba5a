// Bad input: wrong types, missing fields, NaN, negatives, huge numbers, non-object arguments,
// unknown commands and methods, malformed JSON frames, requests after shutdown. Each gets a clear
// error (data.kind, or the protocol's own code), the server stays up, files stay byte-identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { SERVER_JS } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report } from './budget.js';

/** A raw client: writes frames byte for byte and collects every message the server sends. */
class RawClient {
  readonly messages: any[] = [];
  private buf = Buffer.alloc(0);
  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const len = Number(/Content-Length: (\d+)/.exec(this.buf.subarray(0, end).toString())![1]);
        if (this.buf.length < end + 4 + len) return;
        this.messages.push(JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString()));
        this.buf = this.buf.subarray(end + 4 + len);
      }
    });
    proc.on('exit', () => (this.exited = true));
  }
  exited = false;
  raw(bytes: string | Buffer) {
    this.proc.stdin.write(bytes);
  }
  frame(body: string | object) {
    const b = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    this.raw(Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]));
  }
  async waitFor(pred: (m: any) => boolean, ms = 5000): Promise<any> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const found = this.messages.find(pred);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no matching message');
  }
  private nextId = 1000;
  async request(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    this.frame({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id);
  }
}

let ws: TempWorkspace;
let client: RawClient;
const FILES = { 'a.ts': 'const a = 1;\nconst b = 2;\n', 'crlf.txt': 'x\r\ny\r\n' };

beforeAll(async () => {
  ws = tempWorkspace(FILES);
  client = new RawClient(spawn(process.execPath, [SERVER_JS, '--stdio'], { stdio: 'pipe' }));
  const init = await client.request('initialize', { processId: process.pid, rootUri: pathToFileURL(ws.root).href, capabilities: {} });
  expect(init.result.capabilities).toBeDefined();
  client.frame({ jsonrpc: '2.0', method: 'initialized', params: {} });
});
afterAll(() => {
  client.proc.kill();
  ws.cleanup();
});

const exec = (command: unknown, args?: unknown, extra: object = {}) => ({ command, ...(args === undefined ? {} : { arguments: [args] }), ...extra });
const big = 2 ** 53 + 1;
const CASES: [string, string, unknown][] = [
  ['unknown command', 'workspace/executeCommand', exec('editls.nope', {})],
  ['empty command name', 'workspace/executeCommand', exec('', {})],
  ['command name wrong case', 'workspace/executeCommand', exec('EDITLS.EDIT', { file_path: 'a.ts', old_string: 'a', new_string: 'b' })],
  ['command not a string', 'workspace/executeCommand', exec(42, {})],
  ['no arguments array', 'workspace/executeCommand', { command: 'editls.edit' }],
  ['empty arguments array', 'workspace/executeCommand', { command: 'editls.edit', arguments: [] }],
  ['arguments not an array', 'workspace/executeCommand', { command: 'editls.edit', arguments: { file_path: 'a.ts' } }],
  ['argument is a number', 'workspace/executeCommand', exec('editls.edit', 7)],
  ['argument is a string', 'workspace/executeCommand', exec('editls.edit', 'a.ts')],
  ['argument is null', 'workspace/executeCommand', exec('editls.edit', null)],
  ['argument is true', 'workspace/executeCommand', exec('editls.edit', true)],
  ['argument is an array', 'workspace/executeCommand', exec('editls.edit', ['a.ts', 'a', 'b'])],
  ['nested arrays', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', replacements: [[{ old: 'a', new: 'b' }]] })],
  ['missing file_path', 'workspace/executeCommand', exec('editls.edit', { old_string: 'a', new_string: 'b' })],
  ['missing old_string', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', new_string: 'b' })],
  ['missing new_string', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a' })],
  ['file_path number', 'workspace/executeCommand', exec('editls.edit', { file_path: 12, old_string: 'a', new_string: 'b' })],
  ['file_path object', 'workspace/executeCommand', exec('editls.edit', { file_path: { p: 1 }, old_string: 'a', new_string: 'b' })],
  ['old_string number', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 1, new_string: 'b' })],
  ['new_string null', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: null })],
  ['replace_all "yes"', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'const', new_string: 'let', replace_all: 'yes' })],
  ['replace_all number', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'const', new_string: 'let', replace_all: 1 })],
  ['apply unknown', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', apply: 'later' })],
  ['confirm string', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', confirm: 'maybe' })],
  ['unknown field', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', force: true })],
  ['NaN encoded as null', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: null })],
  ['empty path', 'workspace/executeCommand', exec('editls.edit', { file_path: '', old_string: 'a', new_string: 'b' })],
  ['path with NUL', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts\u0000x', old_string: 'a', new_string: 'b' })],
  ['lone surrogate in new_string', 'workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'const a', new_string: 'let \ud83d' })],
  ['lone surrogate in replacementText', 'workspace/executeCommand', exec('editls.replaceRange', { filePath: 'a.ts', startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'c', replacementText: '\ude00' })],
  ['huge path', 'workspace/executeCommand', exec('editls.edit', { file_path: 'x/'.repeat(5000) + 'a.ts', old_string: 'a', new_string: 'b' })],
  ['non-file URI', 'workspace/executeCommand', exec('editls.edit', { file_path: 'https://example.invalid/a.ts', old_string: 'a', new_string: 'b' })],
  ['replacements missing', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts' })],
  ['replacements empty', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', replacements: [] })],
  ['replacements string', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', replacements: 'const' })],
  ['replacement old number', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', replacements: [{ old: 1, new: 'x' }] })],
  ['allowMultiple number', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', replacements: [{ old: 'const', new: 'let', allowMultiple: 2 }] })],
  ['atomic object', 'workspace/executeCommand', exec('editls.strReplace', { path: 'a.ts', atomic: {}, replacements: [{ old: 'a', new: 'b' }] })],
  ['negative line (replaceRange)', 'workspace/executeCommand', exec('editls.replaceRange', { filePath: 'a.ts', startLine: -1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'c', replacementText: 'C' })],
  ['huge line (replaceRange)', 'workspace/executeCommand', exec('editls.replaceRange', { filePath: 'a.ts', startLine: big, startColumn: 1, endLine: big, endColumn: 2, expectedText: 'c', replacementText: 'C' })],
  ['fractional column (replaceRange)', 'workspace/executeCommand', exec('editls.replaceRange', { filePath: 'a.ts', startLine: 1, startColumn: 1.5, endLine: 1, endColumn: 2, expectedText: 'c', replacementText: 'C' })],
  ['1e308 line (searchAndReplace)', 'workspace/executeCommand', exec('editls.searchAndReplace', { path: 'a.ts', search: 'const', replace: 'let', start_line: 1e308 })],
  ['negative start_line (searchAndReplace)', 'workspace/executeCommand', exec('editls.searchAndReplace', { path: 'a.ts', search: 'const', replace: 'let', start_line: -3 })],
  ['max_results negative (searchFiles)', 'workspace/executeCommand', exec('editls.searchFiles', { path: '.', regex: 'a', max_results: -1 })],
  ['regex number (searchFiles)', 'workspace/executeCommand', exec('editls.searchFiles', { path: '.', regex: 5 })],
  ['unknown method', 'editls/doSomething', {}],
  ['executeCommand params null', 'workspace/executeCommand', null],
  ['workspace/symbol query number', 'workspace/symbol', { query: 5 }],
];

describe('bad input', () => {
  it('answers each case with a clear error, stays up, and leaves files byte-identical', async () => {
    let answered = 0;
    const problems: string[] = [];
    for (const [name, method, params] of CASES) {
      const reply = await client.request(method, params);
      const err = reply.error;
      const clear = err && typeof err.message === 'string' && err.message.length > 0 && (err.data?.kind !== undefined || [-32600, -32601, -32602, -32700].includes(err.code));
      // a workspace/symbol query of the wrong type may simply be answered with an empty list
      if (clear || (method === 'workspace/symbol' && Array.isArray(reply.result))) answered++;
      else problems.push(`${name}: ${JSON.stringify(reply).slice(0, 200)}`);
    }
    // malformed frames: the protocol's own errors, then the session goes on
    const frameCases: [string, () => void][] = [
      ['body is not JSON', () => client.frame('{not json')],
      ['body is an array (batch)', () => client.frame('[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]')],
      ['body is a string', () => client.frame('"hello"')],
      ['body is null', () => client.frame('null')],
      ['Content-Length not a number', () => client.raw('Content-Length: abc\r\n\r\n{}')],
      ['header without colon', () => client.raw('Garbage header line\r\n\r\n{}')],
      ['negative Content-Length', () => client.raw('Content-Length: -5\r\n\r\n')],
      ['invalid UTF-8 body', () => client.raw(Buffer.concat([Buffer.from('Content-Length: 4\r\n\r\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]))],
    ];
    for (const [name, send] of frameCases) {
      const before = client.messages.length;
      send();
      try {
        await client.waitFor((m) => client.messages.indexOf(m) >= before && m.id === null && m.error, 2000);
        const ping = await client.request('workspace/executeCommand', exec('editls.nope', {}));
        if (ping.error?.data?.kind === 'invalid_args') answered++;
        else problems.push(`${name}: server did not answer the next request`);
      } catch {
        problems.push(`${name}: no protocol error`);
      }
    }
    // requests after shutdown are refused with InvalidRequest, and exit still works
    const shutdown = await client.request('shutdown', null);
    expect(shutdown.error).toBeUndefined();
    const after = await client.request('workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'const a', new_string: 'let a' }));
    if (after.error) answered++;
    else problems.push(`request after shutdown: ${JSON.stringify(after)}`);
    const total = CASES.length + frameCases.length + 1;
    const identical = Object.entries(FILES).every(([rel, text]) => ws.read(rel) === text);
    client.frame({ jsonrpc: '2.0', method: 'exit' });
    const end = Date.now() + 2000;
    while (!client.exited && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    report('bad input', { cases: total, clearErrors: answered, serverStayedUp: problems.length === 0 ? 'yes' : 'no', filesByteIdentical: identical ? 'yes' : 'no', exitedAfterExit: client.exited ? 'yes' : 'no' });
    expect(problems).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(40);
    expect(identical).toBe(true);
    expect(client.exited).toBe(true);
  });
});
