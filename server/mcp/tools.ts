// The MCP tools, derived from the command descriptors (commands/registry.ts): each command with a
// tool facet is a tool whose input schema is the JSON Schema of the arguments it offers (the
// descriptions a model reads are the commands' own), whose annotations follow the command's effect,
// and whose output schema is that of its rendering (results.ts). One tool is not a command:
// workspace_symbols, which is LSP's workspace/symbol. The agent's arguments go to the command
// unchanged, so the command's own schema validates them (`invalid_args`).
import { z } from 'zod';
import { COMMANDS } from '../commands/index.js';
import type { SchemaMeta } from '../commands/args.js';
import type { Command, Rendering } from '../commands/registry.js';
import { LANGUAGE_NAMES } from '../core/symbols/languages.js';

type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  /** The arguments the tool takes. */
  params: readonly string[];
  /** The editls command the arguments go to (workspace/executeCommand), or workspace/symbol. */
  command: string | { method: 'workspace/symbol' };
  /** Arguments added when the agent leaves them out. */
  defaults?: Readonly<Record<string, unknown>>;
  render: Rendering | 'symbols';
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

/** A field's JSON Schema: its `SchemaMeta` when it has one (a boolean for boolish, an integer with its least value for intish). */
const override = (ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) => {
  const meta = z.globalRegistry.get(ctx.zodSchema as z.ZodType) as Partial<SchemaMeta> | undefined;
  if (!meta?.json) return;
  for (const key of Object.keys(ctx.jsonSchema)) if (key !== 'description') delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, meta.json);
};

function inputSchema(command: Command, params: readonly string[], required: readonly string[] = []): ToolSpec['inputSchema'] {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const offered: Record<string, z.ZodType> = {};
  for (const key of params) {
    const field = shape[key];
    if (!field) throw new Error(`${command.id} has no argument ${key} for its tool`);
    offered[key] = field;
  }
  const schema = z.toJSONSchema(z.object(offered), { io: 'input', override }) as ToolSpec['inputSchema'];
  if (required.length > 0) schema.required = [...new Set([...((schema.required as string[] | undefined) ?? []), ...required])];
  return schema;
}

const SESSION = {
  type: 'object',
  description: 'Where the call ran: mode "attached" (in the editor\'s editls) or "headless", the editor and its pid.',
  properties: { mode: { enum: ['attached', 'headless'] }, editor: { type: 'string' }, pid: { type: 'integer' } },
};
/** What every rendering's structuredContent has: the text the model reads first, then fields; a failure sent as text has success false and its kind. */
const COMMON = {
  text: { type: 'string', description: 'What the model reads: the same text as the content.' },
  success: { type: 'boolean' },
  kind: { type: 'string', description: 'A failure\'s kind (not_found, stale, …).' },
  message: { type: 'string' },
  session: SESSION,
  omitted: { type: 'array', items: { type: 'string' }, description: 'Fields left out to keep the result small.' },
};
const object = (properties: Record<string, unknown>): ToolSpec['outputSchema'] => ({ type: 'object', properties: { ...COMMON, ...properties }, required: ['text'] });

const OUTPUT: Record<ToolSpec['render'], ToolSpec['outputSchema']> = {
  edit: object({
    status: { enum: ['applied', 'preview'] },
    applied: { type: 'boolean' },
    filesChanged: { type: 'integer' },
    replacements: { type: 'integer' },
    files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, replacements: { type: 'integer' }, created: { type: 'boolean' }, via: { enum: ['editor', 'disk', null] } } } },
    previewId: { type: 'string' },
    diffTruncated: { type: 'boolean' },
    diffsOmitted: { type: 'integer', description: "Files whose diff was left out: a result's diffs share about 200,000 characters." },
  }),
  read: object({
    path: { type: 'string' },
    startLine: { type: 'integer' },
    endLine: { type: 'integer' },
    totalLines: { type: 'integer' },
    more: { type: 'boolean' },
    nextOffset: { type: 'integer', description: 'The offset that reads on.' },
  }),
  search: object({ count: { type: 'integer', description: 'Matching lines returned.' }, truncated: { type: 'boolean' } }),
  symbols: object({
    count: { type: 'integer' },
    symbols: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, kind: { type: 'string' }, path: { type: 'string' }, line: { type: 'integer' }, column: { type: 'integer' }, container: { type: 'string' } } },
    },
  }),
};

function toolOf(command: Command): ToolSpec {
  const facet = command.tool!;
  const changesFiles = command.effect === 'edit' || command.effect === 'applyPreview' || command.effect === 'undo';
  return {
    name: facet.name,
    description: facet.description,
    params: facet.params,
    command: command.id,
    ...(facet.defaults ? { defaults: facet.defaults } : {}),
    render: facet.render,
    inputSchema: inputSchema(command, facet.params, facet.required),
    outputSchema: OUTPUT[facet.render],
    annotations: {
      readOnlyHint: command.effect === 'read',
      destructiveHint: changesFiles && command.additive !== true,
      idempotentHint: command.idempotent,
      openWorldHint: false,
    },
  };
}

const SYMBOLS_TOOL: ToolSpec = {
  name: 'workspace_symbols',
  description: `Find definitions (functions, classes, methods, types, constants) by fuzzy name across the workspace (${LANGUAGE_NAMES.length} languages: ${LANGUAGE_NAMES.join(', ')}). Returns name, kind, file:line:column and container.`,
  params: ['query'],
  command: { method: 'workspace/symbol' },
  render: 'symbols',
  inputSchema: z.toJSONSchema(z.object({ query: z.string().describe('A name or part of one (fuzzy).') }), { io: 'input' }) as ToolSpec['inputSchema'],
  outputSchema: OUTPUT.symbols,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** Every tool: the commands' (read_file first, as the registry lists them), workspace_symbols after search_files. */
export const TOOLS: readonly ToolSpec[] = (() => {
  const tools = COMMANDS.filter((c) => c.tool !== undefined).map(toolOf);
  const at = tools.findIndex((t) => t.name === 'search_files');
  tools.splice(at + 1, 0, SYMBOLS_TOOL);
  return tools;
})();

export function findTool(name: string): ToolSpec | undefined {
  return TOOLS.find((t) => t.name === name);
}
