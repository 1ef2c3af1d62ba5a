// Protocol attacks: requests before `initialize` (-32002), a second `initialize`, notifications and
// request params of the wrong shape, frames with a wrong Content-Length, duplicate request ids,
// odd ids. Every request gets exactly one clear answer, every bad notification is logged and
// ignored, the next normal searchFiles / edit / workspace/symbol still works, files stay identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { RawClient } from '../helpers/rawClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const FILES = { 'a.ts': 'export const alpha = 1;\nexport function beta() {}\n', 'crlf.txt': 'x\r\ny\r\n' };
const OTHER = { 'a.ts': 'export const alpha = 1;\nexport const alpha2 = alpha;\n' };
const exec = (command: unknown, args?: unknown) => ({ command, ...(args === undefined ? {} : { arguments: [args] }) });
const SERVER_NOT_INITIALIZED = -32002;
const CLEAR_CODES = [-32700, -32600, -32601, -32602, SERVER_NOT_INITIALIZED];
/** Messages of a server that crashed inside a handler instead of checking its input. */
const CRASH_TEXT = /TypeError|Cannot read prop|is not a function|is not iterable|failed unexpectedly|Request .* failed with message/;

function clearError(reply: any): boolean {
  const err = reply?.error;
  return Boolean(err && typeof err.message === 'string' && err.message.length > 0 && !CRASH_TEXT.test(err.message) && (err.data?.kind !== undefined || CLEAR_CODES.includes(err.code)));
}

/** A normal searchFiles, edit (preview) and workspace/symbol all work, on the first workspace. */
async function healthy(c: RawClient): Promise<string | undefined> {
  const s = await c.request('workspace/executeCommand', exec('editls.searchFiles', { path: '.', regex: 'alpha' }), 3000).catch(() => undefined);
  if (s?.result?.count !== 1) return `searchFiles: ${JSON.stringify(s ?? 'no answer').slice(0, 200)}`;
  const e = await c.request('workspace/executeCommand', exec('editls.edit', { file_path: 'a.ts', old_string: 'alpha = 1', new_string: 'alpha = 2', apply: 'preview' }), 3000).catch(() => undefined);
  if (e?.result?.success !== true) return `edit: ${JSON.stringify(e ?? 'no answer').slice(0, 200)}`;
  const y = await c.request('workspace/symbol', { query: 'beta' }, 3000).catch(() => undefined);
  if (!Array.isArray(y?.result) || y.result.length !== 1) return `workspace/symbol: ${JSON.stringify(y ?? 'no answer').slice(0, 200)}`;
  return undefined;
}

function unchanged(ws: TempWorkspace, files: Record<string, string>): boolean {
  return Object.entries(files).every(([rel, text]) => ws.read(rel) === text);
}

const totals = { cases: 0, handled: 0 };
function tally(group: string, cases: number, problems: string[], extra: Record<string, string | number> = {}): void {
  totals.cases += cases;
  totals.handled += cases - problems.length;
  report(`protocol attacks: ${group}`, { cases, handled: cases - problems.length, ...extra });
}

let ws: TempWorkspace;
let other: TempWorkspace;
beforeAll(() => {
  ws = tempWorkspace(FILES);
  other = tempWorkspace(OTHER);
});
afterAll(() => {
  report('protocol attacks (all)', { cases: totals.cases, answeredOrIgnoredClearly: totals.handled });
  ws.cleanup();
  other.cleanup();
});

