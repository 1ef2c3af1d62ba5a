// `editls mcp`: a stdio MCP server whose tools (tools.ts) run inside the editor's editls when one is
// attached for this folder, else in a headless editls session (sessions.ts). The low-level SDK
// Server is used so that editls's own command schemas validate the arguments: a bad argument is an
// `invalid_args: …` tool result, as every other failure, never a protocol error.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { realpathSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { LineTransport } from './lineTransport.js';
import { toToolResult, type ToolResult } from './results.js';
import { clientHabits, closestKey, HARNESS_KEYS } from './clientHabits.js';
import { invalidArgs } from '../protocol/errors.js';
import { Sessions, type SessionOptions } from './sessions.js';
import { findTool, TOOLS } from './tools.js';

export interface McpOptions extends Omit<SessionOptions, 'clientInfo' | 'root'> {
  /** `--root`, else the working directory. */
  root: string;
  version: string;
  stdin: Readable;
  stdout: Writable;
  /** Where start-up problems and the chosen folder are reported (stderr). */
  log: (message: string) => void;
}

export async function runMcpServer(options: McpOptions): Promise<{ closed: Promise<void> }> {
  const root = realpathSync(options.root);
  const server = new Server(
    { name: 'editls', version: options.version },
    {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      // Only used for elicitation, which editls never does; the bundle leaves the SDK's ajv out (esbuild.mjs).
      jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) },
    },
  );
  let sessions: Sessions | undefined;
  const habits = () => clientHabits(server.getClientVersion()?.name);
  const sessionsFor = () => {
    const info = server.getClientVersion();
    sessions ??= new Sessions({ ...options, root, clientInfo: { name: info?.name ?? 'MCP client', ...(info?.version ? { version: info.version } : {}) } });
    return sessions;
  };
  const listed = TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const tool = findTool(request.params.name);
    if (!tool) return { content: [{ type: 'text', text: `invalid_args: unknown tool "${request.params.name}"; editls serves ${TOOLS.map((t) => t.name).join(', ')}` }], isError: true };
    const given = { ...(request.params.arguments ?? {}) };
    for (const key of HARNESS_KEYS) delete given[key];
    const unknown = Object.keys(given).filter((k) => !tool.params.includes(k));
    if (unknown.length > 0) {
      const hints = unknown.map((k) => {
        const near = closestKey(k, tool.params);
        return near ? `"${k}" (did you mean "${near}"?)` : `"${k}"`;
      });
      return toToolResult(tool.render, { reply: invalidArgs(`${tool.name} takes no argument ${hints.join(', ')}; it takes ${tool.params.join(', ')}`), session: sessions?.info() ?? { mode: 'headless', label: `headless on ${root}` }, notes: [] }, root, habits());
    }
    const args = { ...(tool.defaults ?? {}), ...given };
    try {
      const outcome =
        typeof tool.command === 'string'
          ? await sessionsFor().call('workspace/executeCommand', { command: tool.command, arguments: [args] }, extra.signal)
          : await sessionsFor().call(tool.command.method, { query: typeof args.query === 'string' ? args.query : '' }, extra.signal);
      return toToolResult(tool.render, outcome, root, habits());
    } catch (error) {
      return { content: [{ type: 'text', text: `io_error: ${tool.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}` }], isError: true };
    }
  });
  const transport = new LineTransport(options.stdin, options.stdout, options.log);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => {
      sessions?.dispose();
      resolve();
    };
  });
  await server.connect(transport);
  options.log(`editls mcp: serving ${root}`);
  return { closed };
}

const INSTRUCTIONS =
  'editls edits files inside the user\'s editor: when the user\'s editor runs editls on this folder, edits go into its open buffers ' +
  '(unsaved, undoable there) and read_file sees unsaved text. Prefer these tools over writing files directly. ' +
  'Failures start with a kind (not_found, ambiguous, stale, …) and change nothing.';
