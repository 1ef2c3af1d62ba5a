// The agent CLIs' own IDE integrations, served by the editor's editls (server/ide/): Claude Code's
// (WebSocket MCP, lock file in ~/.claude/ide/) and Gemini CLI's IDE companion (MCP over HTTP,
// discovery file in <tmpdir>/gemini/ide/), each on when its setting says so. This file builds what
// they need from the server's state (ide/host.ts): the open files and the last selection, reviews
// whose prompts and previews are the editor's, and window/showDocument.
import { MessageType, ShowDocumentRequest, type Connection } from 'vscode-languageserver';
import { askUser } from './agentRequests.js';
import { isAtOrInside } from './core/containment.js';
import { fail, type Result } from './core/result.js';
import type { ResolvedPath, Snapshot } from './commands/ports/files.js';
import { DiffReviews } from './ide/diffReview.js';
import type { EditorSelection, IdeHost } from './ide/host.js';
import type { IdeServerHandle } from './ide/geminiCompanion.js';
import type { AttachHooks } from './server.js';
import type { Settings } from './settings.js';
import type { AgentsPort } from './commands/ports/agents.js';
import { createContext, type ServerState } from './workspace/context.js';
import { readTextFile } from './workspace/disk/fileCodec.js';
import { uriToPath } from './workspace/disk/paths.js';
import type { Previews } from './workspace/editor/previews.js';
import { showDocumentQuietly, showMessageQuietly } from './protocol/quietSend.js';

export interface IdeServerDeps {
  state: () => ServerState;
  settings: () => Settings;
  clientName: () => string;
  /** The client supports window/showDocument. */
  showDocument: () => boolean;
  previews: Previews;
  connection: Connection;
  place: AttachHooks;
  /** The editor's pid (initialize's processId), if it gave one. */
  editorPid: () => number | undefined;
  isProcessAlive: (pid: number) => boolean;
  log: (message: string) => void;
  warn: (message: string) => void;
}

export interface IdeServers extends AgentsPort {
  /** The editor showed editls a range of a document (a code action request): the agents' context follows. */
  selectionSeen(uri: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): void;
  /** A document was opened, changed or closed. */
  documentsChanged(uri: string): void;
  /** The workspace folders changed (the discovery files name them). */
  foldersChanged(): void;
  /** Starts or stops each server after the settings changed (also the first start). */
  settingsChanged(): Promise<void>;
  close(): void;
}

/** How long context changes gather before the agents hear of them. */
const CONTEXT_DEBOUNCE_MS = 150;

