// A scripted LSP client for tests: spawns the real dist/editls.js over stdio, keeps buffers like an
// editor (didOpen/didChange with incremental ranges in the negotiated encoding) and applies the
// server's workspace/applyEdit with strict version checks, or refuses it as a given editor would.
// Positions are converted here independently of server code, so encoding bugs cannot cancel out.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  ApplyWorkspaceEditRequest,
  type ApplyWorkspaceEditParams,
  type ApplyWorkspaceEditResult,
  type ClientCapabilities,
  type ProtocolConnection,
  type TextEdit,
  type WorkspaceEdit,
  type Range,
  ResponseError,
} from 'vscode-languageserver/node';

export const SERVER_JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/editls.js');

export type Encoding = 'utf-8' | 'utf-16' | 'utf-32';

export const CAPS_VSCODE: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], changeAnnotationSupport: { groupsOnLabel: true } },
    configuration: true,
    workspaceFolders: true,
  },
  window: { workDoneProgress: true },
};
export const CAPS_NEOVIM_07: ClientCapabilities = {
  workspace: { applyEdit: true, workspaceEdit: { resourceOperations: ['rename', 'create', 'delete'] }, workspaceFolders: true, configuration: true },
  window: { workDoneProgress: true },
};
export const CAPS_EGLOT_19: ClientCapabilities = {
  workspace: { applyEdit: true, workspaceEdit: { documentChanges: true }, configuration: true },
};
export const CAPS_LSPMODE_8: ClientCapabilities = {
  workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] }, configuration: false },
  window: { workDoneProgress: true },
};
export const CAPS_HELIX: ClientCapabilities = {
  general: { positionEncodings: ['utf-8', 'utf-32', 'utf-16'] },
  workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'abort' }, workspaceFolders: true },
  window: { workDoneProgress: true },
};
/** lsp-mode 8's capabilities with utf-32 negotiated, for utf-32 tests whose edits carry \r (lsp-mode itself drops \r from edits). */
export const CAPS_UTF32: ClientCapabilities = { ...CAPS_LSPMODE_8, general: { positionEncodings: ['utf-32'] } };
export const CAPS_PLAIN_CHANGES: ClientCapabilities = { workspace: { applyEdit: true } };

export type ApplyBehavior = 'apply' | 'refuse' | 'error' | 'never' | ((params: ApplyWorkspaceEditParams) => ApplyWorkspaceEditResult | Promise<ApplyWorkspaceEditResult>);

export interface ClientOptions {
  root: string;
  folders?: string[];
  capabilities?: ClientCapabilities;
  clientName?: string;
  initializationOptions?: unknown;
  configuration?: unknown;
  applyBehavior?: ApplyBehavior;
  /** processId sent in initialize (default: this test process). */
  processId?: number;
  /** A command the server runs under, e.g. ['setpriv', '--reuid=65534', ...] for an unprivileged user. */
  runAs?: string[];
  /** The server's environment (default: this process's), e.g. a private XDG_RUNTIME_DIR. */
  env?: NodeJS.ProcessEnv;
}

export interface ClientBuffer {
  text: string;
  version: number;
  /** Opened through didOpen (the server knows it); false for buffers an applyEdit loaded. */
  announced: boolean;
  modified: boolean;
}

export class TestClient {
  readonly buffers = new Map<string, ClientBuffer>();
  readonly appliedEdits: WorkspaceEdit[] = [];
  readonly messages: string[] = [];
  readonly logs: string[] = [];
  /** The latest textDocument/publishDiagnostics per URI. */
  readonly diagnostics = new Map<string, { range: Range; message: string; severity?: number; code?: string | number; source?: string }[]>();
  /** $/progress notifications in arrival order. */
  readonly progress: { token: string | number; value: any }[] = [];
  /** Registrations the server asked for (client/registerCapability). */
  readonly registrations: { id: string; method: string; registerOptions?: any }[] = [];
  stderr = '';
  encoding: Encoding = 'utf-16';
  applyBehavior: ApplyBehavior;
  exitCode: Promise<number | null>;

