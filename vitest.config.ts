import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// editls publishes a discovery record for agents (`editls mcp`) in $XDG_RUNTIME_DIR/editls/: every
// server a test starts uses this private folder instead of the user's real one.
const testRuntimeDir = path.join(os.tmpdir(), `editls-test-xdg-${os.userInfo().uid}`);
// Likewise Claude Code's lock files (claudeCodeIde, docs/agents.md): in a private folder, never the
// user's ~/.claude/ide/, where a Claude Code the user runs would list every test server.
const testClaudeDir = path.join(os.tmpdir(), `editls-test-claude-${os.userInfo().uid}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { XDG_RUNTIME_DIR: testRuntimeDir, CLAUDE_CONFIG_DIR: testClaudeDir },
  },
});
