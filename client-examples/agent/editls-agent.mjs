#!/usr/bin/env node
// editls-agent: drive editls without an editor. Starts `editls --stdio` on a folder, sends the
// requests it reads (one JSON object per line, from a file or stdin) and prints each result.
// No dependencies beyond Node >= 20; speaks LSP's Content-Length framing itself.
//
// Usage:
//   node editls-agent.mjs --root DIR [--server PATH] [--json] [--verbose] [--init JSON] [FILE | -]
//   node editls-agent.mjs --root DIR -e '{"command":"editls.edit","arguments":{...}}'
//
// Input lines (blank lines are skipped; lines starting with # are narration, printed as is):
//   {"command": "editls.edit", "arguments": {"file_path": "a.ts", "old_string": "x", "new_string": "y"}}
//   {"method": "workspace/symbol", "params": {"query": "greet"}}
// Optional fields on a line: "title" (a heading), "expect" (an error kind this step should fail
// with, e.g. "stale": then the failure counts as success). Any string value "$last.FIELD" is
// replaced by that field of the previous result (e.g. "$last.previewId").
//
// Output: human-readable (diff, then the one-line summary) or, with --json, one JSON object per
// input line: {"ok": true, "result": ...} or {"ok": false, "error": {"code", "message", "data"}}.
// Exit status: 0 when every step did what it expected, 1 otherwise, 2 on a usage or start-up error.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BUNDLE = path.resolve(HERE, '../../dist/editls.js');

function usage(message) {
  if (message) process.stderr.write(`editls-agent: ${message}\n`);
  process.stderr.write('usage: editls-agent.mjs --root DIR [--server PATH] [--json] [--verbose] [--init JSON] [FILE | - | -e LINE ...]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { root: process.cwd(), server: existsSync(BUNDLE) ? BUNDLE : 'editls', json: false, verbose: false, init: {}, input: '-', lines: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--root') opts.root = value();
    else if (a === '--server') opts.server = value();
    else if (a === '--json') opts.json = true;
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--init') {
      try {
        opts.init = JSON.parse(value());
      } catch (e) {
        usage(`--init is not JSON: ${e.message}`);
      }
    } else if (a === '-e') opts.lines.push(value());
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-') && a !== '-') usage(`unknown option ${a}`);
    else opts.input = a;
  }
  if (!existsSync(opts.root)) usage(`--root ${opts.root} does not exist`);
  opts.root = realpathSync(opts.root);
  return opts;
}

/** A minimal JSON-RPC peer over a child's stdio with LSP framing. */
class Peer {
  constructor(child, onRequest, onNotification) {
    this.child = child;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.onRequest = onRequest;
    this.onNotification = onNotification;
    child.stdout.on('data', (chunk) => this.receive(chunk));
    child.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`editls exited (code ${code})`));
      this.pending.clear();
    });
  }

  send(message) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ id, method, params });
    });
  }

  notify(method, params) {
    this.send({ method, params });
  }

  receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1]);
      if (!Number.isFinite(length)) throw new Error(`bad header from editls: ${header}`);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(JSON.parse(body));
    }
  }

  async dispatch(msg) {
    if (msg.id !== undefined && msg.id !== null && msg.method === undefined) {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(Object.assign(new Error(msg.error.message), { rpc: msg.error }));
      else waiter.resolve(msg.result);
    } else if (msg.method !== undefined && msg.id !== undefined) {
      let result = null;
      try {
        result = await this.onRequest(msg.method, msg.params);
      } catch (e) {
        this.send({ id: msg.id, error: { code: -32603, message: e.message } });
        return;
      }
      this.send({ id: msg.id, result });
    } else if (msg.method !== undefined) {
      this.onNotification(msg.method, msg.params);
    }
  }
}

function substitute(value, last) {
  if (typeof value === 'string' && value.startsWith('$last.')) {
    let v = last;
    for (const key of value.slice('$last.'.length).split('.')) v = v == null ? undefined : v[key];
    if (v === undefined) throw new Error(`${value}: the previous result has no such field`);
    return v;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, last));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, last)]));
  return value;
}

const SYMBOL_KINDS = { 2: 'module', 5: 'class', 6: 'method', 10: 'enum', 11: 'interface', 12: 'function', 13: 'variable', 14: 'constant', 23: 'struct', 26: 'type' };

