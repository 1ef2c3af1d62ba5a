// The ids `initialize` announces (commands/ids.ts, read without loading any command) are the
// registry's, in its order, and the code-action kinds are the ones codeActions.ts offers.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../server/commands/index.js';
import { CODE_ACTION_KINDS, COMMAND_IDS } from '../server/commands/ids.js';
import { serverCapabilities } from '../server/capabilities.js';

describe('the announced command ids', () => {
  it('are the registry commands, in its order', () => {
    expect([...COMMAND_IDS]).toEqual(COMMANDS.map((c) => c.id));
    expect(new Set(COMMAND_IDS).size).toBe(COMMAND_IDS.length);
  });

  it('are what the initialize answer lists', () => {
    const caps = serverCapabilities('utf-16');
    expect(caps.executeCommandProvider?.commands).toEqual(COMMANDS.map((c) => c.id));
    expect(caps.codeActionProvider).toEqual({ codeActionKinds: [...CODE_ACTION_KINDS] });
  });
});
