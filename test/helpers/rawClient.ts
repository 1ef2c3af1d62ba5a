// A raw LSP client for protocol attacks: writes frames byte for byte (wrong lengths, bad headers,
// any JSON) to the real dist/editls.js and collects every message the server sends, with helpers
// to wait for a reply by id and to measure when the process exits.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { SERVER_JS } from './lspClient.js';

export class RawClient {
  readonly messages: any[] = [];
  stderr = '';
  exited = false;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  exitedAt = 0;
  private buf = Buffer.alloc(0);
  private nextId = 1000;

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
    proc.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    proc.stdin.on('error', () => undefined); // writing to a server that already exited
    proc.on('exit', (code, signal) => {
      this.exited = true;
      this.exitCode = code;
      this.exitSignal = signal;
      this.exitedAt = Date.now();
    });
  }

  /** Starts dist/editls.js (extra node flags first, e.g. `--import` of a preload; extra environment variables). */
  static start(nodeArgs: string[] = [], env: Record<string, string> = {}): RawClient {
    return new RawClient(spawn(process.execPath, [...nodeArgs, SERVER_JS, '--stdio'], { stdio: 'pipe', env: { ...process.env, ...env } }));
  }

  raw(bytes: string | Buffer): void {
    this.proc.stdin.write(bytes);
  }

  /** The bytes of one well-formed frame. */
  static frameBytes(body: string | object): Buffer {
    const b = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
  }

  frame(body: string | object): void {
    this.raw(RawClient.frameBytes(body));
  }

  async waitFor(pred: (m: any) => boolean, ms = 5000, from = 0): Promise<any> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const found = this.messages.slice(from).find(pred);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no matching message');
  }

  /** All replies with this id that arrived within `ms`. */
  async repliesTo(id: unknown, ms: number): Promise<any[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.messages.filter((m) => m.id === id && m.method === undefined);
  }

  id(): number {
    return this.nextId++;
  }

  async request(method: string, params: unknown, ms = 5000): Promise<any> {
    const id = this.nextId++;
    this.frame({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && m.method === undefined, ms);
  }

  notify(method: string, params?: unknown): void {
    this.frame(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  async initialize(root: string, extra: object = {}): Promise<any> {
    const reply = await this.request('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, ...extra });
    this.notify('initialized', {});
    return reply;
  }

  async waitForExit(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!this.exited && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    return this.exited;
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}
