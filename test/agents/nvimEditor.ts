// The user's editor in the agent tests: headless Neovim 0.7.2 with editls through the shipped
// client-examples/neovim/editls.lua (test/agents/nvim-agent-editor.lua sets it up), driven from the
// test over Neovim's own server socket (`nvim --server … --remote-expr / --remote-send`): buffer texts,
// 'modified', one undo, and answers typed at its review prompt (inputlist()).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_JS } from '../helpers/lspClient.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { EVENTUALLY_MS, waitFor } from '../helpers/waitFor.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SETUP = path.join(REPO, 'test/agents/nvim-agent-editor.lua');
/** The bound on the editor's set-up: the script itself waits up to 20 s for editls to attach to each file. */
const AGENT_EDITOR_MS = 60_000;

export interface EditorOptions {
  ws: TempWorkspace;
  /** $XDG_RUNTIME_DIR of the editor (its editls publishes its discovery record below it). */
  xdg: string;
  /** Files opened, each given an unsaved last line `UNSAVED <name>`. */
  open: string[];
  /** Files opened as they are on disk (no unsaved change). */
  clean?: string[];
  /** editls's initializationOptions (e.g. agentEdits: "review"). */
  init?: Record<string, unknown>;
}

export class NeovimEditor {
  private constructor(
    private readonly proc: ChildProcess,
    private readonly socket: string,
    private readonly ws: TempWorkspace,
    readonly stderr: () => string,
  ) {}

  static async start(options: EditorOptions): Promise<NeovimEditor> {
    const socket = path.join(options.ws.root, '.nvim.sock');
    const env = { ...process.env, WS: options.ws.root, REPO, SERVER: SERVER_JS, OPEN: options.open.join(','), CLEAN: (options.clean ?? []).join(','), EDITLS_INIT: JSON.stringify(options.init ?? {}), XDG_RUNTIME_DIR: options.xdg, HOME: path.join(options.ws.root, '.home'), CLAUDE_CONFIG_DIR: path.join(options.ws.root, '.home', '.claude'), TERM: 'dumb' };
    const proc = spawn('nvim', ['--headless', '--clean', '-u', 'NONE', '--listen', socket, '-c', `luafile ${SETUP}`], { cwd: options.ws.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d) => (stderr += String(d)));
    proc.stdout!.on('data', () => undefined);
    const ready = path.join(options.ws.root, '.editor-ready');
    // The script renames the file into place whole (nvim-agent-editor.lua), so it is read only once it exists.
    if (!(await waitFor(() => existsSync(ready), AGENT_EDITOR_MS))) throw new Error(`Neovim did not get ready: ${stderr}`);
    const status = readFileSync(ready, 'utf8');
    if (status !== 'ok') throw new Error(`Neovim set-up failed: ${status}\n${stderr}`);
    return new NeovimEditor(proc, socket, options.ws, () => stderr);
  }

  /** A Vim expression evaluated in the editor (not while a prompt blocks it); Neovim 0.7 prints the value on stderr. */
  expr(expression: string): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile('nvim', ['--server', this.socket, '--remote-expr', expression], { timeout: EVENTUALLY_MS }, (error, stdout, stderr) => (error ? reject(error) : resolve(stdout + stderr))),
    );
  }

  /** Keys typed into the editor (also while a prompt waits for them). */
  keys(keys: string): Promise<void> {
    return new Promise((resolve, reject) => execFile('nvim', ['--server', this.socket, '--remote-send', keys], { timeout: EVENTUALLY_MS }, (error) => (error ? reject(error) : resolve())));
  }

  private bufExpr(name: string): string {
    return `bufnr(${JSON.stringify(path.join(this.ws.root, name))})`;
  }

  /** A value of the editor as JSON (the terminal's line endings on stderr cannot change it). */
  async value<T>(expression: string): Promise<T> {
    return JSON.parse((await this.expr(`json_encode(${expression})`)).trim()) as T;
  }

  /** The buffer's text as Neovim holds it (lines joined with \n, a final \n when 'eol'). */
  async buffer(name: string): Promise<string> {
    const b = this.bufExpr(name);
    const [lines, eol] = await this.value<[string[], number]>(`[getbufline(${b}, 1, "$"), getbufvar(${b}, "&eol")]`);
    return lines.join('\n') + (eol ? '\n' : '');
  }

  async modified(name: string): Promise<boolean> {
    return (await this.value<number>(`getbufvar(${this.bufExpr(name)}, "&modified")`)) === 1;
  }

  /** One `u` in the buffer. */
  async undo(name: string): Promise<void> {
    await this.expr(`execute("buffer " . ${this.bufExpr(name)} . " | silent undo")`);
  }

  /** The review prompts shown so far, in order. */
  prompts(): string[] {
    const file = path.join(this.ws.root, '.prompts');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
  }

  /** Answers the open prompt with its Nth choice (1: Apply, 2: Discard), as a user types it. */
  async answer(choice: number): Promise<void> {
    await this.keys(`${choice}<CR>`);
  }

  /** What editls told the user, in full (the editls client keeps its messages for :EditlsMessages). */
  async messages(): Promise<string> {
    return (await this.value<string[]>('luaeval("_G.editls_client.messages")')).join('\n');
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    await this.keys('<Esc>:qa!<CR>').catch(() => undefined);
    const exited = await waitFor(() => this.proc.exitCode !== null || this.proc.signalCode !== null, 5000);
    if (!exited) this.proc.kill('SIGKILL');
  }
}
