// The command registry: every command editls serves. The advertised
// executeCommandProvider.commands and the README tidy check both come from this list.
import type { CommandDefinition } from './registry.js';
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

export const COMMANDS: readonly CommandDefinition[] = [
  editCommand as unknown as CommandDefinition,
  strReplaceCommand as unknown as CommandDefinition,
  proposeStrReplaceCommand as unknown as CommandDefinition,
  searchAndReplaceCommand as unknown as CommandDefinition,
  replaceRangeCommand as unknown as CommandDefinition,
  insertCommand as unknown as CommandDefinition,
  undoCommand as unknown as CommandDefinition,
  applyPreviewCommand as unknown as CommandDefinition,
  discardPreviewCommand as unknown as CommandDefinition,
  trimTrailingWhitespaceCommand as unknown as CommandDefinition,
  normalizeLineEndingsCommand as unknown as CommandDefinition,
  searchFilesCommand as unknown as CommandDefinition,
  replaceInFilesCommand as unknown as CommandDefinition,
  readFileCommand as unknown as CommandDefinition,
];

export const COMMAND_IDS: readonly string[] = COMMANDS.map((c) => c.id);

export function findCommand(id: string): CommandDefinition | undefined {
  return COMMANDS.find((c) => c.id === id);
}
