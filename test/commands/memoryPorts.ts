// Small in-memory fakes of the ports commands own (server/commands/ports/), one per role, composed
// per test with only the ports the command under test takes: files as a map of text (closed files and
// open buffers), applying as a list of what was carried out, search and symbols answering from what
// the test gives them. The undo journal and the preview store are editls's own, which live in memory.
// A command's whole path through the real workspace is tested over stdio in test/server/.
import type { WorkspaceEdit } from 'vscode-languageserver';
import { fail, type Result } from '../../server/core/result.js';
import { scanRegex } from '../../server/core/edits/regexScan.js';
import type { SymbolHit } from '../../server/core/symbols/types.js';
import type { ApplyMode, ApplyOutcome, ApplyPort, PlannedChange } from '../../server/commands/ports/apply.js';
import type { FilesPort, ResolvedPath, Snapshot } from '../../server/commands/ports/files.js';
import type { ProgressHandle, ProgressPort } from '../../server/commands/ports/progress.js';
import type { RequestPort } from '../../server/commands/ports/request.js';
import type { JournalFile, ReviewPort } from '../../server/commands/ports/review.js';
import type { CandidateRequest, SearchOutcome, SearchPort, SearchRequest } from '../../server/commands/ports/search.js';
import type { SymbolsPort } from '../../server/commands/ports/symbols.js';
import type { Context } from '../../server/commands/context.js';
import { buildWorkspaceEdit, toTextEdits } from '../../server/protocol/toProto.js';
import { SETTINGS_DEFAULTS, type Settings } from '../../server/settings.js';
import { Previews } from '../../server/workspace/editor/previews.js';
import { UndoJournal } from '../../server/workspace/editor/undoJournal.js';

export const ROOT = '/ws';

/** The files a fake workspace holds: closed files' disk text and open buffers, by path relative to ROOT. */
export class MemoryWorkspace {
  readonly disk = new Map<string, string>();
  readonly buffers = new Map<string, { text: string; version: number }>();
  /** Every apply call, in order. */
  readonly applied: { label: string; mode: ApplyMode; changes: readonly PlannedChange[] }[] = [];
  /** Every writeAhead a command started: its mode, the changes added to it, whether it was closed and whether apply was given it. */
  readonly writtenAhead: { mode: ApplyMode; added: PlannedChange[]; closed: boolean; applied: boolean }[] = [];
  /** What the user was told (summaries) and logged. */
  readonly said: string[] = [];
  /** Paths passed to withFiles, one list per call. */
  readonly locked: string[][] = [];
  /** What the request port answers for the room left in memory (bytes). */
  memoryRoom = Number.POSITIVE_INFINITY;

  constructor(files: Record<string, string> = {}) {
    for (const [rel, text] of Object.entries(files)) this.disk.set(rel, text);
  }

  open(rel: string, text: string, version = 1): void {
    this.buffers.set(rel, { text, version });
  }

  /** The text the user sees: the buffer when open, else the disk copy. */
  text(rel: string): string | undefined {
    return this.buffers.get(rel)?.text ?? this.disk.get(rel);
  }
}

export function resolved(ws: MemoryWorkspace, rel: string, directory = false): ResolvedPath {
  const absPath = rel === '.' ? ROOT : `${ROOT}/${rel}`;
  return { absPath, uri: `file://${absPath}`, relPath: rel, exists: directory || ws.disk.has(rel) || ws.buffers.has(rel), folder: ROOT, ...(directory ? { directory } : {}) };
}

function relative(input: string): Result<{ rel: string }> {
  const bare = input.startsWith('file://') ? input.slice('file://'.length) : input;
  const parts: string[] = [];
  for (const p of (bare.startsWith(`${ROOT}/`) ? bare.slice(ROOT.length + 1) : bare).split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.pop() === undefined) return fail('outside_workspace', `${input} is outside the workspace folder`);
    } else parts.push(p);
  }
  if (bare.startsWith('/') && !bare.startsWith(`${ROOT}/`) && bare !== ROOT) return fail('outside_workspace', `${input} is outside the workspace folder`);
  return { ok: true, rel: parts.join('/') || '.' };
}

export function requestPort(ws: MemoryWorkspace, settings: Partial<Settings> = {}, signal = new AbortController().signal): RequestPort {
  return {
    settings: { ...SETTINGS_DEFAULTS, ...settings },
    encoding: 'utf-16',
    signal,
    memoryRoom: () => ws.memoryRoom,
    log: (m) => ws.said.push(`log: ${m}`),
    summarize: (m, level = 'info') => ws.said.push(`${level}: ${m}`),
  };
}

