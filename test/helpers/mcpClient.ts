// An MCP client (the SDK's Client over StdioClientTransport) driving the real `node dist/editls.js mcp`,
// with a private XDG_RUNTIME_DIR per test so records never come from or go to the user's real folder.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_JS } from './lspClient.js';

export interface ToolReply {
  text: string;
  isError: boolean;
  structured: any;
}

export interface McpAgent {
  client: Client;
  /** The `editls mcp` process. */
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<ToolReply>;
  stderr(): string;
  close(): Promise<void>;
}

/** A private runtime folder (the parent of editls/) for one test; removed by the returned cleanup. */
export function privateRuntimeDir(): { xdg: string; dir: string; cleanup: () => void } {
  const xdg = mkdtempSync(path.join(os.tmpdir(), 'editls-xdg-'));
  return { xdg, dir: path.join(xdg, 'editls'), cleanup: () => rmSync(xdg, { recursive: true, force: true }) };
}

/** `xdg: null`: the agent starts without XDG_RUNTIME_DIR (as Codex starts MCP servers). */
export async function startMcp(options: { root?: string; cwd?: string; xdg: string | null; name?: string }): Promise<McpAgent> {
  let stderr = '';
  const env = { ...(process.env as Record<string, string>) };
  if (options.xdg === null) delete env.XDG_RUNTIME_DIR;
  else env.XDG_RUNTIME_DIR = options.xdg;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS, 'mcp', ...(options.root ? ['--root', options.root] : [])],
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: options.name ?? 'test-agent', version: '1.0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    call: async (name, args) => {
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 })) as { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };
      return { text: r.content.map((c) => c.text).join('\n'), isError: r.isError === true, structured: r.structuredContent };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
