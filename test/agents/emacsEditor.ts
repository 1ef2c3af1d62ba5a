// The user's editor in the IDE agent tests, second kind: batch Emacs 28 with Eglot 1.9 and editls
// through the shipped client-examples/emacs/editls.el (test/agents/emacs-agent-editor.el), talked
// to through files in the workspace: what it showed the user (.messages), the review prompts
// (.prompts), the answer typed (.answer), and the buffers at the end (.result.json).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_JS } from '../helpers/lspClient.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SETUP = path.join(REPO, 'test/agents/emacs-agent-editor.el');

export interface BufferState {
  text: string;
  modified: boolean;
}

export class EmacsEditor {
  private constructor(
    private readonly proc: ChildProcess,
    private readonly ws: TempWorkspace,
    readonly stderr: () => string,
  ) {}

  static async start(options: { ws: TempWorkspace; xdg: string; open: string[]; clean: string[] }): Promise<EmacsEditor> {
    const env = { ...process.env, WS: options.ws.root, REPO, SERVER: SERVER_JS, OPEN: options.open.join(','), CLEAN: options.clean.join(','), XDG_RUNTIME_DIR: options.xdg, HOME: path.join(options.ws.root, '.home'), CLAUDE_CONFIG_DIR: path.join(options.ws.root, '.home', '.claude'), OUT: path.join(options.ws.root, '.unused.json') };
    const proc = spawn('emacs', ['--batch', '-Q', '-l', SETUP], { cwd: options.ws.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d) => (stderr += String(d)));
    proc.stdout!.on('data', () => undefined);
    const ready = path.join(options.ws.root, '.editor-ready');
    if (!(await waitFor(() => existsSync(ready) || proc.exitCode !== null, 60_000))) throw new Error(`Emacs did not get ready: ${stderr}`);
    const status = existsSync(ready) ? readFileSync(ready, 'utf8') : `exited ${proc.exitCode}`;
    if (status !== 'ok') throw new Error(`Emacs set-up failed: ${status}\n${stderr}`);
    return new EmacsEditor(proc, options.ws, () => stderr);
  }

  private lines(name: string): string[] {
    const file = path.join(this.ws.root, name);
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
  }

  /** What Emacs showed the user (messages, one per line). */
  messages(): string {
    return this.lines('.messages').join('\n');
  }

  /** The review prompts asked so far (Eglot's prompt around editls's message). */
  prompts(): string[] {
    return this.lines('.prompts');
  }

  /** Picks a choice at the open prompt, as a user does. */
  answer(title: 'Apply' | 'Discard'): void {
    writeFileSync(path.join(this.ws.root, '.answer'), title);
  }

  /** Runs editls.sendToAgent in Emacs (what its code action runs). */
  send(file: string, startLine: number, endLine: number): void {
    // Whole or not at all: Emacs polls for the file and reads it as soon as it is there.
    const temp = path.join(this.ws.root, '.send.tmp');
    writeFileSync(temp, JSON.stringify({ path: file, startLine, endLine }));
    renameSync(temp, path.join(this.ws.root, '.send'));
  }

  /** Ends the session: once auto-revert brought `file` to the disk's text (none: at once), the buffers as Emacs holds them. */
  async finish(file: string): Promise<Record<string, BufferState>> {
    writeFileSync(path.join(this.ws.root, '.finish'), file);
    const result = path.join(this.ws.root, '.result.json');
    if (!(await waitFor(() => existsSync(result), 60_000))) throw new Error(`Emacs recorded no result: ${this.stderr()}`);
    return JSON.parse(readFileSync(result, 'utf8')) as Record<string, BufferState>;
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    writeFileSync(path.join(this.ws.root, '.finish'), 'a.txt');
    if (!(await waitFor(() => this.proc.exitCode !== null, 30_000))) this.proc.kill('SIGKILL');
  }
}