export function filesPort(ws: MemoryWorkspace, review?: ReviewPort): FilesPort {
  return {
    resolvePath: async (input) => {
      const r = relative(input);
      if (!r.ok) return r;
      if (r.rel === '.') return fail('io_error', `${input} is a folder`);
      return { ok: true, ...resolved(ws, r.rel) };
    },
    snapshot: async (at): Promise<Result<Snapshot>> => {
      const buffer = ws.buffers.get(at.relPath);
      if (buffer) return { ok: true, resolved: at, source: 'editor', text: buffer.text, version: buffer.version, uri: at.uri };
      const text = ws.disk.get(at.relPath);
      if (text === undefined) return { ok: true, resolved: at, source: 'missing', text: '', version: null, uri: at.uri };
      const disk = { text, encoding: 'utf-8' as const, bom: false, mode: 0o644, size: Buffer.byteLength(text), mtimeMs: 0, stamp: `memory:${text}` };
      return { ok: true, resolved: at, source: 'disk', text, version: null, uri: at.uri, disk };
    },
    unchangedSince: (snap) => {
      const rel = snap.resolved.relPath;
      const buffer = ws.buffers.get(rel);
      if (snap.source === 'editor') return buffer !== undefined && buffer.version === snap.version;
      if (buffer) return false;
      const text = ws.disk.get(rel);
      return snap.source === 'missing' ? text === undefined : text !== undefined && `memory:${text}` === snap.disk?.stamp;
    },
    withFiles: async (paths, fn) => {
      ws.locked.push([...paths]);
      return fn();
    },
    removeCreatedFile: async (at, file: JournalFile) => {
      if (ws.buffers.has(at.relPath)) return fail('apply_rejected', `${at.relPath} is open in the editor`);
      const text = ws.disk.get(at.relPath);
      if (text === undefined) return fail('stale', `${at.relPath} was already deleted; nothing to undo`);
      if (review && !review.journal.holdsWhatEditlsLeft(file, text)) return fail('stale', `${at.relPath} changed since editls created it`);
      ws.disk.delete(at.relPath);
      return { ok: true };
    },
  };
}

/**
 * Carries changes out on the map: an open buffer (its version bumped) or the disk copy, every change
 * checked against the text it was computed on first (a stale one refuses the whole call, as editls
 * does); an applied command goes into the journal under `requester`.
 */
export function applyPort(ws: MemoryWorkspace, journal?: { journal: UndoJournal; requester: string }): ApplyPort {
  return {
    carriageReturns: 'keep',
    writeAhead: (mode) => {
      if (mode === 'preview' || mode === 'editor') return undefined;
      const record = { mode, added: [] as PlannedChange[], closed: false, applied: false, ahead: undefined as unknown };
      const ahead = {
        add: (c: PlannedChange) => {
          if (record.closed) throw new Error('a change added after close');
          record.added.push(c);
        },
        close: async () => {
          record.closed = true;
        },
        // Its changes keep their texts (this workspace applies them from the texts).
        writesClosedFiles: false,
      };
      record.ahead = ahead;
      ws.writtenAhead.push(record);
      return ahead;
    },
    apply: async (changes, mode, options): Promise<Result<ApplyOutcome>> => {
      ws.applied.push({ label: options.label, mode, changes });
      for (const r of ws.writtenAhead as { ahead?: unknown; applied: boolean }[]) if (options.ahead !== undefined && r.ahead === options.ahead) r.applied = true;
      const edit: WorkspaceEdit = buildWorkspaceEdit(
        changes.map((c) => ({ uri: c.snapshot.uri, version: c.snapshot.version, edits: toTextEdits(c.snapshot.text, c.edits, 'utf-16'), create: c.created })),
        { documentChanges: true },
      );
      if (mode === 'preview') return { ok: true, via: changes.map(() => null), edit, notes: [] };
      for (const c of changes) {
        const rel = c.snapshot.resolved.relPath;
        const now = c.snapshot.source === 'editor' ? ws.buffers.get(rel)?.text : ws.disk.get(rel);
        if ((now ?? '') !== c.snapshot.text || (now === undefined) !== (c.snapshot.source === 'missing')) return fail('stale', `${rel} changed since it was read; run the command again`);
      }
      options.whileWriting?.();
      const via = changes.map((c) => {
        const rel = c.snapshot.resolved.relPath;
        const buffer = ws.buffers.get(rel);
        if (buffer) {
          ws.buffers.set(rel, { text: c.newText, version: buffer.version + 1 });
          return 'editor' as const;
        }
        ws.disk.set(rel, c.newText);
        return 'disk' as const;
      });
      if (journal && options.record !== false) {
        journal.journal.record(
          journal.requester,
          options.label,
          changes.map((c) => ({ absPath: c.snapshot.resolved.absPath, relPath: c.snapshot.resolved.relPath, uri: c.snapshot.uri, before: c.created ? '' : c.snapshot.text, edits: c.edits, after: c.newText, created: c.created })),
        );
      }
      return { ok: true, via, edit, notes: [] };
    },
  };
}

