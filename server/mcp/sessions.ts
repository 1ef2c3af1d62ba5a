// The agent side's one code path: a JSON-RPC connection to an editls session that serves
// workspace/executeCommand and workspace/symbol — attached (the editor's editls, over its private
// socket, after `editls/attach` with the record's token) or headless (an editls session started in
// this process on `--root`, writing to disk). Every call re-checks: a closed editor session is
// replaced by a newly discovered one or by headless, and the result notes the switch.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import {
  CancellationTokenSource,
  createConnection,
  createMessageConnection,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  type MessageConnection,
} from 'vscode-languageserver/node';
import { ATTACH_METHOD } from '../attach/listener.js';
import { FrameWriter } from '../protocol/frameWriter.js';
import type { DiscoveryRecord } from '../attach/records.js';
import { startServer } from '../server.js';
import { folderChange } from '../workspace/disk/folders.js';
import { toResponseError } from '../protocol/errors.js';
import { fail } from '../core/result.js';
import { matchingEditors, type DiscoveryInputs } from './discovery.js';

export interface SessionInfo {
  mode: 'attached' | 'headless';
  /** e.g. "Neovim's editls (pid 123)" or "headless on /work/proj". */
  label: string;
  pid?: number;
  editor?: string;
}

interface Session extends SessionInfo {
  conn: MessageConnection;
  /** Settles when the session can take requests (headless: after initialize). */
  ready: Promise<unknown>;
  closed: boolean;
  dispose(): void;
}

/** A call's outcome: the reply (a ResponseError for a failure) and notes about session changes. */
export interface CallOutcome {
  reply: unknown;
  session: SessionInfo;
  notes: string[];
}

export interface SessionOptions extends DiscoveryInputs {
  clientInfo: { name: string; version?: string };
  /** Per attempt: connecting and the attach handshake. */
  attachTimeoutMs?: number;
  /**
   * Starts ripgrep's helper process (workspace/search/ripgrepHelper.ts, from main.ts) when the session goes
   * headless, so that its searches do not fork this process once it holds an index; absent, ripgrep
   * is spawned from here (Windows).
   */
  startRipgrepHelper?: () => void;
}

/** How long connecting and the attach handshake may take: a busy editor answers within it, a stopped one does not. */
const ATTACH_TIMEOUT_MS = 5000;

export class Sessions {
  private current: Session | undefined;
  private lastLabel: string | undefined;
  /** Who this agent is in an editor's undo journal: its changes, and only those, are what its undo reverts. */
  private readonly requester = randomBytes(16).toString('hex');

  constructor(private readonly options: SessionOptions) {}

  /** `signal`: the agent's cancellation of the call (notifications/cancelled); it reaches the session as $/cancelRequest. */
  async call(method: string, params: unknown, signal?: AbortSignal): Promise<CallOutcome> {
    const notes: string[] = [];
    // The agent's folder is its boundary, held since start: one replaced since (by a link, or moved
    // away) is refused before any session is made on it, attached or headless.
    const changed = folderChange(this.options.root);
    if (changed !== undefined) {
      const reply = toResponseError(fail('outside_workspace', `the agent's folder ${this.options.root} ${changed} since editls mcp started; nothing was read or changed: restart editls mcp in the folder to use`, { folder: this.options.root }));
      return { reply, session: this.current ? info(this.current) : { mode: 'headless', label: `headless on ${this.options.root}` }, notes };
    }
    const session = await this.ensure(notes);
    if ('unreachable' in session) {
      const reply = toResponseError(fail('io_error', session.unreachable, { editor: session.editor }));
      return { reply, session: this.info(), notes };
    }
    try {
      await session.ready;
      const source = new CancellationTokenSource();
      const cancel = () => source.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      if (signal?.aborted) source.cancel();
      try {
        const reply = await session.conn.sendRequest(method, params, source.token);
        return { reply, session: info(session), notes };
      } finally {
        signal?.removeEventListener('abort', cancel);
        source.dispose();
      }
    } catch (error) {
      if (error instanceof ResponseError && !session.closed) return { reply: error, session: info(session), notes };
      // The connection went away mid-call: whether the edit landed is unknown.
      session.closed = true;
      return { reply: lostDuringCall(session, error), session: info(session), notes };
    }
  }

  /** The session calls go to now (headless on the agent's folder until one was made). */
  info(): SessionInfo {
    return this.current ? info(this.current) : { mode: 'headless', label: `headless on ${this.options.root}` };
  }

  dispose(): void {
    this.current?.dispose();
    this.current = undefined;
  }

