// How editls reads its settings (settings.ts): a zod schema per field, merged over the settings
// before. Invalid fields are reported and keep their previous values, so a typo never takes the
// server down.
import { z } from 'zod';
import type { Settings } from './settings.js';

const fieldSchemas: { [K in keyof Settings]: z.ZodType<Settings[K]> } = {
  closedFiles: z.enum(['disk', 'editor']),
  maxResults: z.number().int().min(1).max(100_000),
  contextLines: z.number().int().min(0).max(50),
  maxLineLength: z.number().int().min(20).max(1_000_000),
  maxFileSize: z.number().int().min(1).max(2 ** 31 - 1),
  regexTimeoutMs: z.number().int().min(10).max(600_000),
  summary: z.enum(['log', 'message']),
  applyConfirmTimeoutMs: z.number().int().min(0).max(60_000),
  applyTimeoutMs: z.number().int().min(10).max(600_000),
  maxSymbols: z.number().int().min(1).max(100_000),
  maxResultEdits: z.number().int().min(0).max(2 ** 31 - 1),
  undoDepth: z.number().int().min(0).max(1000),
  maxDiffChars: z.number().int().min(0).max(2 ** 31 - 1),
  agentEdits: z.enum(['apply', 'review']),
  reviewTimeoutMs: z.number().int().min(100).max(24 * 60 * 60 * 1000),
  claudeCodeIde: z.boolean(),
  geminiIde: z.boolean(),
};

/**
 * Merges `raw` (any JSON value) over `base`, field by field. Unknown fields and invalid values
 * are returned as warnings; their previous values are kept.
 */
export function mergeSettings(base: Settings, raw: unknown): { settings: Settings; warnings: string[] } {
  const settings: Settings = { ...base };
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { settings, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(`editls settings must be an object, got ${Array.isArray(raw) ? 'array' : typeof raw}; defaults kept`);
    return { settings, warnings };
  }
  const source = (raw as Record<string, unknown>).editls !== undefined && typeof (raw as Record<string, unknown>).editls === 'object'
    ? ((raw as Record<string, unknown>).editls as Record<string, unknown>)
    : (raw as Record<string, unknown>);
  for (const [key, value] of Object.entries(source)) {
    if (!(key in fieldSchemas)) {
      warnings.push(`unknown editls setting "${key}" ignored`);
      continue;
    }
    const name = key as keyof Settings;
    const parsed = fieldSchemas[name].safeParse(value);
    if (parsed.success) {
      (settings as Record<string, unknown>)[name] = parsed.data;
    } else {
      warnings.push(`invalid editls setting "${key}" (${JSON.stringify(value)}): ${parsed.error.issues.map((i) => i.message).join('; ')}; keeping ${JSON.stringify(settings[name])}`);
    }
  }
  return { settings, warnings };
}
