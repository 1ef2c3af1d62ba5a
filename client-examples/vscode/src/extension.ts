// The editls extension for VS Code: starts the editls server (`editls.serverPath`, default `editls`
// on PATH) with vscode-languageclient and registers every editls command at activation, before the
// server is up. A command run with arguments (a keybinding's `args`, another extension, a code
// action) goes to the server as given; run bare (the command palette) it asks for what it needs
// (src/prompts.ts). Failures show as one readable line: the message and its kind.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  ResponseError,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
  type DynamicFeature,
} from 'vscode-languageclient/node';
import { promptFor, type Prompted } from './prompts';

/** Every command the editls server serves (its executeCommandProvider.commands). */
export const SERVER_COMMANDS = [
  'editls.edit',
  'editls.strReplace',
  'editls.proposeStrReplace',
  'editls.searchAndReplace',
  'editls.replaceRange',
  'editls.insert',
  'editls.undo',
  'editls.applyPreview',
  'editls.discardPreview',
  'editls.trimTrailingWhitespace',
  'editls.normalizeLineEndings',
  'editls.searchFiles',
  'editls.replaceInFiles',
  'editls.readFile',
  'editls.sendToAgent',
] as const;

/** Settings of this extension that are not the server's (never sent to it). */
const CLIENT_ONLY_SETTINGS = ['serverPath', 'trace'];
/** How long a command waits for the server to start before it says so. */
const START_DEADLINE_MS = 30_000;

let client: LanguageClient | undefined;
let starting: Promise<LanguageClient> | undefined;
let output: vscode.LogOutputChannel;
/** The newest previewId an editls result carried (Apply/Discard Preview's default). */
let lastPreview: string | undefined;

/**
 * vscode-languageclient would register the server's commands itself once the server is up (so for
 * the first seconds they are "not found", and bare palette runs would send no arguments). This
 * extension registers them at activation instead, so the client's own registration is left out.
 */
class EditlsLanguageClient extends LanguageClient {
  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    const method = (feature as Partial<DynamicFeature<unknown>>).registrationType?.method;
    if (method === ExecuteCommandRequest.method) return;
    super.registerFeature(feature);
  }
}

function serverOptions(serverPath: string): ServerOptions {
  // A checkout's dist/editls.js runs on VS Code's own Node; anything else is a command (PATH or absolute).
  if (/\.[cm]?js$/u.test(serverPath)) {
    const module = { module: serverPath, transport: TransportKind.stdio };
    return { run: module, debug: module };
  }
  const command = { command: serverPath, args: ['--stdio'], options: { shell: process.platform === 'win32' } };
  return { run: command, debug: command };
}

function clientOptions(): LanguageClientOptions {
  return {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    outputChannel: output,
    middleware: {
      workspace: {
        // The server reads section "editls"; this extension's own settings are left out of it.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return answers.map((answer, i) => {
            if (params.items[i]?.section !== 'editls' || answer === null || typeof answer !== 'object') return answer;
            const copy: Record<string, unknown> = { ...(answer as Record<string, unknown>) };
            for (const key of CLIENT_ONLY_SETTINGS) delete copy[key];
            return copy;
          });
        },
      },
    },
  };
}

/** Where `command` is: itself when it names a file, else the first match on PATH (undefined: none). */
function locate(command: string): string | undefined {
  const isFile = (p: string) => {
    try {
      fs.accessSync(p, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/') || command.includes('\\')) return isFile(command) || /\.[cm]?js$/u.test(command) ? command : undefined;
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const ext of exts) if (dir !== '' && isFile(path.join(dir, command + ext))) return path.join(dir, command + ext);
  }
  return undefined;
}

function startClient(): Promise<LanguageClient> {
  const serverPath = vscode.workspace.getConfiguration('editls').get<string>('serverPath')?.trim() || 'editls';
  if (locate(serverPath) === undefined || (/\.[cm]?js$/u.test(serverPath) && !fs.existsSync(serverPath))) {
    // Said once, with what to do (vscode-languageclient would add a second, vaguer notification).
    const error = new Error(
      `editls: the server "${serverPath}" was not found${serverPath.includes('/') ? '' : ' on PATH'}: install editls (npm install -g from a clone) or set editls.serverPath to its dist/editls.js`,
    );
    starting = Promise.reject(error);
    starting.catch(() => undefined);
    return starting;
  }
  const c = new EditlsLanguageClient('editls', 'editls', serverOptions(serverPath), clientOptions());
  client = c;
  starting = c.start().then(
    () => c,
    (error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      const hint = /ENOENT|not found/iu.test(why)
        ? ` "${serverPath}" was not found: install editls (npm install -g from a clone) or set editls.serverPath to its dist/editls.js`
        : '';
      throw new Error(`editls could not start (${why}).${hint}`);
    },
  );
  starting.catch(() => undefined);
  return starting;
}

/** The running client; waits for it to start, at most START_DEADLINE_MS. */
async function ready(): Promise<LanguageClient> {
  const pending = starting ?? startClient();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`editls did not start within ${START_DEADLINE_MS / 1000} s; see "editls: Show Output"`)), START_DEADLINE_MS);
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the server itself shows each summary and each failure with a kind (summary "message"). */
function serverShowsSummaries(): boolean {
  return vscode.workspace.getConfiguration('editls').get<string>('summary') === 'message';
}