describe('lifecycle order (items 4 and 18)', () => {
  it('answers requests before initialize with -32002, ignores notifications, refuses a second initialize', async () => {
    const problems: string[] = [];
    let cases = 0;
    const c = RawClient.start();
    try {
      // requests before initialize: -32002, nothing done
      for (const [name, method, params] of [
        ['workspace/symbol', 'workspace/symbol', { query: 'alpha' }],
        ['edit that would write', 'workspace/executeCommand', exec('editls.edit', { file_path: pathToFileURL(ws.file('a.ts')).href, old_string: 'alpha = 1', new_string: 'alpha = 9', apply: 'disk' })],
        ['shutdown', 'shutdown', null],
        ['unknown method', 'editls/nope', {}],
      ] as [string, string, unknown][]) {
        cases++;
        const r = await c.request(method, params, 3000).catch(() => undefined);
        if (r?.error?.code !== SERVER_NOT_INITIALIZED) problems.push(`${name} before initialize: ${JSON.stringify(r ?? 'no answer').slice(0, 200)}`);
      }
      // a notification before initialize is dropped: this buffer would hide `alpha` from searchFiles
      cases++;
      c.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(ws.file('a.ts')).href, languageId: 'typescript', version: 1, text: 'nothing here\n' } });
      // initialize with params of the wrong shape: InvalidParams, and initialize can still be sent
      for (const [name, params] of [
        ['params null', null],
        ['capabilities missing', { processId: null, rootUri: null }],
        ['resourceOperations a number', { processId: null, rootUri: pathToFileURL(other.root).href, capabilities: { workspace: { workspaceEdit: { resourceOperations: 5 } } } }],
        ['positionEncodings a string', { processId: null, rootUri: pathToFileURL(other.root).href, capabilities: { general: { positionEncodings: 'utf-8' } } }],
        ['workspaceFolders an object', { processId: null, capabilities: {}, workspaceFolders: { uri: pathToFileURL(other.root).href } }],
      ] as [string, unknown][]) {
        cases++;
        const r = await c.request('initialize', params, 3000).catch(() => undefined);
        if (!(r?.error?.code === -32602 && clearError(r))) problems.push(`initialize with ${name}: ${JSON.stringify(r ?? 'no answer').slice(0, 200)}`);
      }
      const init = await c.initialize(ws.root);
      expect(init.result?.capabilities).toBeDefined();
      // a second initialize is refused and changes nothing (the workspace stays the first one)
      cases++;
      const again = await c.request('initialize', { processId: null, rootUri: pathToFileURL(other.root).href, workspaceFolders: [{ uri: pathToFileURL(other.root).href, name: 'other' }], capabilities: { general: { positionEncodings: ['utf-8'] } } }, 3000).catch(() => undefined);
      if (!(again?.error?.code === -32600 && again.error.message === 'initialize was already received')) problems.push(`second initialize: ${JSON.stringify(again ?? 'no answer').slice(0, 200)}`);
      const health = await healthy(c);
      if (health) problems.push(`after the lifecycle attacks: ${health}`);
      const shutdown = await c.request('shutdown', null);
      expect(shutdown.error).toBeUndefined();
      c.notify('exit');
      expect(await c.waitForExit(2000)).toBe(true);
      expect(c.exitCode).toBe(0);
    } finally {
      c.kill();
    }
    // `exit` before initialize still exits (code 1: no shutdown)
    cases++;
    const d = RawClient.start();
    try {
      const t0 = Date.now();
      d.notify('exit');
      if (!(await d.waitForExit(2000)) || d.exitCode !== 1) problems.push(`exit before initialize: exited=${d.exited} code=${d.exitCode} after ${Date.now() - t0} ms`);
    } finally {
      d.kill();
    }
    const identical = unchanged(ws, FILES) && unchanged(other, OTHER);
    tally('lifecycle order', cases, problems, { filesByteIdentical: identical ? 'yes' : 'no' });
    expect(problems).toEqual([]);
    expect(identical).toBe(true);
  }, 120_000);
});