export function ideServers(deps: IdeServerDeps): IdeServers {
  const { connection } = deps;
  const listeners = new Set<() => void>();
  const touched = new Map<string, number>();
  let selection: EditorSelection | undefined;
  // Strictly increasing, so that the file touched last sorts first even within one millisecond.
  let lastStamp = 0;
  const stamp = () => (lastStamp = Math.max(Date.now(), lastStamp + 1));
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      for (const l of listeners) l();
    }, CONTEXT_DEBOUNCE_MS);
    timer.unref();
  };
  const inFolders = (p: string) => deps.state().folders.some((f) => isAtOrInside(p, f));
  const { documents } = deps.state();
  /** The file resolved in the editor's folders and its text as editls sees it (the open buffer first). */
  const fileNow = async (file: string): Promise<Result<{ resolved: ResolvedPath; snapshot: Snapshot }>> => {
    const ctx = createContext(deps.state(), { signal: new AbortController().signal });
    const resolved = await ctx.resolvePath(file);
    if (!resolved.ok) return resolved;
    const snapshot = await ctx.snapshot(resolved);
    return snapshot.ok ? { ok: true, resolved, snapshot } : snapshot;
  };
  /** Whether an open buffer holds text the file on disk does not (a buffer of a file not yet on disk: any text). */
  const unsaved = async (resolved: ResolvedPath, snapshot: Snapshot): Promise<Result<{ unsaved: boolean }>> => {
    if (snapshot.source !== 'editor') return { ok: true, unsaved: false };
    if (!resolved.exists) return { ok: true, unsaved: snapshot.text !== '' };
    const disk = await readTextFile(resolved.absPath, resolved.relPath, deps.settings().maxFileSize);
    if (!disk.ok) return fail('io_error', `${resolved.relPath} cannot be compared with its buffer: ${disk.message}`);
    return { ok: true, unsaved: disk.text !== snapshot.text };
  };

  const host: IdeHost = {
    folders: () => deps.state().folders,
    editorName: () => deps.clientName(),
    openFiles: async () => {
      const files = [];
      for (const doc of documents.store.all()) {
        const p = uriToPath(doc.uri);
        if (p === undefined || !inFolders(p)) continue;
        files.push({ path: p, uri: doc.uri, languageId: doc.languageId, timestamp: touched.get(doc.uri) ?? 0 });
      }
      return files.sort((a, b) => b.timestamp - a.timestamp);
    },
    selection: () => selection,
    onContextChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reviews: (agent) =>
      new DiffReviews(
        {
          look: async (file) => {
            const now = await fileNow(file);
            if (!now.ok) return now;
            const changed = await unsaved(now.resolved, now.snapshot);
            return changed.ok ? { ok: true, snapshot: now.snapshot, unsaved: changed.unsaved } : changed;
          },
          previews: deps.previews,
          ask: askUser(connection),
          previewEnded: (id) => deps.previews.ended(id),
          previewStat: (id) => deps.previews.stat(id),
          showDocument: (uri) => {
            if (deps.showDocument()) showDocumentQuietly(connection, uri);
          },
          tellUser: (message) => showMessageQuietly(connection, MessageType.Info, message),
          log: deps.log,
        },
        agent,
      ),
    showFile: async (file, range) => {
      if (!deps.showDocument() || !inFolders(file)) return false;
      const now = await fileNow(file);
      if (!now.ok) return false;
      try {
        const r = await connection.sendRequest(ShowDocumentRequest.type, { uri: now.resolved.uri, takeFocus: true, ...(range ? { selection: range } : {}) });
        return r.success;
      } catch {
        return false;
      }
    },
    dirty: async (file) => {
      const now = await fileNow(file);
      if (!now.ok || now.snapshot.source !== 'editor') return undefined;
      const changed = await unsaved(now.resolved, now.snapshot);
      // A buffer that cannot be compared with its file counts as dirty: nothing is said to be saved that may not be.
      return !changed.ok || changed.unsaved;
    },
    readText: async (file) => {
      const now = await fileNow(file);
      return now.ok && now.resolved.exists ? now.snapshot.text : undefined;
    },
    maxBodyBytes: () => 4 * deps.settings().maxFileSize + 1024 * 1024,
    log: deps.log,
    warn: deps.warn,
    tell: (message, level = 'warning') => {
      deps.log(message);
      showMessageQuietly(connection, level === 'info' ? MessageType.Info : MessageType.Warning, message);
    },
  };

  let gemini: IdeServerHandle | undefined;
  let claude: IdeServerHandle | undefined;
  let closed = false;
  let applying: Promise<void> = Promise.resolve();
  const place = deps.place;
  // Discovery files go however the process ends.
  place.onExit(() => {
    gemini?.close();
    claude?.close();
  });
  return {
    mentionTargets: () => (claude?.mentionable() ? ['Claude Code'] : []),
    mention: (absPath, startLine, endLine) => (claude?.mention(absPath, startLine, endLine) ? ['Claude Code'] : []),
    selectionSeen: (uri, range) => {
      const p = uriToPath(uri);
      const doc = documents.store.get(uri);
      if (p === undefined || doc === undefined || !inFolders(p)) return;
      const text = doc.getText(range);
      if (selection && selection.uri === uri && selection.text === text && sameRange(selection, range)) return;
      selection = { path: p, uri, text, start: range.start, end: range.end };
      touched.set(uri, stamp());
      changed();
    },
    documentsChanged: (uri) => {
      if (documents.store.get(uri)) touched.set(uri, stamp());
      else touched.delete(uri);
      if (selection?.uri === uri && !documents.store.get(uri)) selection = undefined;
      changed();
    },
    foldersChanged: () => {
      gemini?.republish();
      claude?.republish();
    },
    // One change at a time: two close together (the first configuration, a didChangeConfiguration)
    // would otherwise both start a server.
    settingsChanged: () => (applying = applying.then(applySettings, applySettings)),
    close: () => {
      closed = true;
      gemini?.close();
      claude?.close();
      gemini = claude = undefined;
    },
  };

  async function applySettings(): Promise<void> {
    const s = deps.settings();
    if (closed) return;
    if (s.geminiIde && !gemini) {
      // Loaded once a server starts (after `initialized`): its WebSocket and HTTP code would
      // otherwise be evaluated by every `editls --stdio` start before `initialize` is answered.
      const { startGeminiCompanion } = await import('./ide/geminiCompanion.js');
      const started = await startGeminiCompanion(host, { tmpdir: place.tmpdir, uid: place.uid, pid: place.pid, isProcessAlive: deps.isProcessAlive });
      if ('error' in started) deps.warn(started.error);
      else if (closed) started.close();
      else gemini = started;
    } else if (!s.geminiIde && gemini) {
      gemini.close();
      gemini = undefined;
    }
    if (s.claudeCodeIde && !claude) {
      const editorPid = deps.editorPid();
      const { startClaudeIde } = await import('./ide/claudeCode.js');
      const started = await startClaudeIde(host, { configDir: place.claudeConfigDir, uid: place.uid, pid: place.pid, ...(editorPid === undefined ? {} : { editorPid }), windows: place.windows, isProcessAlive: deps.isProcessAlive });
      if ('error' in started) deps.warn(started.error);
      else if (closed) started.close();
      else claude = started;
    } else if (!s.claudeCodeIde && claude) {
      claude.close();
      claude = undefined;
    }
    const state = (name: string, h: IdeServerHandle | undefined, setting: string) => `${name} ${h ? `on 127.0.0.1:${h.port}` : `off (${setting})`}`;
    deps.log(`agent CLIs' IDE integrations: ${state('Claude Code', claude, 'claudeCodeIde')}, ${state('Gemini CLI', gemini, 'geminiIde')}`);
  }
}

function sameRange(a: EditorSelection, b: { start: { line: number; character: number }; end: { line: number; character: number } }): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
