// editls.sendToAgent: sends lines of a file to the agent CLIs connected to the editor's IDE servers
// (Claude Code: an @-mention of the lines in its prompt, as VS Code's "send to Claude" does); the
// "send to <agent>" code action runs it on the selection. Reads and changes nothing.
import { z } from 'zod';
import { fail } from '../core/result.js';
import { filePath, wholeNumber } from './args.js';
import { defineCommand } from './registry.js';
import type { AgentsPort } from './ports/agents.js';
import type { FilesPort } from './ports/files.js';
import type { RequestPort } from './ports/request.js';

const args = () =>
  z
    .object({
      path: filePath(),
      startLine: wholeNumber(1).describe('First line to send (1-based).'),
      endLine: wholeNumber(1).optional().describe('Last line to send (1-based, default startLine).'),
    })
    .strict();

export const sendToAgentCommand = defineCommand({
  id: 'editls.sendToAgent',
  title: 'Send lines of a file to the agent CLI connected to the editor (Claude Code: an @-mention)',
  args,
  effect: 'read',
  idempotent: true,
  run: async (ctx: AgentsPort & Pick<FilesPort, 'resolvePath'> & RequestPort, a) => {
    const resolved = await ctx.resolvePath(a.path);
    if (!resolved.ok) return resolved;
    const end = a.endLine ?? a.startLine;
    if (end < a.startLine) return fail('invalid_args', `endLine ${end} is before startLine ${a.startLine}`);
    const told = ctx.mention(resolved.absPath, a.startLine, end);
    if (told.length === 0) {
      return fail('not_found', 'no agent CLI that takes a mention is connected to this editor: start `claude --ide` in the workspace (docs/agents.md)');
    }
    const lines = end === a.startLine ? `line ${a.startLine}` : `lines ${a.startLine}–${end}`;
    const message = `editls.sendToAgent: sent ${resolved.relPath} ${lines} to ${told.join(', ')}`;
    ctx.summarize(message);
    return { ok: true as const, value: { success: true, agents: told, message } };
  },
});
