// The MCP tools as a real MCP client (the SDK's Client over stdio) sees them, against the command
// descriptors they derive from (server/commands/): every tool maps to a command, every parameter is
// described, integers say their least value, annotations follow the command's effect, every result
// fits the tool's outputSchema (the SDK client checks structuredContent against it once it has listed
// the tools), and the tools the docs name are the tools served, both ways.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { COMMANDS, findCommand } from '../../server/commands/index.js';
import { TOOLS } from '../../server/mcp/tools.js';
import { privateRuntimeDir, startMcp, type McpAgent } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const ROOT = path.resolve(__dirname, '../..');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let root = '';
async function agentOn(files: Record<string, string>, name?: string): Promise<McpAgent> {
  const ws = tempWorkspace(files);
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  root = ws.root;
  const agent = await startMcp({ root: ws.root, xdg: rt.xdg, ...(name ? { name } : {}) });
  cleanups.push(() => agent.close());
  return agent;
}

type Property = { type?: string; minimum?: number; description?: string; items?: Property & { properties?: Record<string, Property> } };

describe('the MCP tools derive from the command descriptors', () => {
  it('a real client lists every tool: mapped to a command, every parameter described, integers with a least value, honest annotations', async () => {
    const agent = await agentOn({});
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(tools[0]!.name).toBe('read_file');
    for (const tool of tools) {
      const spec = TOOLS.find((t) => t.name === tool.name)!;
      if (typeof spec.command === 'string') {
        const command = findCommand(spec.command)!;
        expect(command, tool.name).toBeDefined();
        expect(command.tool?.name).toBe(tool.name);
        // Every parameter the tool offers is an argument of the command.
        const shape = (command.args as z.ZodObject).shape as Record<string, unknown>;
        for (const key of Object.keys(tool.inputSchema.properties ?? {})) expect(shape, `${tool.name}.${key}`).toHaveProperty(key);
        const effect = command.effect;
        expect(tool.annotations, tool.name).toMatchObject({
          readOnlyHint: effect === 'read',
          destructiveHint: (effect === 'edit' || effect === 'undo' || effect === 'applyPreview') && command.additive !== true,
          idempotentHint: command.idempotent,
          openWorldHint: false,
        });
      } else {
        expect(spec.command).toEqual({ method: 'workspace/symbol' });
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      }
      expect(tool.description!.length, tool.name).toBeGreaterThan(30);
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', required: ['text'] });
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
      for (const [key, p] of Object.entries(properties)) {
        expect(p.description?.length ?? 0, `${tool.name}.${key} has no description`).toBeGreaterThan(5);
        if (p.type === 'integer') expect(p.minimum, `${tool.name}.${key}`).toBeTypeOf('number');
        // Booleans are booleans to a model (editls also takes "true"/"false"), never a union of both.
        expect(JSON.stringify(p), `${tool.name}.${key}`).not.toMatch(/anyOf/);
      }
    }
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    // The ones the issue names: replace_in_files and undo destroy text; insert only adds; reads are read-only.
    expect(annotations.replace_in_files).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(annotations.undo).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(annotations.insert).toMatchObject({ destructiveHint: false, readOnlyHint: false, idempotentHint: false });
    expect(annotations.edit).toMatchObject({ destructiveHint: true, idempotentHint: true });
    for (const name of ['read_file', 'search_files', 'workspace_symbols']) expect(annotations[name]).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    // Defaults a model reads come from the code, not copied by hand.
    const searchFiles = tools.find((t) => t.name === 'search_files')!;
    expect(JSON.stringify(searchFiles.inputSchema)).toMatch(/default 300/);
    expect(JSON.stringify(tools.find((t) => t.name === 'replace_in_files')!.inputSchema)).toMatch(/1000|1,000/);
  });

  it('an integer below its least value is refused (invalid_args, or the command\'s invalid_range); nothing changes', async () => {
    const agent = await agentOn({ 'a.txt': 'one\n' });
    await agent.client.listTools();
    for (const [name, args] of [
      ['read_file', { file_path: 'a.txt', offset: -1 }],
      ['read_file', { file_path: 'a.txt', limit: 0 }],
      ['insert', { path: 'a.txt', insert_line: -1, new_str: 'x' }],
      ['search_files', { path: '.', regex: 'one', max_results: 0 }],
    ] as const) {
      const r = await agent.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text).toMatch(/^(invalid_args|invalid_range): /);
    }
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('every result fits its tool\'s outputSchema (the SDK client checks each one)', async () => {
    const agent = await agentOn({ 'a.ts': 'export function greet() {\r\n  return "héllo 😀";\r\n}\r\n', 'b.txt': 'alpha\nbeta\n' });
    await agent.client.listTools();
    const calls: [string, Record<string, unknown>][] = [
      ['read_file', { file_path: 'a.ts' }],
      ['read_file', { file_path: 'b.txt', offset: 2, limit: 1 }],
      ['search_files', { path: '.', regex: 'greet' }],
      ['search_files', { path: '.', regex: 'nothing-here' }],
      ['workspace_symbols', { query: 'greet' }],
      ['edit', { file_path: 'b.txt', old_string: 'beta', new_string: 'gamma' }],
      ['str_replace', { path: 'b.txt', replacements: [{ old: 'alpha', new: 'ALPHA' }] }],
      ['search_and_replace', { path: 'b.txt', search: 'gamma', replace: 'delta' }],
      ['replace_range', { filePath: 'b.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 6, expectedText: 'ALPHA', replacementText: 'alpha' }],
      ['insert', { path: 'b.txt', insert_line: 0, new_str: 'zero' }],
      ['undo', {}],
      ['replace_in_files', { search: 'delta', replace: 'epsilon', apply: 'preview' }],
      ['edit', { file_path: 'b.txt', old_string: 'not there', new_string: 'x' }],
      ['apply_preview', { id: 'no-such-preview' }],
      ['discard_preview', { id: 'no-such-preview' }],
    ];
    const replies = [];
    for (const [name, args] of calls) replies.push([name, await agent.call(name, args)] as const);
    // A success has structuredContent opening with the text; a failure is isError with its kind first.
    for (const [name, r] of replies) {
      if (r.isError) expect(r.text, name).toMatch(/^[a-z_]+: /);
      else expect(r.structured?.text, name).toBe(r.text);
    }
    expect(replies.filter(([, r]) => !r.isError).length).toBeGreaterThanOrEqual(11);
    const preview = replies.find(([n]) => n === 'replace_in_files')![1];
    expect(preview.structured.previewId).toBeTypeOf('string');
    const applied = await agent.call('apply_preview', { id: preview.structured.previewId });
    expect(applied.isError).toBe(false);
    expect(applied.structured.status).toBe('applied');
  });

  it('a client that hides failures\' text (Gemini CLI) gets failures as results that fit the outputSchema too', async () => {
    const agent = await agentOn({ 'a.txt': 'one\n' }, 'gemini-cli-mcp-client');
    await agent.client.listTools();
    const r = await agent.call('edit', { file_path: 'a.txt', old_string: 'two', new_string: 'x' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^not_found: /);
    expect(r.structured).toMatchObject({ text: r.text, success: false, kind: 'not_found' });
    const bad = await agent.call('read_file', { file_path: 'a.txt', offset: 0 });
    expect(bad.structured).toMatchObject({ success: false, kind: 'invalid_range' });
    const unknown = await agent.call('read_file', { file_path: 'a.txt', offest: 2 });
    expect(unknown.structured).toMatchObject({ success: false, kind: 'invalid_args' });
    expect(unknown.text).toMatch(/did you mean "offset"/);
  });

  it('every edit command can run as a preview (review mode relies on it); reads and undo take no `apply`', () => {
    for (const command of COMMANDS) {
      const apply = ((command.args as z.ZodObject).shape as Record<string, z.ZodType | undefined>).apply;
      if (command.effect === 'edit') expect(apply?.safeParse('preview').success, command.id).toBe(true);
      if (command.effect === 'read' || command.effect === 'undo') expect(apply, command.id).toBeUndefined();
    }
  });
});

/** The backquoted tool names in a text. */
const named = (text: string) => [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

describe('the docs name exactly the tools served', () => {
  const served = TOOLS.map((t) => t.name);
  const optional = (spec: (typeof TOOLS)[number]) => {
    const required = new Set((spec.inputSchema.required as string[] | undefined) ?? []);
    return Object.keys(spec.inputSchema.properties as object).map((k) => (required.has(k) ? `\`${k}\`` : `\`${k}?\``));
  };

  it('docs/agents.md: one table row per tool, with its command and its arguments as served', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/agents.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => /^\| `[a-z_]+` \| `/.test(l));
    const expected = TOOLS.map((t) => `| \`${t.name}\` | \`${typeof t.command === 'string' ? t.command : t.command.method}\` | ${optional(t).join(', ')} |`);
    expect(rows).toEqual(expected);
  });

  it('the README and client-examples/agents/README.md list the tools served, in order', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const list = readme.slice(readme.indexOf('Tools: '), readme.indexOf('.', readme.indexOf('Tools: ') + 7));
    expect(named(list)).toEqual(served);
    const agents = readFileSync(path.join(ROOT, 'client-examples/agents/README.md'), 'utf8');
    const theirs = agents.slice(agents.indexOf('The tools: '), agents.indexOf(' (see', agents.indexOf('The tools: ')));
    expect(named(theirs)).toEqual(served);
  });
});