describe('session with bad input (items 14 and 16)', () => {
  let c: RawClient;
  beforeAll(async () => {
    c = RawClient.start();
    await c.initialize(ws.root);
    // one document open with its disk text: bad didChange/didClose must leave it exactly so
    c.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(ws.file('a.ts')).href, languageId: 'typescript', version: 1, text: FILES['a.ts'] } });
    expect(await healthy(c)).toBeUndefined();
  });
  afterAll(() => c.kill());

  it('logs and ignores every notification of the wrong shape, and keeps serving', async () => {
    const a = pathToFileURL(ws.file('a.ts')).href;
    const b = pathToFileURL(ws.file('b.ts')).href;
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 6 } };
    const CASES: [string, string, unknown][] = [
      ['didOpen text a number', 'textDocument/didOpen', { textDocument: { uri: b, languageId: 'typescript', version: 1, text: 5 } }],
      ['didOpen text null', 'textDocument/didOpen', { textDocument: { uri: b, languageId: 'typescript', version: 1, text: null } }],
      ['didOpen text an object', 'textDocument/didOpen', { textDocument: { uri: b, languageId: 'typescript', version: 1, text: { alpha: 1 } } }],
      ['didOpen without textDocument', 'textDocument/didOpen', { uri: b }],
      ['didOpen params null', 'textDocument/didOpen', null],
      ['didOpen uri a number', 'textDocument/didOpen', { textDocument: { uri: 7, languageId: 'typescript', version: 1, text: 'alpha' } }],
      ['didOpen version a string', 'textDocument/didOpen', { textDocument: { uri: b, languageId: 'typescript', version: '1', text: 'alpha' } }],
      ['didChange params null', 'textDocument/didChange', null],
      ['didChange contentChanges not an array', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: { text: 'x' } }],
      ['didChange text a number', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: [{ text: 42 }] }],
      ['didChange range text missing', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: [{ range }] }],
      ['didChange negative line', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 1 } }, text: '' }] }],
      ['didChange range without end', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 } }, text: 'x' }] }],
      ['didChange fractional character', 'textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0.5 }, end: { line: 0, character: 1 } }, text: 'x' }] }],
      ['didChange version a string', 'textDocument/didChange', { textDocument: { uri: a, version: '2' }, contentChanges: [{ text: 'x' }] }],
      ['didChange without textDocument', 'textDocument/didChange', { contentChanges: [{ text: 'x' }] }],
      ['didClose params null', 'textDocument/didClose', null],
      ['didClose uri a number', 'textDocument/didClose', { textDocument: { uri: 1 } }],
      ['didSave params null', 'textDocument/didSave', null],
      ['didSave text a number', 'textDocument/didSave', { textDocument: { uri: a }, text: 1 }],
      ['willSave params null', 'textDocument/willSave', null],
      ['didChangeWatchedFiles params null', 'workspace/didChangeWatchedFiles', null],
      ['didChangeWatchedFiles changes null', 'workspace/didChangeWatchedFiles', { changes: null }],
      ['didChangeWatchedFiles uri a number', 'workspace/didChangeWatchedFiles', { changes: [{ uri: 3, type: 2 }] }],
      ['didChangeWatchedFiles type a string', 'workspace/didChangeWatchedFiles', { changes: [{ uri: a, type: 'changed' }] }],
      ['didChangeWorkspaceFolders params null', 'workspace/didChangeWorkspaceFolders', null],
      ['didChangeWorkspaceFolders added null', 'workspace/didChangeWorkspaceFolders', { event: { added: null, removed: [] } }],
      ['didChangeWorkspaceFolders folder uri a number', 'workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: 5, name: 'x' }], removed: [] } }],
      ['didChangeConfiguration params null', 'workspace/didChangeConfiguration', null],
      ['didChangeConfiguration params a string', 'workspace/didChangeConfiguration', 'maxResults=1'],
      ['$/cancelRequest params null', '$/cancelRequest', null],
      ['$/cancelRequest without params', '$/cancelRequest', undefined],
      ['$/cancelRequest id an object', '$/cancelRequest', { id: { n: 1 } }],
      ['workDoneProgress/cancel params null', 'window/workDoneProgress/cancel', null],
      ['workDoneProgress/cancel token an object', 'window/workDoneProgress/cancel', { token: {} }],
      ['$/setTrace params null', '$/setTrace', null],
      ['$/progress params null', '$/progress', null],
    ];
    const problems: string[] = [];
    for (const [name, method, params] of CASES) {
      const from = c.messages.length;
      c.notify(method, params);
      const logged = await c.waitFor((m) => m.method === 'window/logMessage' && m.params.message.includes(method) && /ignored/.test(m.params.message), 2000, from).catch(() => undefined);
      if (!logged) problems.push(`${name}: no log line saying it was ignored`);
      const health = await healthy(c);
      if (health) problems.push(`${name}: ${health}`);
    }
    // the open buffer is exactly what it was: searchFiles (which reads it) finds both lines
    const s = await c.request('workspace/executeCommand', exec('editls.searchFiles', { path: 'a.ts', regex: '^export' }));
    if (s.result?.count !== 2) problems.push(`open buffer changed: ${JSON.stringify(s).slice(0, 200)}`);
    const crashes = c.stderr.match(/uncaught exception[^\n]*/g) ?? [];
    const identical = unchanged(ws, FILES);
    tally('notifications of the wrong shape', CASES.length, problems, { uncaughtExceptions: crashes.length, filesByteIdentical: identical ? 'yes' : 'no' });
    expect(problems).toEqual([]);
    expect(crashes).toEqual([]);
    expect(identical).toBe(true);
  }, 240_000);

  it('answers requests with params of the wrong shape with a clear error, never a TypeError', async () => {
    const a = pathToFileURL(ws.file('a.ts')).href;
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const CASES: [string, string, unknown][] = [
      ['codeAction params null', 'textDocument/codeAction', null],
      ['codeAction without textDocument', 'textDocument/codeAction', { range, context: { diagnostics: [] } }],
      ['codeAction uri a number', 'textDocument/codeAction', { textDocument: { uri: 1 }, range, context: { diagnostics: [] } }],
      ['codeAction without range', 'textDocument/codeAction', { textDocument: { uri: a }, context: { diagnostics: [] } }],
      ['codeAction line a string', 'textDocument/codeAction', { textDocument: { uri: a }, range: { start: { line: '0', character: 0 }, end: range.end }, context: { diagnostics: [] } }],
      ['codeAction only a string', 'textDocument/codeAction', { textDocument: { uri: a }, range, context: { diagnostics: [], only: 'quickfix' } }],
      ['codeAction diagnostics not an array', 'textDocument/codeAction', { textDocument: { uri: a }, range, context: { diagnostics: 5 } }],
      ['codeAction params an array', 'textDocument/codeAction', [a]],
      ['workspace/symbol params null', 'workspace/symbol', null],
      ['workspace/symbol query a number', 'workspace/symbol', { query: 5 }],
      ['workspace/symbol without query', 'workspace/symbol', {}],
      ['workspace/symbol params an array', 'workspace/symbol', ['beta']],
      ['workspace/symbol workDoneToken an object', 'workspace/symbol', { query: 'beta', workDoneToken: { t: 1 } }],
      ['executeCommand params a number', 'workspace/executeCommand', 5],
      ['executeCommand params a string', 'workspace/executeCommand', 'editls.edit'],
      ['executeCommand params an array', 'workspace/executeCommand', ['editls.edit']],
      ['executeCommand command null', 'workspace/executeCommand', { command: null, arguments: [{}] }],
      ['executeCommand arguments a number', 'workspace/executeCommand', { command: 'editls.edit', arguments: 5 }],
      ['executeCommand arguments a string', 'workspace/executeCommand', { command: 'editls.searchFiles', arguments: 'abc' }],
      ['executeCommand workDoneToken an object', 'workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: 'alpha' }], workDoneToken: { t: 1 } }],
    ];
    const problems: string[] = [];
    for (const [name, method, params] of CASES) {
      const r = await c.request(method, params, 3000).catch(() => undefined);
      if (!clearError(r)) problems.push(`${name}: ${JSON.stringify(r ?? 'no answer').slice(0, 200)}`);
    }
    const health = await healthy(c);
    if (health) problems.push(`afterwards: ${health}`);
    tally('request params of the wrong shape', CASES.length, problems);
    expect(problems).toEqual([]);
    expect(unchanged(ws, FILES)).toBe(true);
  }, 120_000);

  it('answers every request around broken frames, duplicate ids and odd ids', async () => {
    const problems: string[] = [];
    const symbolRequest = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'workspace/symbol', params: { query: 'beta' } });
    const searchRequest = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'workspace/executeCommand', params: exec('editls.searchFiles', { path: '.', regex: 'alpha' }) });
    /** A frame whose header declares `declared` bytes for this body. */
    const lying = (body: object, declared: (bytes: number) => number) => {
      const b = Buffer.from(JSON.stringify(body));
      return Buffer.concat([Buffer.from(`Content-Length: ${declared(b.length)}\r\n\r\n`), b]);
    };
    /** The broken request gets one error with its id (or id null), the valid one after it its answer. */
    const brokenThenValid = async (name: string, send: (broken: number, valid: number) => Promise<void> | void, brokenMustBeAnswered = true) => {
      const broken = c.id();
      const valid = c.id();
      const from = c.messages.length;
      await send(broken, valid);
      const answer = await c.waitFor((m) => m.id === valid && m.method === undefined, 3000, from).catch(() => undefined);
      if (!Array.isArray(answer?.result)) problems.push(`${name}: the valid request after it got ${JSON.stringify(answer ?? 'no answer').slice(0, 200)}`);
      const error = await c.waitFor((m) => (m.id === broken || m.id === null) && m.error, 2000, from).catch(() => undefined);
      if (!error) problems.push(`${name}: no error for the broken frame`);
      if (brokenMustBeAnswered) {
        const own = await c.waitFor((m) => m.id === broken, 2000, from).catch(() => undefined);
        if (!clearError(own)) problems.push(`${name}: the broken request was not answered with its id (${JSON.stringify(own ?? 'no answer').slice(0, 200)})`);
      }
      const health = await healthy(c);
      if (health) problems.push(`${name}, afterwards: ${health}`);
    };
    let cases = 0;
    const frameCase = async (name: string, send: (broken: number, valid: number) => Promise<void> | void, brokenMustBeAnswered = true) => {
      cases++;
      await brokenThenValid(name, send, brokenMustBeAnswered);
    };

    await frameCase('Content-Length too short, next frame in the same write', (x, y) => c.raw(Buffer.concat([lying(symbolRequest(x), (n) => n - 20), RawClient.frameBytes(symbolRequest(y))])));
    await frameCase('Content-Length too long, next frame in the same write', (x, y) => c.raw(Buffer.concat([lying(symbolRequest(x), (n) => n + 40), RawClient.frameBytes(symbolRequest(y))])));
    await frameCase('Content-Length too long by more than the next frame', (x, y) => c.raw(Buffer.concat([lying(symbolRequest(x), (n) => n + 5000), RawClient.frameBytes(symbolRequest(y))])));
    await frameCase('Content-Length too long, next frame 300 ms later', async (x, y) => {
      c.raw(lying(symbolRequest(x), (n) => n + 40));
      await new Promise((r) => setTimeout(r, 300));
      c.frame(symbolRequest(y));
    });
    await frameCase('Content-Length too short, next frame 300 ms later', async (x, y) => {
      c.raw(lying(symbolRequest(x), (n) => n - 20));
      await new Promise((r) => setTimeout(r, 300));
      c.frame(symbolRequest(y));
    });
    await frameCase('Content-Length too long, nothing after it for 1.5 s', async (x, y) => {
      c.raw(lying(symbolRequest(x), (n) => n + 40));
      const answered = await c.waitFor((m) => m.id === x, 1500).catch(() => undefined);
      if (!answered) problems.push('Content-Length too long, nothing after it: the request was not answered within 1.5 s');
      c.frame(symbolRequest(y));
    });
    await frameCase('Content-Length counted in UTF-16 units (body with emoji and CJK)', (x, y) => {
      const body = { jsonrpc: '2.0', id: x, method: 'workspace/symbol', params: { query: 'beta 😀 漢字 ' } };
      const text = JSON.stringify(body);
      c.raw(Buffer.concat([Buffer.from(`Content-Length: ${text.length}\r\n\r\n`), Buffer.from(text), RawClient.frameBytes(symbolRequest(y))]));
    });
    await frameCase('Content-Length of 10^12 bytes (over the frame limit)', (x, y) => c.raw(Buffer.concat([lying(symbolRequest(x), () => 1e12), RawClient.frameBytes(symbolRequest(y))])), false);
    await frameCase('Content-Length of 600 MB (over the frame limit), next frame 200 ms later', async (x, y) => {
      c.raw(lying(symbolRequest(x), () => 600 * 1024 * 1024));
      await new Promise((r) => setTimeout(r, 200));
      c.frame(symbolRequest(y));
    }, false);
    await frameCase('garbage line before the next header', (_x, y) => c.raw(Buffer.concat([Buffer.from('garbage without a colon\r\n\r\n{}'), RawClient.frameBytes(symbolRequest(y))])), false);
    await frameCase('$/cancelRequest with params null, then a request', (_x, y) => {
      c.raw(Buffer.concat([RawClient.frameBytes({ jsonrpc: '2.0', method: '$/cancelRequest', params: null }), RawClient.frameBytes(symbolRequest(y))]));
      c.frame({ jsonrpc: '2.0', id: _x, method: 'editls/unknownMethod', params: {} });
    });

    // duplicate ids: the second request with a pending id is refused; both get exactly one answer
    cases++;
    {
      const id = c.id();
      c.raw(Buffer.concat([RawClient.frameBytes(searchRequest(id)), RawClient.frameBytes(symbolRequest(id))]));
      const replies = await c.repliesTo(id, 1500);
      const results = replies.filter((r) => r.result !== undefined);
      const dupErrors = replies.filter((r) => r.error && /duplicate request id/.test(r.error.message) && clearError(r));
      if (!(replies.length === 2 && results.length === 1 && results[0].result.count === 1 && dupErrors.length === 1)) problems.push(`duplicate id: ${JSON.stringify(replies).slice(0, 300)}`);
      // once answered, the id may be used again
      c.frame(symbolRequest(id));
      const again = await c.repliesTo(id, 500);
      if (again.length !== 3 || !Array.isArray(again[2].result)) problems.push(`id reused after its answer: ${JSON.stringify(again).slice(0, 300)}`);
    }
    // ids and methods of the wrong type: -32600, with the id when there is one
    for (const [name, message, expectedId] of [
      ['id null', { jsonrpc: '2.0', id: null, method: 'workspace/symbol', params: { query: 'beta' } }, null],
      ['id an object', { jsonrpc: '2.0', id: { n: 1 }, method: 'workspace/symbol', params: { query: 'beta' } }, null],
      ['id a boolean', { jsonrpc: '2.0', id: true, method: 'workspace/symbol', params: { query: 'beta' } }, null],
      ['method a number', { jsonrpc: '2.0', id: 'm1', method: 5, params: {} }, 'm1'],
      ['no method, no result', { jsonrpc: '2.0', id: 'm2', params: {} }, 'm2'],
    ] as [string, object, unknown][]) {
      cases++;
      const from = c.messages.length;
      c.frame(message);
      const r = await c.waitFor((m) => m.method === undefined && m.id === expectedId && m.error, 2000, from).catch(() => undefined);
      if (!(r?.error?.code === -32600 && clearError(r))) problems.push(`${name}: ${JSON.stringify(r ?? 'no answer').slice(0, 200)}`);
    }
    const health = await healthy(c);
    if (health) problems.push(`afterwards: ${health}`);
    const crashes = c.stderr.match(/uncaught exception[^\n]*/g) ?? [];
    const identical = unchanged(ws, FILES);
    tally('frames and ids', cases, problems, { uncaughtExceptions: crashes.length, filesByteIdentical: identical ? 'yes' : 'no' });
    expect(problems).toEqual([]);
    expect(crashes).toEqual([]);
    expect(identical).toBe(true);
  }, 240_000);

  it('random broken frames, each followed by a valid request: every request is answered', async () => {
    const rounds = size(1000, 60);
    let seed = 0x5eed1 + rounds;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const KINDS = ['short', 'long', 'over limit', 'garbage', 'bad notification', 'duplicate id', 'odd id'] as const;
    const QUERIES = ['beta', 'be', 'Content-Length: 12\r\n\r\n', '😀 漢字', '"}{'];
    let validAnswered = 0;
    let brokenRequests = 0;
    let brokenAnswered = 0;
    let maxMs = 0;
    const problems: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const kind = KINDS[rand(KINDS.length)]!;
      const x = c.id();
      const y = c.id();
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: x, method: 'workspace/symbol', params: { query: QUERIES[rand(QUERIES.length)] } }));
      const header = (n: number) => Buffer.from(`Content-Length: ${n}\r\n\r\n`);
      let broken: Buffer;
      let answersX = true;
      if (kind === 'short') broken = Buffer.concat([header(Math.max(0, body.length - 1 - rand(body.length))), body]);
      else if (kind === 'long') broken = Buffer.concat([header(body.length + 1 + rand(3000)), body]);
      else if (kind === 'over limit') (broken = Buffer.concat([header(600 * 1024 * 1024 + rand(1000)), body])), (answersX = false);
      else if (kind === 'garbage') (broken = Buffer.from(['{}', 'garbage\r\n\r\n', 'Content-Length: x\r\n\r\n{}', '\u0000\u0001'][rand(4)]!)), (answersX = false);
      else if (kind === 'bad notification') (broken = RawClient.frameBytes({ jsonrpc: '2.0', method: ['textDocument/didOpen', '$/cancelRequest', 'textDocument/didChange'][rand(3)], params: [null, 5, { textDocument: 1 }][rand(3)] })), (answersX = false);
      else if (kind === 'duplicate id') broken = Buffer.concat([RawClient.frameBytes({ jsonrpc: '2.0', id: x, method: 'workspace/symbol', params: { query: 'beta' } }), RawClient.frameBytes({ jsonrpc: '2.0', id: x, method: 'workspace/symbol', params: { query: 'alpha' } })]);
      else broken = RawClient.frameBytes({ jsonrpc: '2.0', id: x, method: 7 });
      const all = Buffer.concat([broken, RawClient.frameBytes({ jsonrpc: '2.0', id: y, method: 'workspace/symbol', params: { query: 'beta' } })]);
      // written in up to three pieces, cut anywhere
      const cutA = rand(all.length);
      const cutB = cutA + rand(all.length - cutA);
      const from = c.messages.length;
      const t0 = Date.now();
      for (const piece of [all.subarray(0, cutA), all.subarray(cutA, cutB), all.subarray(cutB)]) {
        if (piece.length > 0) c.raw(piece);
        await new Promise((r) => setImmediate(r));
      }
      const answer = await c.waitFor((m) => m.id === y && m.method === undefined, 3000, from).catch(() => undefined);
      if (Array.isArray(answer?.result)) validAnswered++;
      else problems.push(`round ${i} (${kind}): valid request got ${JSON.stringify(answer ?? 'no answer').slice(0, 150)}`);
      if (kind === 'duplicate id') {
        // Two requests, two answers: the second is refused if the first was still pending when it came
        // (the random cut may deliver them apart, and then the id is free again and both get results).
        brokenRequests++;
        const end = Date.now() + 3000;
        const replies = () => c.messages.slice(from).filter((m) => m.id === x && m.method === undefined);
        while (replies().length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
        const got = replies();
        if (got.length === 2 && got.every((m) => Array.isArray(m.result) || (clearError(m) && /duplicate request id/.test(m.error.message)))) brokenAnswered++;
        else problems.push(`round ${i} (${kind}): ${JSON.stringify(got).slice(0, 200)}`);
      } else if (answersX) {
        brokenRequests++;
        const own = await c.waitFor((m) => m.id === x && m.method === undefined && m.error, 3000, from).catch(() => undefined);
        if (clearError(own)) brokenAnswered++;
        else problems.push(`round ${i} (${kind}): broken request not answered`);
      }
      maxMs = Math.max(maxMs, Date.now() - t0);
    }
    const health = await healthy(c);
    if (health) problems.push(`afterwards: ${health}`);
    const identical = unchanged(ws, FILES);
    report('protocol attacks: random broken frames', { rounds, validRequestsAnswered: `${validAnswered}/${rounds}`, brokenOrDuplicateRequestsAnswered: `${brokenAnswered}/${brokenRequests}`, maxRoundMs: maxMs, filesByteIdentical: identical ? 'yes' : 'no' });
    expect(problems.slice(0, 10)).toEqual([]);
    expect(identical).toBe(true);
  }, 600_000);
});