/** editls's own undo journal and preview store (both in memory), the preview hints dropped. */
export function reviewPort(requester = 'editor'): ReviewPort & { undoJournal: UndoJournal; previews: Previews } {
  const undoJournal = new UndoJournal(() => SETTINGS_DEFAULTS.undoDepth);
  return {
    undoJournal,
    journal: undoJournal.viewFor(requester),
    previews: new Previews({ encoding: () => 'utf-16', publish: () => undefined, log: () => undefined }),
  };
}

/** Searches answered from what the test gives; every request kept; regex scans run here, in core. */
export function searchPort(
  ws: MemoryWorkspace,
  answers: {
    search?: (req: SearchRequest) => Result<SearchOutcome>;
    candidates?: (req: CandidateRequest) => string[];
    /** Hand the files to onListed as ripgrep would (here: last first), then wait for this before the listing ends. */
    whileListing?: () => Promise<void>;
  } = {},
): SearchPort & { searches: SearchRequest[]; candidateRequests: CandidateRequest[] } {
  const searches: SearchRequest[] = [];
  const candidateRequests: CandidateRequest[] = [];
  return {
    searches,
    candidateRequests,
    resolveSearchScope: async (input) => {
      const r = relative(input);
      if (!r.ok) return r;
      const isFile = ws.disk.has(r.rel) || ws.buffers.has(r.rel);
      return { ok: true, ...resolved(ws, r.rel, !isFile) };
    },
    searchFiles: async (req) => {
      searches.push(req);
      return answers.search?.(req) ?? { ok: true, files: [], matchCount: 0, truncated: false, notes: [], stoppedEarly: false, walks: ['parallel'] };
    },
    listReplaceCandidates: async (req) => {
      candidateRequests.push(req);
      const all = answers.candidates?.(req) ?? [...new Set([...ws.disk.keys(), ...ws.buffers.keys()])].sort();
      if (answers.whileListing) {
        for (const rel of [...all].reverse()) req.onListed?.(`${ROOT}/${rel}`);
        await answers.whileListing();
      }
      return { ok: true, files: all.map((rel) => `${ROOT}/${rel}`), notes: [] };
    },
    scanRegex: async (job) => scanRegex(job),
  };
}

export function symbolsPort(hits: readonly SymbolHit[]): SymbolsPort & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    searchSymbols: async (query) => {
      queries.push(query);
      return { ok: true, symbols: hits.filter((h) => h.name.toLowerCase().includes(query.toLowerCase())) };
    },
  };
}

/** Progress kept as the lines a client would show. */
export function progressPort(): ProgressPort & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    startProgress: (title): ProgressHandle => {
      shown.push(`begin ${title}`);
      return {
        signal: new AbortController().signal,
        report: (message, percentage) => shown.push(`report ${message}${percentage === undefined ? '' : ` ${percentage}%`}`),
        done: (message) => shown.push(`end${message ? ` ${message}` : ''}`),
      };
    },
  };
}

/**
 * Optional members a command may look at without taking a port for them (matchLiteral reads files on
 * disk: a memory workspace has none, its files are read through snapshot; resolveListedPath: its
 * paths are resolved through resolvePath).
 */
const OPTIONAL = new Set<PropertyKey>(['workDoneToken', 'matchLiteral', 'resolveListedPath']);

/**
 * The registry runs a command on a whole Context; this one holds only the ports the test gives, and
 * a command reaching any other member fails the test at once (so a test also checks what it uses).
 */
export function only(ports: object): Context {
  return new Proxy(ports, {
    get(target, key, receiver) {
      if (key in target || OPTIONAL.has(key)) return Reflect.get(target, key, receiver);
      throw new Error(`the command reached ctx.${String(key)}, which this test's ports do not hold`);
    },
  }) as Context;
}
