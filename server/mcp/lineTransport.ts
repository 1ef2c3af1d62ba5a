// editls mcp's stdio transport: newline-delimited JSON-RPC, as the MCP SDK's own, but a message too
// large for the stdio limit never ends the session. The SDK's reader closes the transport when its
// buffer passes 10 MiB (editls mcp then exited with code 0 and nothing on stderr); here an oversized
// line is skipped as it streams in, its request answered with an error under its own id, and the
// next line read as usual. Outgoing lines are bounded the same way (results.ts keeps them far below).
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The MCP SDK's stdio line limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): clients cannot read a longer line, nor is a longer one read here. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** Bytes kept of an oversized line's start and of its end, to find its id (the SDK writes it last). */
const KEEP_BYTES = 4096;

interface Skipped {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

function lastBytes(b: Buffer): Buffer {
  return b.length <= KEEP_BYTES ? b : Buffer.from(b.subarray(b.length - KEEP_BYTES));
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** The line being skipped (over MAX_LINE_BYTES): its first and last bytes, and its length so far. */
  private skipping: Skipped | undefined;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: (message: string) => void,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0) {
      const nl = data.indexOf(0x0a);
      const piece = nl === -1 ? data : data.subarray(0, nl);
      if (this.skipping) {
        this.skipping.bytes += piece.length;
        this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece.subarray(-KEEP_BYTES)]));
      } else if (this.size + piece.length > this.maxLineBytes) {
        const whole = Buffer.concat([...this.parts, piece]);
        this.skipping = { head: Buffer.from(whole.subarray(0, KEEP_BYTES)), tail: lastBytes(whole), bytes: whole.length };
        this.parts = [];
        this.size = 0;
      } else {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      data = data.subarray(nl + 1);
      if (this.skipping) this.refuse(this.skipping);
      else this.deliver(Buffer.concat(this.parts, this.size));
      this.skipping = undefined;
      this.parts = [];
      this.size = 0;
    }
  };

  private deliver(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (error) {
      this.log(`editls mcp: ignored a line that is not a JSON-RPC message (${(error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200)})`);
      void this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: each line must be one JSON-RPC message' } } as unknown as JSONRPCMessage);
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * An oversized line: a request gets an error under its id, anything else is logged. The id is the
   * top-level object's last member (`…,"id":5}`, as the SDK writes requests) or one of its first.
   */
  private refuse(line: Skipped): void {
    const head = line.head.toString('utf8');
    const tail = line.tail.toString('utf8').replace(/\s+$/, '');
    const id =
      /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})\s*\}$/.exec(tail)?.[1] ??
      /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})/.exec(head)?.[1];
    const mb = (line.bytes / (1024 * 1024)).toFixed(1);
    const limit = `${this.maxLineBytes / (1024 * 1024)} MiB`;
    this.log(`editls mcp: refused a message of ${mb} MiB (over the ${limit} a stdio line may take)`);
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id: JSON.parse(id) as string | number,
      error: { code: -32600, message: `the request is ${mb} MiB, over the ${limit} an MCP stdio message may take; send less at once (edit in smaller steps, or write a large new file in parts)` },
    } as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    let line = `${JSON.stringify(message)}\n`;
    if (Buffer.byteLength(line) > this.maxLineBytes && 'id' in message && message.id !== undefined) {
      // Never sent: the client would drop the connection. results.ts keeps replies far below this.
      line = `${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `editls's answer was over the ${this.maxLineBytes / (1024 * 1024)} MiB an MCP stdio message may take; ask for less` } })}\n`;
    }
    return new Promise((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.parts = [];
    this.onclose?.();
  }
}
