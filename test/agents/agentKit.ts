// The four agent CLIs as the conformance tests run them: installed (pinned) in a cache outside the
// clone (.ci/run puts them there), configured with the files of client-examples/agents/ verbatim —
// `editls` is found on PATH, as after `npm install -g <clone>` — plus only what points the agent at
// the test's fake model, and run non-interactively on one prompt in the project folder.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_JS } from '../helpers/lspClient.js';
import type { FakeModel } from './fakeModel.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLES = path.join(REPO, 'client-examples/agents');

/** Where .ci/run installs the agents (test/agents/versions.json pins them). */
export const AGENTS_DIR = process.env.EDITLS_AGENTS_DIR ?? path.join(os.homedir(), '.cache', 'editls-ci', 'agents');

export type AgentId = 'claude' | 'gemini' | 'codex' | 'opencode';

export const AGENTS: { id: AgentId; name: string; bin: string }[] = [
  { id: 'claude', name: 'Claude Code', bin: 'claude' },
  { id: 'gemini', name: 'Gemini CLI', bin: 'gemini' },
  { id: 'codex', name: 'Codex CLI', bin: 'codex' },
  { id: 'opencode', name: 'OpenCode', bin: 'opencode' },
];

export function agentBin(id: AgentId): string {
  return path.join(AGENTS_DIR, 'node_modules', '.bin', AGENTS.find((a) => a.id === id)!.bin);
}

export function hasAgent(id: AgentId): boolean {
  return existsSync(agentBin(id));
}

/** A folder with an `editls` command that runs this build (what `npm install -g <clone>` puts on PATH). */
export function editlsOnPath(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-bin-'));
  const bin = path.join(dir, 'editls');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${SERVER_JS}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

export interface AgentSetup {
  home: string;
  project: string;
  model: FakeModel;
  /** The folder holding `editls`. */
  binDir: string;
  /** The agent's limit for one MCP tool call, where the test shortens it (ms). */
  toolTimeoutMs?: number;
  /** XDG_RUNTIME_DIR as the user's session has it (undefined: not set). */
  xdg?: string;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment the agent starts in: a private HOME, the user's session variables, the fake model's keys. */
function baseEnv(s: AgentSetup): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['LANG', 'LC_ALL', 'TZ']) if (process.env[k]) env[k] = process.env[k]!;
  env.PATH = `${s.binDir}:${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
  env.HOME = s.home;
  env.PWD = s.project;
  env.TERM = 'dumb';
  env.TMPDIR = os.tmpdir();
  if (s.xdg !== undefined) env.XDG_RUNTIME_DIR = s.xdg;
  return env;
}

function example(name: string): string {
  return readFileSync(path.join(EXAMPLES, name), 'utf8');
}

/** Prepares HOME and the project as a user following client-examples/agents/ would, then runs `prompt`. */
export async function runAgent(id: AgentId, s: AgentSetup, prompt: string): Promise<AgentRun> {
  mkdirSync(s.home, { recursive: true });
  const env = baseEnv(s);
  const bin = agentBin(id);
  switch (id) {
    case 'claude': {
      // The README's line, run as written; the user settings file of the example.
      const added = await run(bin, ['mcp', 'add', 'editls', '--', 'editls', 'mcp'], s.project, env, 60_000);
      if (added.code !== 0) return added;
      mkdirSync(path.join(s.home, '.claude'), { recursive: true });
      copyFileSync(path.join(EXAMPLES, 'claude-settings.json'), path.join(s.home, '.claude', 'settings.json'));
      Object.assign(env, { ANTHROPIC_BASE_URL: s.model.url, ANTHROPIC_API_KEY: 'sk-editls-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
      if (s.toolTimeoutMs) env.MCP_TOOL_TIMEOUT = String(s.toolTimeoutMs);
      return run(bin, ['-p', prompt], s.project, env);
    }
    case 'gemini': {
      mkdirSync(path.join(s.project, '.gemini'), { recursive: true });
      const settings = JSON.parse(example('gemini-settings.json'));
      if (s.toolTimeoutMs) settings.mcpServers.editls.timeout = s.toolTimeoutMs;
      writeFileSync(path.join(s.project, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
      mkdirSync(path.join(s.home, '.gemini', 'policies'), { recursive: true });
      copyFileSync(path.join(EXAMPLES, 'gemini-policy.toml'), path.join(s.home, '.gemini', 'policies', 'editls.toml'));
      // The user's own sign-in (an API key), pointed at the fake model.
      writeFileSync(path.join(s.home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      Object.assign(env, { GOOGLE_GEMINI_BASE_URL: s.model.url, GEMINI_API_KEY: 'editls-test', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
      return run(bin, ['-p', prompt], s.project, env);
    }
    case 'codex': {
      const home = path.join(s.home, '.codex');
      mkdirSync(home, { recursive: true });
      const provider = `model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${s.model.url}/v1"\nenv_key = "FAKE_MODEL_KEY"\nwire_api = "responses"\n\n`;
      let server = example('codex-config.toml');
      if (s.toolTimeoutMs) server = server.replace(/^tool_timeout_sec = \d+$/m, `tool_timeout_sec = ${s.toolTimeoutMs / 1000}`);
      writeFileSync(path.join(home, 'config.toml'), provider + server);
      Object.assign(env, { CODEX_HOME: home, FAKE_MODEL_KEY: 'editls-test' });
      return run(bin, ['exec', '--skip-git-repo-check', prompt], s.project, env);
    }
    case 'opencode': {
      const project = JSON.parse(example('opencode.json'));
      if (s.toolTimeoutMs) project.mcp.editls.timeout = s.toolTimeoutMs;
      writeFileSync(path.join(s.project, 'opencode.json'), JSON.stringify(project, null, 2));
      const config = path.join(s.home, '.config', 'opencode');
      mkdirSync(config, { recursive: true });
      writeFileSync(
        path.join(config, 'opencode.json'),
        JSON.stringify({ provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${s.model.url}/v1`, apiKey: 'editls-test' }, models: { 'fake-model': { name: 'Fake model' } } } }, model: 'fake/fake-model' }),
      );
      Object.assign(env, { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1' });
      return run(bin, ['run', prompt], s.project, env);
    }
  }
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<AgentRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
