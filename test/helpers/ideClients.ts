// The agent side of editls's IDE servers, for the stdio tests: an MCP client (the SDK's) connected
// as Claude Code connects (WebSocket, subprotocol `mcp`, the token header from the lock file) or as
// Gemini CLI does (Streamable HTTP at /mcp with the Bearer token from the discovery file), keeping
// every notification the server sends.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import WebSocket from 'ws';
import { waitFor } from './waitFor.js';

export interface IdeClient {
  client: Client;
  /** Notifications from the server (method and params), in order. */
  notifications: { method: string; params: any }[];
  /** The text blocks of a tool call's result, and whether it is an error. */
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<{ texts: string[]; isError: boolean }>;
  close(): Promise<void>;
}

/** The one file in `dir` whose name matches, once it is there. */
export async function discoveryFile(dir: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await waitFor(() => {
    if (!existsSync(dir)) return false;
    found = readdirSync(dir).find((n) => pattern.test(n));
    return found !== undefined;
  });
  if (!found) throw new Error(`no file matching ${pattern} in ${dir}`);
  return path.join(dir, found);
}

class WsClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(private readonly socket: WebSocket) {}
  async start(): Promise<void> {
    this.socket.on('message', (data) => this.onmessage?.(JSON.parse(String(data)) as JSONRPCMessage));
    this.socket.on('close', () => this.onclose?.());
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.socket.send(JSON.stringify(message));
  }
  async close(): Promise<void> {
    this.socket.close();
  }
}

/** Opens the WebSocket as Claude Code does; resolves with the socket or rejects with the HTTP status of a refused upgrade. */
export function openClaudeSocket(port: number, headers: Record<string, string>, protocols: string[] = ['mcp']): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, protocols, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

export async function connectClaude(lockFile: string): Promise<IdeClient> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { authToken: string };
  const port = Number(path.basename(lockFile, '.lock'));
  const socket = await openClaudeSocket(port, { 'x-claude-code-ide-authorization': lock.authToken });
  return wrap(new Client({ name: 'claude-code', version: '2.1.332' }), new WsClientTransport(socket));
}

export async function connectGemini(file: string): Promise<IdeClient> {
  const info = JSON.parse(readFileSync(file, 'utf8')) as { port: number; authToken: string };
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${info.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${info.authToken}` } } });
  return wrap(new Client({ name: 'streamable-http-client', version: '0.61.0' }), transport);
}

async function wrap(client: Client, transport: Transport): Promise<IdeClient> {
  const notifications: { method: string; params: any }[] = [];
  client.fallbackNotificationHandler = async (n) => void notifications.push({ method: n.method, params: n.params });
  for (const method of ['selection_changed', 'at_mentioned', 'ide/contextUpdate', 'ide/diffAccepted', 'ide/diffRejected']) {
    client.setNotificationHandler(z.object({ method: z.literal(method), params: z.any() }) as never, (n: { method: string; params: unknown }) => void notifications.push({ method: n.method, params: n.params }));
  }
  await client.connect(transport);
  return {
    client,
    notifications,
    call: async (name, args, options) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000, ...(options?.signal ? { signal: options.signal } : {}) })) as { content: { type: string; text: string }[]; isError?: boolean };
      return { texts: result.content.map((c) => c.text), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