  private constructor(
    readonly proc: ChildProcessWithoutNullStreams,
    readonly conn: ProtocolConnection,
    readonly options: ClientOptions,
  ) {
    this.applyBehavior = options.applyBehavior ?? 'apply';
    this.exitCode = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  }

  static async start(options: ClientOptions): Promise<TestClient> {
    const [cmd, ...prefix] = [...(options.runAs ?? []), process.execPath];
    const proc = spawn(cmd!, [...prefix, SERVER_JS, '--stdio'], { stdio: 'pipe', ...(options.env ? { env: options.env } : {}) });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    const client = new TestClient(proc, conn, options);
    proc.stderr.on('data', (d: { toString(): string }) => (client.stderr += d.toString()));
    conn.onRequest(ApplyWorkspaceEditRequest.type, (params: ApplyWorkspaceEditParams) => client.handleApplyEdit(params));
    conn.onRequest('workspace/configuration', () => [options.configuration ?? null]);
    conn.onRequest('client/registerCapability', (p: { registrations: { id: string; method: string; registerOptions?: any }[] }) => {
      client.registrations.push(...p.registrations);
      return null;
    });
    conn.onNotification('$/progress', (p: { token: string | number; value: any }) => void client.progress.push(p));
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onNotification('window/showMessage', (p: { message: string }) => void client.messages.push(p.message));
    conn.onNotification('window/logMessage', (p: { message: string }) => void client.logs.push(p.message));
    conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: any[] }) => void client.diagnostics.set(p.uri, p.diagnostics));
    conn.listen();
    const folders = options.folders ?? [options.root];
    const result = await conn.sendRequest('initialize', {
      processId: options.processId ?? process.pid,
      clientInfo: options.clientName ? { name: options.clientName } : undefined,
      rootUri: pathToFileURL(options.root).href,
      workspaceFolders: folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })),
      capabilities: options.capabilities ?? CAPS_VSCODE,
      initializationOptions: options.initializationOptions,
    });
    client.initializeResult = result as { capabilities: { positionEncoding?: Encoding; executeCommandProvider?: { commands: string[] } } };
    client.encoding = client.initializeResult.capabilities.positionEncoding ?? 'utf-16';
    await conn.sendNotification('initialized', {});
    return client;
  }

  initializeResult!: { capabilities: { positionEncoding?: Encoding; executeCommandProvider?: { commands: string[] } } };

  uri(rel: string): string {
    return pathToFileURL(path.join(this.options.root, rel)).href;
  }

  async open(rel: string, text?: string, languageId = 'plaintext'): Promise<void> {
    const uri = this.uri(rel);
    const content = text ?? readFileSync(path.join(this.options.root, rel), 'utf8').replace(/^\uFEFF/, '');
    this.buffers.set(uri, { text: content, version: 1, announced: true, modified: false });
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text: content } });
  }

  async close(rel: string): Promise<void> {
    const uri = this.uri(rel);
    this.buffers.delete(uri);
    await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Replaces `find` (first occurrence) in an open buffer as a user would, sending an incremental didChange. */
  async type(rel: string, find: string, replacement: string): Promise<void> {
    const uri = this.uri(rel);
    const buf = this.buffers.get(uri);
    if (!buf) throw new Error(`${rel} is not open`);
    const start = buf.text.indexOf(find);
    if (start < 0) throw new Error(`${find} not in ${rel}`);
    await this.changeRange(uri, start, start + find.length, replacement);
  }

  private async changeRange(uri: string, start: number, end: number, text: string): Promise<void> {
    const buf = this.buffers.get(uri)!;
    const change = this.editBuffer(uri, start, end, text);
    if (buf.announced) {
      await this.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: buf.version },
        contentChanges: [change],
      });
    }
  }

  /** Changes the buffer without telling the server; returns the incremental content change. */
  private editBuffer(uri: string, start: number, end: number, text: string): { range: Range; text: string } {
    const buf = this.buffers.get(uri)!;
    const range = { start: toPosition(buf.text, start, this.encoding), end: toPosition(buf.text, end, this.encoding) };
    buf.text = buf.text.slice(0, start) + text + buf.text.slice(end);
    buf.version += 1;
    buf.modified = true;
    return { range, text };
  }

  /**
   * Applies an edit the way Neovim 0.7.2 does and reports it the way its debounced didChange does:
   * only the first document edit's version is checked (a newer buffer skips the edit silently and
   * still answers applied:true); every TextEdit lands at once, but the server hears of the first
   * change at once and of the rest `debounceMs` later, in one didChange. `typing` is a user
   * keystroke landing in the same first didChange.
   */
  async applyLikeNeovim(params: ApplyWorkspaceEditParams, options: { debounceMs?: number; typing?: { find: string; replacement: string } } = {}): Promise<ApplyWorkspaceEditResult> {
    const docEdits = (params.edit.documentChanges ?? []).filter((c): c is Extract<typeof c, { textDocument: unknown }> => 'textDocument' in c);
    const first = docEdits[0];
    if (!first) return { applied: true };
    const uri = first.textDocument.uri;
    const buf = this.buffers.get(uri);
    if (!buf) throw new Error(`applyLikeNeovim: ${uri} is not open`);
    if (first.textDocument.version !== null && buf.version > first.textDocument.version) return { applied: true }; // "Buffer newer than edits."
    this.appliedEdits.push(params.edit);
    const spans = (first.edits as TextEdit[])
      .map((e) => ({ start: toOffset(buf.text, e.range.start, this.encoding), end: toOffset(buf.text, e.range.end, this.encoding), text: e.newText }))
      .sort((a, b) => b.start - a.start);
    // Spans go last to first, so the first change is the last one in the text and the keystroke
    // (which must come after it in the text) leaves the others' offsets alone.
    const firstBatch = spans.slice(0, 1).map((sp) => this.editBuffer(uri, sp.start, sp.end, sp.text));
    if (options.typing) {
      const at = buf.text.indexOf(options.typing.find, spans[0]!.start + spans[0]!.text.length);
      if (at < 0) throw new Error(`${options.typing.find} not after the last edit in ${uri}`);
      firstBatch.push(this.editBuffer(uri, at, at + options.typing.find.length, options.typing.replacement));
    }
    const firstVersion = buf.version;
    const rest = spans.slice(1).map((sp) => this.editBuffer(uri, sp.start, sp.end, sp.text));
    const restVersion = buf.version;
    await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: firstVersion }, contentChanges: firstBatch });
    if (rest.length > 0) {
      setTimeout(() => {
        void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: restVersion }, contentChanges: rest });
      }, options.debounceMs ?? 150);
    }
    return { applied: true };
  }

  bufferText(rel: string): string | undefined {
    return this.buffers.get(this.uri(rel))?.text;
  }

  async exec<T = any>(command: string, args: unknown): Promise<T> {
    return (await this.conn.sendRequest('workspace/executeCommand', { command, arguments: [args] })) as T;
  }

  /** Runs a command and returns the ResponseError it fails with (throws if it succeeds). */
  async execError(command: string, args: unknown): Promise<{ code: number; message: string; data: any }> {
    try {
      const r = await this.exec(command, args);
      throw new Error(`expected ${command} to fail, got ${JSON.stringify(r).slice(0, 500)}`);
    } catch (error) {
      if (error instanceof ResponseError) return { code: error.code, message: error.message, data: error.data as any };
      throw error;
    }
  }

  private async handleApplyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    const behavior = this.applyBehavior;
    if (typeof behavior === 'function') return behavior(params);
    if (behavior === 'never') return new Promise<ApplyWorkspaceEditResult>(() => {}); // an editor that never answers
    if (behavior === 'refuse') return { applied: false, failureReason: 'user declined' };
    if (behavior === 'error') throw new ResponseError(-32603, 'Edits on a.txt require version 2, you have 3');
    return this.applyStrict(params);
  }

  /** Applies an edit the way VS Code / lsp-mode do: every versioned document checked first, all or nothing. */
  async applyStrict(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    const edit = params.edit;
    // Check every versioned document edit before applying anything (lsp-mode / VS Code behaviour).
    for (const change of edit.documentChanges ?? []) {
      if ('textDocument' in change && change.textDocument.version !== null) {
        const buf = this.buffers.get(change.textDocument.uri);
        if (buf && buf.version !== change.textDocument.version) {
          return { applied: false, failureReason: `document has changed (version ${buf.version}, edit for ${change.textDocument.version})` };
        }
      }
    }
    this.appliedEdits.push(edit);
    const perUri: [string, TextEdit[]][] = [];
    for (const change of edit.documentChanges ?? []) {
      if ('kind' in change) {
        if (change.kind === 'create') {
          const p = fileURLToPath(change.uri);
          if (!this.buffers.has(change.uri)) {
            if (existsSync(p) && !(change.options?.overwrite)) {
              if (!change.options?.ignoreIfExists) throw new Error('CreateFile on an existing file without ignoreIfExists');
            }
            this.buffers.set(change.uri, { text: existsSync(p) ? readFileSync(p, 'utf8') : '', version: 0, announced: false, modified: true });
          }
        }
        continue;
      }
      perUri.push([change.textDocument.uri, change.edits as TextEdit[]]);
    }
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) perUri.push([uri, edits as TextEdit[]]);
    for (const [uri, edits] of perUri) {
      if (!this.buffers.has(uri)) {
        // Like every editor: load the unopened file into a modified, unsaved buffer.
        const p = fileURLToPath(uri);
        this.buffers.set(uri, { text: readFileSync(p, 'utf8').replace(/^\uFEFF/, ''), version: 0, announced: false, modified: true });
      }
      const buf = this.buffers.get(uri)!;
      const spans = edits
        .map((e) => ({ start: toOffset(buf.text, e.range.start, this.encoding), end: toOffset(buf.text, e.range.end, this.encoding), text: e.newText }))
        .sort((a, b) => b.start - a.start);
      for (const s of spans) await this.changeRange(uri, s.start, s.end, s.text);
    }
    return { applied: true };
  }

  async shutdown(): Promise<number | null> {
    try {
      await this.conn.sendRequest('shutdown');
      await this.conn.sendNotification('exit');
    } catch {
      /* already gone */
    }
    const code = await Promise.race([this.exitCode, new Promise<null>((r) => setTimeout(() => r(null), 3000))]);
    this.conn.dispose();
    this.proc.kill();
    return code;
  }
}