/** One readable line for a failure: editls's message and its kind (data.kind), never [object Object]. */
export function errorText(error: unknown): string {
  if (error instanceof ResponseError) {
    const data = error.data as { kind?: unknown } | undefined;
    const kind = data && typeof data.kind === 'string' ? ` (${data.kind})` : '';
    return `editls: ${error.message}${kind}`;
  }
  if (error instanceof Error) return error.message.startsWith('editls') ? error.message : `editls: ${error.message}`;
  return `editls: ${String(error)}`;
}

function hasKind(error: unknown): boolean {
  return error instanceof ResponseError && typeof (error.data as { kind?: unknown } | undefined)?.kind === 'string';
}

/**
 * Sends one command to the server. The summary and any failure are shown (once: not again when the
 * server shows them itself). `rethrow`: the caller gave arguments (a keybinding, another extension,
 * a code action) and gets the failure as an Error with that same line; a bare run answers undefined.
 */
async function execute(command: string, args: unknown, rethrow: boolean): Promise<unknown> {
  try {
    const c = await ready();
    const result = (await c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args ?? {}] })) as Record<string, unknown> | null;
    // A preview applied or discarded is gone: Apply/Discard Preview's default falls back to the active file's.
    if ((command === 'editls.applyPreview' || command === 'editls.discardPreview') && (args as { id?: unknown } | undefined)?.id === lastPreview) lastPreview = undefined;
    if (result && typeof result.previewId === 'string') lastPreview = result.previewId;
    if (!serverShowsSummaries() && result && typeof result.message === 'string') void vscode.window.showInformationMessage(result.message);
    return result;
  } catch (error) {
    const text = errorText(error);
    output.error(text);
    if (!(serverShowsSummaries() && hasKind(error))) void vscode.window.showErrorMessage(text);
    if (rethrow) throw new Error(text);
    return undefined;
  }
}

/** A command's handler: with arguments it runs as given; bare, it asks for them first. */
function handler(command: string) {
  return async (...args: unknown[]): Promise<unknown> => {
    if (args.length > 0 && args[0] !== undefined) return execute(command, args[0], true);
    const prompted: Prompted | undefined = await promptFor(command, { lastPreview, execute: (id, a) => execute(id, a, false) });
    if (prompted === undefined) return undefined;
    if (prompted.done) return prompted.result;
    return execute(prompted.command, prompted.args, false);
  };
}

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel('editls', { log: true });
  for (const command of SERVER_COMMANDS) context.subscriptions.push(vscode.commands.registerCommand(command, handler(command)));
  for (const command of ['editls.symbols', 'editls.undoFile']) context.subscriptions.push(vscode.commands.registerCommand(command, handler(command)));
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('editls.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('editls.restart', async () => {
      await stopClient();
      await startClient().catch(showStartFailure);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration('editls')) return;
      if (event.affectsConfiguration('editls.serverPath')) {
        await stopClient();
        void startClient().catch(showStartFailure);
        return;
      }
      // The server asks for section "editls" again (workspace/configuration) when told it changed.
      if (client?.isRunning()) void client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }),
  );
  startClient().catch(showStartFailure);
}

/** A start failure, with a button to the setting that fixes most of them. */
function showStartFailure(error: unknown): void {
  void vscode.window.showErrorMessage(errorText(error), 'Open Settings').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'editls.serverPath');
  });
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  starting = undefined;
  if (c) await c.stop(2000).catch(() => undefined);
}

export function deactivate(): Promise<void> {
  return stopClient();
}
