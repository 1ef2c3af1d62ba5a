// An agent CLI in its interactive terminal, as a user runs it beside the editor: Claude Code
// (`claude --ide --permission-mode default`) or Gemini CLI (with `ide.enabled`), under a pseudo-
// terminal from util-linux's `script`, offline against the fake model. Their IDE integrations only
// run there (`claude -p` never connects to an IDE; `gemini -p` never asks for a review). The test
// reads the screen (escape sequences removed) and types as a person does, one key at a time.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentBin } from './agentKit.js';
import type { FakeModel } from './fakeModel.js';
import { waitFor } from '../helpers/waitFor.js';
import { descendantsOf, isGone } from '../helpers/processes.js';

export type TerminalAgentId = 'claude' | 'gemini';

export interface TerminalAgentSetup {
  /** The user's HOME (the editor's too: Claude Code finds the editor's lock file in ~/.claude/ide/). */
  home: string;
  project: string;
  model: FakeModel;
}

/** The API key Claude Code is given; its last 20 characters are the ones the user approved once. */
const CLAUDE_KEY = 'sk-ant-api03-editls-offline-test-key-000000000000000000000000';

export class TerminalAgent {
  private raw = '';
  private exited = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (d) => {
      const text = String(d);
      this.raw += text;
      // A terminal answers these queries; without an answer a TUI waits for it before reading keys.
      if (text.includes('\x1b[c')) child.stdin.write('\x1b[?62;c');
      if (text.includes('\x1b[6n')) child.stdin.write('\x1b[1;1R');
    });
    child.stderr.on('data', (d) => (this.raw += String(d)));
    child.on('close', () => (this.exited = true));
  }

  /** Prepares HOME as a user who has run the CLI before (signed in, folder trusted, IDE mode on) and starts it. */
  static start(id: TerminalAgentId, s: TerminalAgentSetup): TerminalAgent {
    const env: Record<string, string> = {
      PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: s.home,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      TMPDIR: os.tmpdir(),
    };
    let args: string[];
    if (id === 'claude') {
      // What Claude Code keeps in ~/.claude.json once the user went through its first start.
      const config = {
        hasCompletedOnboarding: true,
        lastOnboardingVersion: '2.1.332',
        theme: 'dark',
        customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
        projects: { [s.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      };
      writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify(config, null, 2));
      Object.assign(env, { ANTHROPIC_BASE_URL: s.model.url, ANTHROPIC_API_KEY: CLAUDE_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
      // --ide: connect to the IDE whose folder holds this one; the default permission mode asks before
      // each edit (2.1.332 starts in auto mode otherwise, and a review only happens where it asks).
      args = ['--ide', '--permission-mode', 'default'];
    } else {
      mkdirSync(path.join(s.home, '.gemini'), { recursive: true });
      // ide.enabled is what `/ide enable` writes; hasSeenNudge: the "connect?" question was answered.
      writeFileSync(path.join(s.home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ide: { enabled: true, hasSeenNudge: true } }));
      Object.assign(env, { GOOGLE_GEMINI_BASE_URL: s.model.url, GEMINI_API_KEY: 'editls-test', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
      // In a container Gemini CLI dials host.docker.internal for its IDE unless told it runs in a
      // remote container (docs/agents.md says so for users in containers).
      env.REMOTE_CONTAINERS = 'true';
      args = [];
    }
    const quoted = [agentBin(id), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', `stty rows 50 cols 160; exec ${quoted}`, '/dev/null'], { cwd: s.project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    return new TerminalAgent(child);
  }

  /** The screen so far as text: escape sequences removed. */
  screen(): string {
    return strip(this.raw);
  }

  /** True once the screen shows `pattern` (the agent's own bound: a whole CLI start on a busy machine). */
  waitScreen(pattern: RegExp, ms = 90_000): Promise<boolean> {
    return waitFor(() => pattern.test(this.screen()), ms, 100);
  }

  /**
   * Types `text` one key at a time and, once the screen shows it, Enter, until `submitted()` (the
   * model got the message): a TUI that takes keys arriving together for a paste makes that Enter a
   * new line, and the next one sends.
   */
  async send(text: string, submitted: () => boolean): Promise<void> {
    await this.type(text);
    for (let i = 0; i < 4 && !submitted(); i++) {
      if (await waitFor(submitted, 5000, 50)) return;
      this.child.stdin.write('\r');
    }
    if (!(await waitFor(submitted, 30_000, 50))) throw new Error(`"${text}" was never sent:\n${JSON.stringify(this.screen().slice(-3000))}`);
  }

  /** Types `text` one key at a time and, once the screen shows it, Enter. */
  async type(text: string): Promise<void> {
    const before = this.raw.length;
    for (const ch of text) {
      this.child.stdin.write(ch);
      // A key at a time, as typed: a burst would be taken for a paste.
      await new Promise((r) => setImmediate(r));
    }
    // Enter only once the input line holds the text: pressed earlier it would be part of the paste.
    // The line is redrawn in pieces, with cursor moves (and Claude Code's logo animation) between
    // them: the keys are on screen once they all appear, in order, in what was drawn since.
    const keys = [...text.replace(/\s+/g, '')];
    const echoed = () => {
      const drawn = strip(this.raw.slice(before));
      let at = 0;
      for (const k of keys) {
        at = drawn.indexOf(k, at);
        if (at < 0) return false;
        at += k.length;
      }
      return true;
    };
    const shown = await waitFor(echoed, 30_000, 50);
    if (!shown) throw new Error(`the agent's input line never showed "${text}":\n${JSON.stringify(this.screen().slice(-3000))}`);
    this.child.stdin.write('\r');
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    // The CLI under `script` and what it started, taken now: once `script` has exited they belong to
    // init, and a CLI still writing its files under the test's HOME raced the workspace's removal
    // (ENOTEMPTY, once in a full run).
    const tree = descendantsOf(this.child.pid!);
    this.child.stdin.write('\x03');
    this.child.stdin.write('\x03');
    if (!(await waitFor(() => this.exited, 5000))) this.child.kill('SIGKILL');
    await waitFor(() => this.exited, 5000);
    if (!(await waitFor(() => tree.every(isGone), 5000))) {
      for (const pid of tree) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      await waitFor(() => tree.every(isGone), 5000);
    }
  }
}

/** Terminal output as text: escape sequences removed (a cursor move becomes a space). */
function strip(raw: string): string {
  return raw
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, ' ')
    .replace(/\x1b[()][0-9A-Za-z]/g, '')
    .replace(/\x1b[=>78]/g, '');
}
