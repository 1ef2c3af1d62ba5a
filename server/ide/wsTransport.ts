// An MCP transport over one accepted WebSocket (the `ws` library): one JSON-RPC message per text
// frame, as Claude Code's IDE integration speaks it. A frame that is not a JSON-RPC message is
// answered with a parse error (when it has an id) and otherwise skipped; the session goes on.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { WebSocket } from 'ws';

export class WebSocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;

  constructor(private readonly socket: WebSocket) {}

  async start(): Promise<void> {
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(data));
      } catch {
        this.sendRaw({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
        return;
      }
      const message = JSONRPCMessageSchema.safeParse(parsed);
      if (!message.success) {
        const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
        if (typeof id === 'string' || typeof id === 'number') this.sendRaw({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });
        return;
      }
      this.onmessage?.(message.data);
    });
    this.socket.on('close', () => this.end());
    this.socket.on('error', (error) => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sendRaw(message);
  }

  async close(): Promise<void> {
    this.socket.close();
    this.end();
  }

  private sendRaw(message: unknown): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(message));
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