/**
 * `before` with every TextEdit of `edit` applied (documentChanges or changes, the documents taken
 * together: the callers edit one file), positions read in `encoding`; independent of the server.
 */
export function applyWorkspaceEdit(before: string, edit: any, encoding: Encoding): string {
  const edits: TextEdit[] = edit.documentChanges ? edit.documentChanges.flatMap((c: any) => c.edits ?? []) : Object.values(edit.changes ?? {}).flat();
  const spans = edits
    .map((e) => ({ start: toOffset(before, e.range.start, encoding), end: toOffset(before, e.range.end, encoding), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  let out = before;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** UTF-16 offset -> LSP position in `encoding` (independent of the server's implementation). */
export function toPosition(text: string, offset: number, encoding: Encoding): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: units(text.slice(lineStart, offset), encoding) };
}

export function toOffset(text: string, pos: { line: number; character: number }, encoding: Encoding): number {
  let line = 0;
  let i = 0;
  while (line < pos.line && i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
    i++;
  }
  let count = 0;
  while (i < text.length && count < pos.character) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    const cp = text.codePointAt(i)!;
    count += encoding === 'utf-16' ? (cp > 0xffff ? 2 : 1) : encoding === 'utf-32' ? 1 : Buffer.byteLength(String.fromCodePoint(cp));
    i += cp > 0xffff ? 2 : 1;
  }
  if (count !== pos.character) throw new Error(`position ${JSON.stringify(pos)} does not fall on a character boundary (${encoding})`);
  return i;
}

function units(s: string, encoding: Encoding): number {
  if (encoding === 'utf-16') return s.length;
  if (encoding === 'utf-8') return Buffer.byteLength(s);
  return [...s].length;
}

export type { Range };
