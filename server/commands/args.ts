// Shared zod pieces for command arguments: booleans that also accept "true"/"false" (agents often
// stringify them), the options every edit command takes (`apply`, `confirm`), and `file_pattern`.
// Each is built on first use, like the commands' argument schemas (registry.ts: building them all
// at load cost every start-up about 5 ms).
import { z } from 'zod';
import { fail, type Result } from '../core/result.js';
import { compileGlob, type CompiledGlob } from '../core/search/glob.js';

/** `make()`'s value, made at the first call and the same at every later one. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

export const boolish = once(() => z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]));

/**
 * How a field shows in a tool's input schema when its zod type would say more than a model needs
 * (`boolish` is a boolean, `intish` an integer with its least value): read by mcp/tools.ts.
 */
export interface SchemaMeta {
  json: Record<string, unknown>;
}

/** A boolean (also "true"/"false"), shown as `boolean`. */
export const flag = (): ReturnType<typeof boolish> => boolish().meta({ json: { type: 'boolean' } } satisfies SchemaMeta);

export const applyOptions = once(() => ({
  apply: z
    .enum(['auto', 'editor', 'disk', 'preview'])
    .optional()
    .describe('Leave out (auto): files open in the editor change there, others on disk. "preview" changes nothing and returns a previewId to apply later (apply_preview) or discard.'),
  confirm: flag().optional().describe('Ask the editor to confirm the edit first (VS Code\'s Refactor Preview); ignored by editors without change annotations.'),
}));

export const pathString = once(() => z.string().min(1, 'must be a non-empty path'));

/** A file argument, relative to the workspace folder or absolute inside it. */
export const filePath = () => pathString().describe('The file: relative to the workspace folder, or absolute inside it.');

/** Whole numbers, also as decimal strings ("12"; agents often stringify them); ranges (>= 1 etc.) are checked by the command. */
export const intish = once(() =>
  z.union([z.number().int(), z.string().regex(/^[+-]?\d{1,15}$/).transform(Number)], {
    error: 'must be a whole number (12 or "12")',
  }),
);

/** A whole number (also as a string), shown as an integer of at least `min`; `checked`: refused below it here (else the command checks). */
export function wholeNumber(min: number, checked?: string): z.ZodType<number, number | string> {
  const base = checked === undefined ? intish() : intish().refine((n) => n >= min, checked);
  return base.meta({ json: { type: 'integer', minimum: min } } satisfies SchemaMeta);
}

/**
 * Text that goes into a file (also NUL-free, see below): a JSON string may carry half of a surrogate pair ("\ud83d"), which no
 * encoding can write faithfully (UTF-8 would turn it into U+FFFD, UTF-16 files would become invalid),
 * so such text is refused as invalid_args instead of being written.
 */
export const text = once(() =>
  z
    .string()
    .refine((s) => !/[\uD800-\uDFFF]/u.test(s), {
      message: 'contains an unpaired surrogate (half of a character such as an emoji); send whole characters',
    })
    // editls reads a file with a NUL as binary: writing one would leave a file it then refuses to edit.
    .refine((s) => s.indexOf('\0') === -1, {
      message: 'contains a NUL character (U+0000), which a text file cannot hold; editls would then read the file as binary. Remove it (or write binary files another way)',
    }),
);

/** A `file_pattern` argument compiled (absent or blank: no glob), or `invalid_args` saying why. */
export function filePattern(pattern: string | undefined): Result<{ glob?: CompiledGlob }> {
  if (pattern === undefined || pattern.trim() === '') return { ok: true };
  const compiled = compileGlob(pattern);
  if (!compiled.ok) {
    return fail('invalid_args', `file_pattern ${JSON.stringify(pattern)} is not a valid glob: ${compiled.message}`, { issues: [{ path: 'file_pattern', message: compiled.message }] });
  }
  return { ok: true, glob: compiled.glob };
}
