// The command registry: every command editls serves. The advertised
// executeCommandProvider.commands and the README tidy check both come from this list.
import type { CommandDefinition } from './registry.js';
import { editCommand } from './edit.js';
import { proposeStrReplaceCommand, strReplaceCommand } from './strReplace.js';

export const COMMANDS: readonly CommandDefinition[] = [
  editCommand as unknown as CommandDefinition,
  strReplaceCommand as unknown as CommandDefinition,
  proposeStrReplaceCommand as unknown as CommandDefinition,
];

export const COMMAND_IDS: readonly string[] = COMMANDS.map((c) => c.id);

export function findCommand(id: string): CommandDefinition | undefined {
  return COMMANDS.find((c) => c.id === id);
}
