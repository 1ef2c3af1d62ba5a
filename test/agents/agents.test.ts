// Agent conformance (issue 25): the real Claude Code, Gemini CLI, Codex CLI and OpenCode, pinned and
// offline against a scripted fake model (fakeModel.ts), each configured by client-examples/agents/
// as a user would (agentKit.ts), with headless Neovim 0.7.2 as the user's editor (nvimEditor.ts).
// Per agent: the editls tools are offered and the agent's own file-writing tools are not; a headless
// edit, a failing edit whose text the model reads kind first, a search and a symbol; attached to
// Neovim: a read that sees the unsaved buffer, an edit that lands in the buffer (not on disk) and one
// `u` that undoes it; review Apply and Discard answered at Neovim's own prompt; and a review answered
// only after the agent's own request timeout, which must not land. A missing agent skips its tests
// locally and fails them with CI=true.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENTS, agentBin, editlsOnPath, hasAgent, runAgent, type AgentId, type AgentRun } from './agentKit.js';
import { FakeModel, type SeenResult } from './fakeModel.js';
import { NeovimEditor } from './nvimEditor.js';
import { hasCommand } from '../editors/harness.js';
import { privateRuntimeDir } from '../helpers/mcpClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const CI = process.env.CI === 'true';
/**
 * Each test starts a whole agent CLI (Node or Bun, hundreds of MB of code) and Neovim; on a machine
 * with a CPU-bound process per core that takes 20–40 s where it takes 6 quiet. The bounds are those
 * of the agent's own run (agentKit.ts kills it after 120 s), not the suite's 30 s guess.
 */
const AGENT_EVENT_MS = 90_000;
vi.setConfig({ testTimeout: 150_000, hookTimeout: 60_000 });
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FILES = {
  'a.txt': 'hello world\n',
  'src/lib.ts': 'export function greetPerson(name: string) {\n  return name;\n}\n',
  'notes.md': '# notes\nTODO: ship\n',
};

/** The text the model read for a tool result, without the agent's own wrapping (and as JSON, its `text`). */
function modelText(raw: string): string {
  let text = raw.replace(/^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/, '$1'); // Gemini CLI
  text = text.replace(/^Wall time: [\d.]+ seconds\nOutput:\n/, ''); // Codex CLI
  if (text.startsWith('{"text":')) text = (JSON.parse(text) as { text: string }).text; // structuredContent (Claude Code, Codex)
  return text;
}

interface Session {
  ws: TempWorkspace;
  model: FakeModel;
  home: string;
  bin: string;
  xdg: string;
}

async function session(files: Record<string, string> = FILES): Promise<Session> {
  const ws = tempWorkspace(files, 'editls-agent-');
  const rt = privateRuntimeDir();
  const model = new FakeModel();
  await model.start();
  const bin = editlsOnPath();
  cleanups.push(ws.cleanup, rt.cleanup, () => model.stop());
  const home = path.join(os.tmpdir(), `editls-agent-home-${path.basename(ws.root)}`);
  mkdirSync(home, { recursive: true });
  return { ws, model, home, bin, xdg: rt.xdg };
}

/** `withoutXdg`: the user's session has no XDG_RUNTIME_DIR for the agent to pass on. */
function agentRun(id: AgentId, s: Session, options: { toolTimeoutMs?: number; withoutXdg?: boolean } = {}): Promise<AgentRun> {
  const { withoutXdg, ...rest } = options;
  return runAgent(id, { home: s.home, project: s.ws.root, model: s.model, binDir: s.bin, ...(withoutXdg ? {} : { xdg: s.xdg }), ...rest }, 'Do the editing task.');
}

/** Gemini CLI's model is told to set wait_for_previous on every call: the fake model does too. */
function args(id: AgentId, a: Record<string, unknown>): Record<string, unknown> {
  return id === 'gemini' ? { ...a, wait_for_previous: true } : a;
}

function seen(model: FakeModel): SeenResult[] {
  return model.results().map((r) => ({ tool: r.tool, text: modelText(r.text) }));
}

function explain(run: AgentRun, model: FakeModel): string {
  return `agent exit ${run.code}\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-3000)}\nmodel saw: ${JSON.stringify(model.results(), null, 1).slice(0, 4000)}`;
}

