// The command registry: every command editls serves, each described once (registry.ts). The
// advertised executeCommandProvider.commands, the MCP tools (mcp/tools.ts), the review of agents'
// edits (attach/review.ts) and the docs checks (test/tidy.test.ts) all come from this list.
import type { Command } from './registry.js';
import { editCommand } from './edit.js';
import { proposeStrReplaceCommand, strReplaceCommand } from './strReplace.js';
import { searchAndReplaceCommand } from './searchAndReplace.js';
import { replaceRangeCommand } from './replaceRange.js';
import { applyPreviewCommand } from './applyPreview.js';
import { discardPreviewCommand } from './discardPreview.js';
import { normalizeLineEndingsCommand, trimTrailingWhitespaceCommand } from './whitespace.js';
import { searchFilesCommand } from './searchFiles.js';
import { insertCommand } from './insert.js';
import { undoCommand } from './undo.js';
import { replaceInFilesCommand } from './replaceInFiles.js';
import { readFileCommand } from './readFile.js';
import { sendToAgentCommand } from './sendToAgent.js';

// In this order: the MCP tools are listed in it (read_file first, as an agent starts), and the LSP
// command list too.
export const COMMANDS: readonly Command[] = [
  readFileCommand,
  editCommand,
  strReplaceCommand,
  proposeStrReplaceCommand,
  searchAndReplaceCommand,
  replaceRangeCommand,
  insertCommand,
  replaceInFilesCommand,
  undoCommand,
  searchFilesCommand,
  applyPreviewCommand,
  discardPreviewCommand,
  trimTrailingWhitespaceCommand,
  normalizeLineEndingsCommand,
  sendToAgentCommand,
];

/** The ids, in this order; the `initialize` answer lists them from ids.ts (test/commandIds.test.ts holds both alike). */
export { COMMAND_IDS } from './ids.js';

export function findCommand(id: string): Command | undefined {
  return COMMANDS.find((c) => c.id === id);
}