/** Human rendering of one step's outcome. */
function show(step, outcome, root) {
  const out = [];
  if (!outcome.ok) {
    const e = outcome.error;
    const kind = e.data?.kind ?? 'error';
    if (step.expect && step.expect === kind) out.push(`✓ refused as expected (${kind}): ${e.message}`);
    else out.push(`✗ ${kind} (${e.code}): ${e.message}`);
    if (typeof e.data?.actual === 'string') out.push(`  the text there is actually: ${JSON.stringify(e.data.actual.length > 200 ? e.data.actual.slice(0, 200) + '…' : e.data.actual)}`);
    return out.join('\n');
  }
  const r = outcome.result;
  if (step.method === 'workspace/symbol') {
    const list = Array.isArray(r) ? r : [];
    out.push(`${list.length} symbol${list.length === 1 ? '' : 's'}`);
    for (const s of list.slice(0, 20)) {
      const file = s.location?.uri?.startsWith('file:') ? path.relative(root, fileURLToPath(s.location.uri)) : s.location?.uri;
      const line = (s.location?.range?.start?.line ?? 0) + 1;
      out.push(`  ${s.name}  (${SYMBOL_KINDS[s.kind] ?? `kind ${s.kind}`})  ${file}:${line}${s.containerName ? `  in ${s.containerName}` : ''}`);
    }
    return out.join('\n');
  }
  if (r && typeof r === 'object') {
    if (typeof r.unifiedDiff === 'string' && r.unifiedDiff !== '') out.push(r.unifiedDiff.replace(/\n$/, ''));
    if (typeof r.text === 'string') out.push(r.text.replace(/\n$/, ''));
    if (Array.isArray(r.failedReplacements)) for (const f of r.failedReplacements) out.push(`  replacement ${f.index} failed (${f.kind}): ${f.message}`);
    if (r.matchedBy) out.push(`  matched by: ${r.matchedBy}`);
    if (r.previewId) out.push(`  previewId: ${r.previewId}`);
    if (Array.isArray(r.notes)) for (const n of r.notes) out.push(`  note: ${n}`);
    if (r.message) out.push(`${step.expect ? '✗ expected a failure, got' : '✓'} ${r.message}`);
    else if (!r.unifiedDiff && typeof r.text !== 'string') out.push(JSON.stringify(r, null, 2));
    return out.join('\n');
  }
  return JSON.stringify(r);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cmd = opts.server.endsWith('.js') ? [process.execPath, opts.server] : [opts.server];
  const child = spawn(cmd[0], [...cmd.slice(1), '--stdio'], { stdio: ['pipe', 'pipe', opts.verbose ? 'inherit' : 'ignore'] });
  child.on('error', (e) => {
    process.stderr.write(`editls-agent: cannot start ${cmd.join(' ')}: ${e.message}\n`);
    process.exit(2);
  });
  const print = (s) => process.stdout.write(s + '\n');
  const peer = new Peer(
    child,
    async (method, params) => {
      switch (method) {
        case 'workspace/configuration':
          return (params?.items ?? []).map(() => null);
        case 'workspace/applyEdit':
          // No editor, no buffers: editls writes files that are not open straight to disk.
          return { applied: false, failureReason: 'editls-agent has no editor; use apply "auto" or "disk"' };
        default:
          return null; // client/registerCapability, window/workDoneProgress/create, showMessageRequest
      }
    },
    (method, params) => {
      if (!opts.verbose) return;
      if (method === 'window/logMessage' || method === 'window/showMessage') process.stderr.write(`[editls] ${params.message}\n`);
    },
  );

  const rootUri = pathToFileURL(opts.root).href;
  const init = await peer.request('initialize', {
    processId: process.pid,
    clientInfo: { name: 'editls-agent', version: '1' },
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(opts.root) }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create'] }, symbol: {}, executeCommand: {} },
      window: { workDoneProgress: false },
    },
    initializationOptions: opts.init,
  });
  peer.notify('initialized', {});
  const served = new Set(init?.capabilities?.executeCommandProvider?.commands ?? []);

  const input =
    opts.lines.length > 0
      ? opts.lines
      : createInterface({ input: opts.input === '-' ? process.stdin : createReadStream(opts.input), crlfDelay: Infinity });
  let last;
  let failures = 0;
  let n = 0;
  let narrating = false;
  for await (const raw of input) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      // Consecutive comment lines form one paragraph of narration.
      if (!opts.json) print(`${narrating ? '' : '\n'}${line.replace(/^#\s?/, '')}`);
      narrating = true;
      continue;
    }
    narrating = false;
    let step;
    try {
      step = substitute(JSON.parse(line), last);
    } catch (e) {
      failures++;
      if (opts.json) print(JSON.stringify({ ok: false, error: { code: -32700, message: `bad input line: ${e.message}` } }));
      else print(`✗ bad input line (${e.message}): ${line}`);
      continue;
    }
    n++;
    const method = step.method ?? 'workspace/executeCommand';
    const params =
      step.method !== undefined
        ? (step.params ?? {})
        : { command: step.command, arguments: Array.isArray(step.arguments) ? step.arguments : [step.arguments ?? {}] };
    if (!opts.json) {
      const what = step.command ?? method;
      print(`\n━━ ${n}. ${step.title ? `${step.title} — ` : ''}${what}${served.size > 0 && step.command && !served.has(step.command) ? ' (not served by this editls)' : ''}`);
      print(`   ${JSON.stringify(step.method !== undefined ? params : params.arguments[0])}`);
    }
    let outcome;
    try {
      outcome = { ok: true, result: await peer.request(method, params) };
    } catch (e) {
      outcome = { ok: false, error: e.rpc ?? { code: -32603, message: e.message } };
    }
    const expected = step.expect === undefined ? outcome.ok : !outcome.ok && outcome.error.data?.kind === step.expect;
    if (!expected) failures++;
    if (outcome.ok) last = outcome.result;
    if (opts.json) print(JSON.stringify(outcome));
    else print(show(step, outcome, opts.root));
  }

  try {
    await peer.request('shutdown');
    peer.notify('exit');
  } catch {
    /* already gone */
  }
  child.stdin.end();
  if (!opts.json) print(`\n${n} step${n === 1 ? '' : 's'}, ${failures === 0 ? 'all as expected' : `${failures} not as expected`}`);
  process.exitCode = failures === 0 ? 0 : 1;
}

main().catch((e) => {
  process.stderr.write(`editls-agent: ${e.stack ?? e.message}\n`);
  process.exit(2);
});
