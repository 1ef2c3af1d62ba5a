// editls settings: the defaults (one comment per field) and a zod schema per field, read from
// `initializationOptions` and `workspace/configuration` section `editls`. Invalid fields are
// reported and keep their defaults, so a typo never takes the server down.
import { z } from 'zod';

export const SETTINGS_DEFAULTS = {
  /** Where edits to files the editor does not have open go: written atomically to disk, or sent to the editor. */
  closedFiles: 'disk' as 'disk' | 'editor',
  /** searchFiles: cap on matching lines. */
  maxResults: 300,
  /** searchFiles: context lines on each side of a hit. */
  contextLines: 1,
  /** searchFiles: longer lines are cut on a character boundary. */
  maxLineLength: 500,
  /** Largest file (bytes) editls reads for an edit; bigger ones are `too_large`. */
  maxFileSize: 10 * 1024 * 1024,
  /** searchAndReplace: a regex running longer than this is stopped with `regex_timeout`. */
  regexTimeoutMs: 2000,
  /** How a one-line summary of each command reaches the user: the log only, or also window/showMessage. */
  summary: 'log' as 'log' | 'message',
  /** How long (ms) to wait for the editor's didChange confirming an applied edit before trusting its reply. */
  applyConfirmTimeoutMs: 1000,
  /** How long (ms) editls waits for the editor to answer workspace/applyEdit; past it the command fails with
   *  `apply_rejected`, the file's lock is released and a late answer is ignored (the edit may still land). */
  applyTimeoutMs: 10000,
  /** workspace/symbol: cap on the symbols one query returns. */
  maxSymbols: 200,
  /** Edit results: a change written to disk with more TextEdits than this gets `editOmitted` instead of its
   *  WorkspaceEdit (previews and editor edits always carry the full edit). */
  maxResultEdits: 1000,
  /** editls.undo: how many editls changes per file the in-memory journal keeps. */
  undoDepth: 20,
  /** Edit results: each file's diff is cut after this many characters with a notice (0 = unlimited); the
   *  default of commands without a maxDiffChars argument, and of those with one. A longer line is cut too. */
  maxDiffChars: 50_000,
  /** Edits from attached agents (`editls mcp`): applied like the editor's own, or each one reviewed in the
   *  editor first (a preview, then window/showMessageRequest Apply / Discard). Agents cannot change it. */
  agentEdits: 'apply' as 'apply' | 'review',
  /**
   * Review mode: how long (ms) an agent edit waits for the user's answer before it is `apply_rejected`.
   * Under the agents' own limits for one tool call (60 s in OpenCode and Codex by default), so the
   * agent hears editls's answer rather than its own timeout; raise both together (docs/agents.md).
   */
  reviewTimeoutMs: 50 * 1000,
  /**
   * Serve Claude Code's IDE integration (`claude --ide`, `/ide`): a WebSocket on 127.0.0.1 announced in
   * ~/.claude/ide/, so that Claude Code's own edits are reviewed in this editor. On by default: nothing
   * connects unless the user starts Claude Code with --ide (or picks editls in /ide); turn it off where the
   * editor already has such an integration (VS Code's Claude Code extension, claudecode.nvim).
   */
  claudeCodeIde: true,
  /**
   * Serve Gemini CLI's IDE companion: MCP over HTTP on 127.0.0.1 announced in <tmpdir>/gemini/ide/, so that
   * Gemini CLI's own edits are reviewed in this editor. On by default: the CLI uses it only once the user
   * runs `/ide enable`; turn it off where VS Code's Gemini CLI companion already serves the editor.
   */
  geminiIde: true,
};

export type Settings = typeof SETTINGS_DEFAULTS;

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
