// The agents port: the agent CLIs connected to the editor's IDE servers (server/ide/) that take a
// mention of lines — Claude Code's `at_mentioned`, which puts `@file#L3-5` into its prompt.
// Implemented by server/ideServers.ts through server/workspace/context.ts.

export interface AgentsPort {
  /** Names of the connected agents a mention reaches (none when no agent CLI is connected). */
  mentionTargets(): string[];
  /** Sends lines `startLine`..`endLine` (1-based) of the file to them; returns who was told. */
  mention(absPath: string, startLine: number, endLine: number): string[];
}
