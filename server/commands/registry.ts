// The shape of a command: its id, zod argument schema and run function. The list of commands
// lives in index.ts; the advertised capabilities and the README check are derived from it.
import type { z } from 'zod';
import type { Result } from '../core/result.js';
import type { Context } from './context.js';

export interface CommandDefinition<S extends z.ZodType = z.ZodType> {
  id: string;
  title: string;
  args: S;
  run: (ctx: Context, args: z.output<S>) => Promise<Result<{ value: unknown }>>;
}