  /**
   * The session for this call: the editor's editls serving the agent's folder, else headless. An
   * editor whose editls serves the folder (its record matches and its socket accepts connections) but
   * does not complete the attach handshake is not worked around: the call is refused, since working
   * headless would write to disk behind its open buffers.
   */
  private async ensure(notes: string[]): Promise<Session | { unreachable: string; editor: string }> {
    let s = this.current;
    if (s?.closed) {
      notes.push(`${s.label} has exited`);
      s.dispose();
      this.current = s = undefined;
    }
    if (s === undefined || s.mode === 'headless') {
      const attached = await this.attach();
      if (attached && 'unreachable' in attached) return attached;
      if (attached) {
        if (s) s.dispose();
        this.current = s = attached;
      }
    }
    if (s === undefined) this.current = s = this.headless();
    if (s.label !== this.lastLabel) {
      notes.push(s.mode === 'attached' ? `attached to ${s.label}: edits go into the editor's buffers` : `working ${s.label}: no editor attached, edits are written to disk`);
      this.lastLabel = s.label;
    }
    return s;
  }

  private async attach(): Promise<Session | { unreachable: string; editor: string } | undefined> {
    let unreachable: { unreachable: string; editor: string } | undefined;
    for (const record of await matchingEditors(this.options)) {
      try {
        return await this.connect(record);
      } catch (error) {
        // An editls that answers "not your folder" (its folders changed) does not serve it: look on.
        if (error instanceof ResponseError && (error.data as { kind?: unknown } | undefined)?.kind === 'attach_refused') continue;
        const why = error instanceof Error ? error.message : String(error);
        unreachable ??= {
          editor: record.clientName,
          unreachable: `${record.clientName}'s editls (pid ${record.pid}) serves ${this.options.root} but could not be reached (${why}); nothing was read or changed, since working without it would write to disk behind its open buffers. Check that ${record.clientName} is responsive and call again, or close it to work on the files directly`,
        };
      }
    }
    if (unreachable) return unreachable;
    return undefined;
  }

  private connect(record: DiscoveryRecord): Promise<Session> {
    const timeoutMs = this.options.attachTimeoutMs ?? ATTACH_TIMEOUT_MS;
    return new Promise<Session>((resolve, reject) => {
      const socket = net.connect(record.endpoint);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('attach timed out'));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        const conn = createMessageConnection(new StreamMessageReader(socket), new FrameWriter(socket));
        const session: Session = {
          mode: 'attached',
          label: `${record.clientName}'s editls (pid ${record.pid})`,
          pid: record.pid,
          editor: record.clientName,
          conn,
          ready: Promise.resolve(),
          closed: false,
          dispose: () => {
            conn.dispose();
            socket.destroy();
          },
        };
        // A closed socket does not fail the requests in flight by itself: disposing the connection does.
        const markClosed = () => {
          if (session.closed) return;
          session.closed = true;
          conn.dispose();
        };
        socket.on('close', markClosed);
        socket.on('error', markClosed);
        conn.onClose(markClosed);
        conn.listen();
        conn.sendRequest(ATTACH_METHOD, { token: record.token, clientInfo: this.options.clientInfo, root: this.options.root, requester: this.requester }).then(
          () => {
            clearTimeout(timer);
            resolve(session);
          },
          (error: unknown) => {
            clearTimeout(timer);
            session.dispose();
            reject(error);
          },
        );
      });
    });
  }

  /** An editls session in this process on the agent's folder: the same server, fed by an in-memory pipe. */
  private headless(): Session {
    // Before the index exists, while this process is still small (as editls --stdio does at start-up).
    this.options.startRipgrepHelper?.();
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const toClientWriter = new FrameWriter(toClient);
    const server = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), toClientWriter);
    const served = startServer(server, { foldersAreReal: true, pendingWrites: () => toClientWriter.pendingWrites() });
    const conn = createMessageConnection(new StreamMessageReader(toClient), new FrameWriter(toServer));
    // A minimal client: no buffers, so nothing is ever applied through it.
    conn.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'editls mcp is headless: no editor is attached' }));
    conn.onRequest('workspace/configuration', (p: { items?: unknown[] }) => (p.items ?? []).map(() => null));
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('window/showMessageRequest', () => null);
    conn.listen();
    const root = this.options.root;
    const ready = conn
      .sendRequest('initialize', {
        processId: null,
        clientInfo: { name: `editls mcp (${this.options.clientInfo.name})` },
        rootUri: pathToFileURL(root).href,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: path.basename(root) }],
        capabilities: { workspace: { workspaceEdit: { documentChanges: true } } },
        // The tools drop a result's TextEdits (results.ts): changes written to disk get none built.
        initializationOptions: { maxResultEdits: 0 },
      })
      .then(() => conn.sendNotification('initialized', {}));
    return {
      mode: 'headless',
      label: `headless on ${root}`,
      conn,
      ready,
      closed: false,
      dispose: () => {
        // Its index build and sweeps end with it (an editor's editls taking over, or editls mcp exiting).
        served.stop();
        conn.dispose();
        server.dispose();
      },
    };
  }
}

function info(s: Session): SessionInfo {
  return { mode: s.mode, label: s.label, ...(s.pid !== undefined ? { pid: s.pid } : {}), ...(s.editor !== undefined ? { editor: s.editor } : {}) };
}

function lostDuringCall(s: Session, error: unknown): { lost: true; message: string } {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    lost: true,
    message: `${s.label} exited during the call (${detail}); the change may or may not have been made — read the file to check before retrying; the next call re-discovers the editor or works headless`,
  };
}