async function editor(s: Session, init: Record<string, unknown> = {}): Promise<NeovimEditor> {
  const nvim = await NeovimEditor.start({ ws: s.ws, xdg: s.xdg, open: ['a.txt'], init });
  cleanups.push(() => nvim.stop());
  return nvim;
}

for (const agent of AGENTS) {
  const present = hasAgent(agent.id);
  const runnable = present || CI;
  describe.skipIf(!runnable)(`${agent.name} (${present ? agentBin(agent.id) : 'not installed'})`, () => {
    it('offers editls instead of its own edit tools; headless: an edit on disk, a failure read kind first, a search and a symbol', async () => {
      expect(present, `${agent.name} is not installed in ${path.dirname(path.dirname(agentBin(agent.id)))}: run .ci/run`).toBe(true);
      const s = await session();
      const id = agent.id;
      s.model.script([
        { call: 'read_file', args: args(id, { file_path: 'a.txt' }) },
        { call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'hello', new_string: 'goodbye' }) },
        { call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'not in the file', new_string: 'x' }) },
        { call: 'search_files', args: args(id, { path: '.', regex: 'TODO' }) },
        { call: 'workspace_symbols', args: args(id, { query: 'greetPerson' }) },
      ]);
      const run = await agentRun(id, s);
      const results = seen(s.model);
      expect(results.map((r) => r.tool), explain(run, s.model)).toEqual(['read_file', 'edit', 'edit', 'search_files', 'workspace_symbols']);
      expect(run.code, explain(run, s.model)).toBe(0);
      // Every editls tool offered; the agent's own file writers not (where the agent can switch them off).
      expect(s.model.offered.map((n) => n.replace(/^.*editls(__|_)/, '')).sort()).toEqual(['apply_preview', 'discard_preview', 'edit', 'insert', 'read_file', 'replace_in_files', 'replace_range', 'search_and_replace', 'search_files', 'str_replace', 'undo', 'workspace_symbols']);
      const offeredAll = s.model.requests.flatMap((r) => JSON.stringify(r.body).match(/"name":"[A-Za-z_]+"/g) ?? []);
      const ownWriters = { claude: ['"name":"Edit"', '"name":"Write"'], gemini: ['"name":"replace"', '"name":"write_file"'], opencode: ['"name":"edit"', '"name":"write"'], codex: [] }[id];
      for (const w of ownWriters) expect(offeredAll, w).not.toContain(w);
      const [read, edit, failed, search, symbols] = results;
      expect(read!.text).toMatch(/^ {5}1\thello world/);
      expect(edit!.text).toMatch(/^editls\.edit: 1 replacement in a\.txt; written to disk\n\n--- a\/a\.txt/);
      expect(failed!.text).toMatch(/^not_found: old_string not found in a\.txt/);
      expect(search!.text).toMatch(/# notes\.md\n(.*\n)? {2}2 \| TODO: ship/);
      expect(symbols!.text).toMatch(/greetPerson {2}function {2}src\/lib\.ts:1:/);
      expect(s.ws.read('a.txt')).toBe('goodbye world\n');
    });

    it.runIf(hasCommand('nvim') || CI)('attached to Neovim: reads the unsaved buffer, the edit lands in it (not on disk) and one u undoes it', async () => {
      expect(present).toBe(true);
      const s = await session();
      const nvim = await editor(s);
      const id = agent.id;
      s.model.script([
        { call: 'read_file', args: args(id, { file_path: 'a.txt' }) },
        { call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'hello', new_string: 'goodbye' }) },
        { call: 'search_files', args: args(id, { path: '.', regex: 'UNSAVED' }) },
      ]);
      const run = await agentRun(id, s);
      const [read, edit, search] = seen(s.model);
      expect(seen(s.model).length, explain(run, s.model)).toBe(3);
      expect(read!.text, explain(run, s.model)).toMatch(/^ {5}1\thello world\n {5}2\tUNSAVED a\.txt/);
      expect(read!.text).toMatch(/note: attached to Neovim's editls/);
      expect(edit!.text).toMatch(/^editls\.edit: 1 replacement in a\.txt/);
      expect(search!.text).toMatch(/# a\.txt\n(.*\n)? {2}2 \| UNSAVED a\.txt/);
      expect(await nvim.buffer('a.txt')).toBe('goodbye world\nUNSAVED a.txt\n');
      expect(await nvim.modified('a.txt')).toBe(true);
      expect(s.ws.read('a.txt')).toBe('hello world\n');
      await nvim.undo('a.txt');
      expect(await nvim.buffer('a.txt')).toBe('hello world\nUNSAVED a.txt\n');
    });

    it.runIf(agent.id === 'codex' && (hasCommand('nvim') || CI))('attached without XDG_RUNTIME_DIR anywhere in the agent\'s environment: still finds the editor, the edit lands in the buffer', async () => {
      expect(present).toBe(true);
      const s = await session();
      const nvim = await editor(s);
      s.model.script([{ call: 'edit', args: { file_path: 'a.txt', old_string: 'hello', new_string: 'goodbye' } }]);
      const run = await agentRun(agent.id, s, { withoutXdg: true });
      expect(seen(s.model)[0]?.text, explain(run, s.model)).toMatch(/^editls\.edit: 1 replacement in a\.txt; changed in the editor/);
      expect(await nvim.buffer('a.txt')).toBe('goodbye world\nUNSAVED a.txt\n');
      expect(s.ws.read('a.txt')).toBe('hello world\n');
    });

    it.runIf(hasCommand('nvim') || CI)('review in Neovim: the first edit applied at the prompt, the second discarded; the model is told which', async () => {
      expect(present).toBe(true);
      const s = await session();
      const nvim = await editor(s, { agentEdits: 'review' });
      const id = agent.id;
      s.model.script([
        { call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'hello', new_string: 'goodbye' }) },
        { call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'world', new_string: 'moon' }) },
      ]);
      const running = agentRun(id, s);
      expect(await waitFor(() => nvim.prompts().length === 1, AGENT_EVENT_MS)).toBe(true);
      expect(nvim.prompts()[0]).toBe('Agent edit to a.txt: +1 −1');
      await nvim.answer(1);
      expect(await waitFor(() => nvim.prompts().length === 2, AGENT_EVENT_MS)).toBe(true);
      await nvim.answer(2);
      const run = await running;
      const [applied, discarded] = seen(s.model);
      expect(applied?.text, explain(run, s.model)).toMatch(/^editls\.edit: 1 replacement in a\.txt; changed in the editor \(unsaved\) \(applied after review in the editor\)/);
      expect(discarded?.text).toMatch(/^apply_rejected: the agent edit to a\.txt was not applied: the user discarded it in the editor/);
      expect(await nvim.buffer('a.txt')).toBe('goodbye world\nUNSAVED a.txt\n');
      expect(s.ws.read('a.txt')).toBe('hello world\n');
    });

    it.runIf(hasCommand('nvim') || CI)('a review answered after the agent gave up (its own request timeout) applies nothing', async () => {
      expect(present).toBe(true);
      const s = await session();
      // editls would wait a minute; the agent gives up after 3 s.
      const nvim = await editor(s, { agentEdits: 'review', reviewTimeoutMs: 60_000 });
      const id = agent.id;
      s.model.script([{ call: 'edit', args: args(id, { file_path: 'a.txt', old_string: 'hello', new_string: 'late' }) }], 'DONE');
      const running = agentRun(id, s, { toolTimeoutMs: 3000 });
      expect(await waitFor(() => nvim.prompts().length === 1, AGENT_EVENT_MS)).toBe(true);
      // The agent has given up when its model hears of the call (an error of the agent's own).
      expect(await waitFor(() => s.model.results().length === 1, AGENT_EVENT_MS)).toBe(true);
      const run = await running;
      expect(seen(s.model)[0]!.text, explain(run, s.model)).not.toMatch(/^editls\.edit: 1 replacement/);
      await nvim.answer(1);
      // editls tells the user, in Neovim's messages, that the answer came too late.
      let messages = '';
      for (const end = Date.now() + AGENT_EVENT_MS; !/no longer waiting for review/.test(messages) && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) messages = await nvim.messages();
      expect(messages, messages).toMatch(/no longer waiting for review \(withdrawn/);
      expect(await nvim.buffer('a.txt')).toBe('hello world\nUNSAVED a.txt\n');
      expect(s.ws.read('a.txt')).toBe('hello world\n');
    });
  });
}
