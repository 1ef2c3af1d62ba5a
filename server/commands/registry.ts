// What a command is, said once: its id and title, its arguments (zod, with the descriptions a model
// reads), what running it does to files (`effect`), whether it is an MCP tool (name, description,
// which arguments, how a model reads its result), and `run`. The LSP command list and capabilities,
// the MCP tools and their annotations, the review of agents' edits, the rendering of results for
// agents and the docs checks (test/tidy.test.ts) all derive from these descriptors (index.ts).
import type { z } from 'zod';
import { fail, type Failure, type Result } from '../core/result.js';
import type { Context } from './context.js';
import type { RenderedResults } from './results.js';

/**
 * What running the command does to files:
 * - `read`: nothing (reads files, buffers, the index);
 * - `preview`: nothing to files; makes or forgets a preview (proposeStrReplace, discardPreview);
 * - `edit`: changes files; takes `apply`, so it can run as a preview first;
 * - `applyPreview`: changes files by applying a preview made earlier;
 * - `undo`: changes files by reverting editls's last change (no preview possible).
 */
export type Effect = 'read' | 'preview' | 'edit' | 'applyPreview' | 'undo';

/** How an agent's model reads the result (mcp/results.ts): an edit's summary and diff, a page of numbered lines, a search layout. */
export type Rendering = keyof RenderedResults;

/** The command as an MCP tool. */
export interface ToolFacet<Render extends Rendering = Rendering> {
  name: string;
  description: string;
  /** The command's arguments the tool offers, in order (the others keep their defaults). */
  params: readonly string[];
  /** Of `params`, those the tool requires although the command does not (it takes one of several). */
  required?: readonly string[];
  /** Arguments the tool adds when the agent leaves them out. */
  defaults?: Readonly<Record<string, unknown>>;
  render: Render;
}

export interface CommandDefinition<S extends z.ZodType = z.ZodType, Render extends Rendering = Rendering> {
  id: string;
  title: string;
  /**
   * The arguments (arguments[0]), made on first use (`Command.args`): building every command's zod
   * schemas at load cost each start-up about 5 ms. Field descriptions (`.describe`) are what a model reads.
   */
  args: () => S;
  effect: Effect;
  /** The same call again changes nothing more (MCP idempotentHint): true for reads and for edits guarded by the text they replace. */
  idempotent: boolean;
  /** Only adds text, never removes any (MCP destructiveHint false): editls.insert. */
  additive?: boolean;
  tool?: ToolFacet<Render>;
  /** Its result is what the tool's rendering reads (results.ts), so that no agent misreads it. */
  run: (ctx: Context, args: z.output<S>) => Promise<{ ok: true; value: RenderedResults[Render] } | Failure>;
}

/** A command with its argument and result types erased: parse the arguments, then run. */
export interface Command extends Omit<CommandDefinition, 'run' | 'tool' | 'args'> {
  /** The arguments' schema, made at the first read. */
  readonly args: z.ZodType;
  tool?: ToolFacet;
  /** Parses arguments[0]; the issues when it does not fit, else the run bound to the parsed arguments. */
  prepare(raw: unknown): { ok: true; run: (ctx: Context) => Promise<Result<{ value: unknown }>> } | { ok: false; issues: z.core.$ZodIssue[] };
  /** prepare, then run; arguments that do not fit are `invalid_args` (in-process callers and tests). */
  execute(ctx: Context, raw: unknown): Promise<Result<{ value: unknown }>>;
}

export function defineCommand<S extends z.ZodType, Render extends Rendering>(definition: CommandDefinition<S, Render>): Command {
  const { run, args: makeArgs, ...described } = definition;
  let args: S | undefined;
  const schema = (): S => (args ??= makeArgs());
  return {
    ...described,
    get args() {
      return schema();
    },
    prepare(raw) {
      const parsed = schema().safeParse(raw);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      return { ok: true, run: (ctx) => run(ctx, parsed.data) };
    },
    async execute(ctx, raw) {
      const prepared = this.prepare(raw);
      if (!prepared.ok) return fail('invalid_args', `invalid arguments for ${definition.id}: ${prepared.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}`);
      return prepared.run(ctx);
    },
  };
}
