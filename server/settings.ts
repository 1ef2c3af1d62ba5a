// editls settings: the defaults, one comment per field, read from `initializationOptions` and
// `workspace/configuration` section `editls` by settingsSchema.ts (kept apart: answering `initialize`
// needs the defaults, not zod).

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
