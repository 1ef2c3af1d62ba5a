// editls.replaceInFiles' reading: one file read (its snapshot), matched and its change worked out
// (`matchFile`), and `ReadAhead`, which does that for the files ripgrep names while it is still
// walking the tree, before the command holds their locks. A file read before the lock is used only
// when it is unchanged since (FilesPort.unchangedSince), else read again: the command's outcome is
// the one reading after the lock would give, only sooner. Once changes need not keep their texts
// (past the first DIFF_FILES, written ahead), a case-sensitive literal's closed files are read and
// matched by SearchPort.matchLiteral instead: on their bytes, their texts never made.
import type { Failure } from '../core/result.js';
import { settleReplace } from '../core/edits/replaceInFiles.js';
import { prepareSearchAndReplace, scanHere } from '../core/edits/searchAndReplace.js';
import type { PlannedChange } from './ports/apply.js';
import type { FilesPort, ResolvedPath, Snapshot } from './ports/files.js';
import type { RequestPort } from './ports/request.js';
import type { FileOutcome, SearchPort } from './ports/search.js';

export type { FileOutcome };

/** Files read at once (reads wait on I/O, matching on the CPU), besides the one the command waits for. */
export const READ_AHEAD = 16;

export interface ReplaceSpec {
  search: string;
  replace: string;
  useRegex: boolean;
  ignoreCase: boolean;
  preserveCase: boolean;
}

type MatchPorts = Pick<FilesPort, 'snapshot'> & Pick<SearchPort, 'scanRegex'> & Pick<RequestPort, 'settings'>;

/** Reads `target` (the open buffer, else the disk copy) and works out its change. */
export async function matchFile(ctx: MatchPorts, spec: ReplaceSpec, target: ResolvedPath): Promise<FileOutcome> {
  return matchSnapshot(ctx, spec, target, await ctx.snapshot(target));
}

/** Works out the change of a file read as `snapshot`. */
async function matchSnapshot(ctx: MatchPorts, spec: ReplaceSpec, target: ResolvedPath, snapshot: SnapshotResult): Promise<FileOutcome> {
  if (!snapshot.ok) return { kind: 'skipped', reason: `${snapshot.kind}: ${snapshot.message}` };
  if (snapshot.source === 'missing') return { kind: 'unchanged', snapshot };
  const max = ctx.settings.maxFileSize;
  const prepared = prepareSearchAndReplace(snapshot.text, { search: spec.search, replace: spec.replace, useRegex: spec.useRegex, ignoreCase: spec.ignoreCase, maxOutput: max }, target.relPath);
  if (!prepared.ok) return { kind: 'failed', snapshot, failure: prepared };
  const reply = prepared.prepared.usesRegex ? await ctx.scanRegex(prepared.prepared.job) : scanHere(prepared.prepared);
  const done = settleReplace(prepared.prepared, reply, spec.preserveCase, max);
  if (done.kind === 'too_large') return { kind: 'skipped', snapshot, reason: done.reason };
  if (done.kind === 'failed') return { kind: 'failed', snapshot, failure: done.failure, ...(done.failure.kind === 'cancelled' ? { cancelled: true as const } : {}) };
  if (done.kind === 'unchanged') return { kind: 'unchanged', snapshot };
  return { kind: 'changed', snapshot, change: { snapshot, newText: done.newText, edits: done.edits, created: false, replacements: done.replacements } };
}

/**
 * What a changed file costs the heap until the command answers, in bytes (an estimate on the safe
 * side): its old and new text at two bytes a character (UTF-16 strings), again as much for what is
 * built from them (the TextEdits, the diffs, the answer, garbage not yet collected), and about 300
 * bytes per edit for the edit objects and their TextEdits.
 */
export function heldBytes(change: PlannedChange): number {
  // (Counted the same once the texts are let go, so that what was added is taken away again.)
  const lengths = change.released ? change.released.oldLength + change.released.newLength : change.snapshot.text.length + change.newText.length;
  return 4 * lengths + 300 * change.edits.length;
}

type SnapshotResult = Awaited<ReturnType<FilesPort['snapshot']>>;

/**
 * A file being read: before the lock, read and matched (`outcome`; undefined when it was not matched:
 * over the limits, or the command was over); after it, only read (`snapshot`): the command matches it
 * when it takes it, one file at a time, as it counts toward the limits.
 */
type Entry =
  | { resolved: Promise<Resolved>; afterLock: false; outcome: Promise<FileOutcome | undefined> }
  /** After the lock: read (`snapshot`), or read and matched by SearchPort.matchLiteral (`outcome`, not yet counted). */
  | { resolved: Promise<Resolved>; afterLock: true; read: Promise<{ snapshot: SnapshotResult } | { outcome: FileOutcome } | undefined> };

type Resolved = { ok: true; target: ResolvedPath } | { ok: false; failure: Failure };

type ReadPorts = MatchPorts & Pick<FilesPort, 'resolvePath' | 'unchangedSince'> & Pick<SearchPort, 'matchLiteral' | 'resolveListedPath'>;

/**
 * The files of one command, read a few at a time: first as ripgrep names them (`listed`, before the
 * locks), each also matched, one at a time; this stops once the command is bound to be refused (more
 * changed files than `maxFiles` or more text than `room`). Then, once the command holds the locks, in
 * its order (`outcome`), read READ_AHEAD files ahead (`ensure`) and matched as it takes them. `onChange`
 * is told of each change worked out (the command's temp files are written ahead from it).
 */
export class ReadAhead {
  private readonly entries = new Map<string, Entry>();
  /** Files listed and not yet started, in the order ripgrep named them, from `head` on. */
  private queue: string[] = [];
  private head = 0;
  /** Paths resolved (or being resolved), read or not. */
  private readonly resolutions = new Map<string, Entry['resolved']>();
  private running = 0;
  /** Files named by ripgrep are read as they come (until the lock, or until the command is bound to be refused). */
  private speculating = true;
  /** The command is done: nothing more is read or reported. */
  private stopped = false;
  private changed = 0;
  private held = 0;
  private read = 0;
  /** heldBytes of the changes worked out before the lock and not yet taken by the command, and how many files those are. */
  private early = 0;
  private earlyFiles = 0;
  /** The last match started: matches run one after another. */
  private matching: Promise<unknown> = Promise.resolve();

  /** A case-sensitive literal, and a port for it: once changes need not keep their texts (hooks.keepText), each closed file is read and matched by SearchPort.matchLiteral. */
  private readonly byPort: boolean;

  /**
   * `hooks.keepText`: whether a change worked out now must keep its texts (else, for a literal, it may
   * never have them: SearchPort.matchLiteral; it is then given to `onChange` for its temp file to be written).
   */
  constructor(
    private readonly ctx: ReadPorts,
    private readonly spec: ReplaceSpec,
    private readonly limits: { maxFiles: number; room: number; signal: AbortSignal },
    private readonly hooks: { onChange: (change: PlannedChange) => void; onRead: (read: number, changed: number) => void; keepText: () => boolean },
  ) {
    this.byPort = !spec.useRegex && !spec.ignoreCase && ctx.matchLiteral !== undefined;
  }

  /** What the changes worked out before the lock and not yet taken by `outcome` hold (heldBytes): part of the command's. */
  get heldAhead(): number {
    return this.early;
  }

  /** The files whose changes make up heldAhead. */
  get changedAhead(): number {
    return this.earlyFiles;
  }

  /** A file ripgrep named: read soon (at most READ_AHEAD at once), unless reading ahead has ended. */
  listed(absPath: string): void {
    if (!this.speculating || this.entries.has(absPath)) return;
    this.queue.push(absPath);
    this.pump();
  }

  /** The path a file resolves to (worked out once, whether reading it started or not). */
  resolve(absPath: string): Entry['resolved'] {
    return this.entries.get(absPath)?.resolved ?? this.resolutionOf(absPath);
  }

  private resolutionOf(absPath: string): Entry['resolved'] {
    let r = this.resolutions.get(absPath);
    if (!r) {
      r = resolveTarget(this.ctx, absPath);
      this.resolutions.set(absPath, r);
    }
    return r;
  }

  /** The command holds its files' locks from now on: nothing more is read before them. */
  lock(): void {
    this.speculating = false;
    this.dropQueue();
  }

  /**
   * Starts reading `target` (after the lock) unless it is read or being read already, or READ_AHEAD
   * files are (`now`: the file the command waits for, read whatever else is).
   */
  ensure(target: ResolvedPath, now = false): void {
    if (this.stopped || this.entries.has(target.absPath) || (!now && this.running >= READ_AHEAD)) return;
    // A file matched by the port is matched as the command takes it: not ahead, where its outcome would
    // hold the file's change until then (reading is synchronous: ahead or not, the same work).
    const byPort = this.byPort && !this.hooks.keepText();
    if (byPort && !now) return;
    this.running++;
    const read = (async () => {
      try {
        if (this.stopped) return undefined;
        const outcome = byPort ? await this.matchByPort(target) : undefined;
        if (outcome) return { outcome };
        return this.stopped ? undefined : { snapshot: await this.ctx.snapshot(target) };
      } finally {
        this.running--;
      }
    })();
    read.catch(() => undefined);
    this.entries.set(target.absPath, { resolved: Promise.resolve({ ok: true, target }), afterLock: true, read });
  }

  /** `target`'s outcome as reading it now would give it: a file read before the lock is used if it is unchanged since, else read again. */
  async outcome(target: ResolvedPath): Promise<FileOutcome> {
    this.ensure(target, true);
    const entry = this.entries.get(target.absPath);
    this.entries.delete(target.absPath);
    let got: FileOutcome | undefined;
    if (!entry) {
      // (stopped: read here, as it was asked for)
    } else if (entry.afterLock) {
      const read = await entry.read;
      if (read && 'outcome' in read) got = read.outcome;
      else if (read) got = await matchSnapshot(this.ctx, this.spec, target, read.snapshot);
    } else {
      const early = await entry.outcome;
      if (early?.kind === 'changed') {
        this.early -= heldBytes(early.change);
        this.earlyFiles--;
      }
      if (early?.snapshot !== undefined && this.ctx.unchangedSince(early.snapshot)) return early;
    }
    got ??= await matchFile(this.ctx, this.spec, target);
    if (got.kind === 'changed' && !this.stopped) {
      this.changed++;
      this.held += heldBytes(got.change);
      if (!this.overLimits()) this.hooks.onChange(got.change);
    }
    return got;
  }

  /** Nothing more is read or reported; resolves once what was being read has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.speculating = false;
    this.dropQueue();
    await Promise.allSettled([...this.entries.values()].map((e) => (e.afterLock ? e.read : e.outcome)));
  }

  private dropQueue(): void {
    this.queue = [];
    this.head = 0;
  }

  private pump(): void {
    while (this.speculating && !this.stopped && this.running < READ_AHEAD && this.head < this.queue.length) {
      const absPath = this.queue[this.head++]!;
      if (this.entries.has(absPath)) continue;
      this.entries.set(absPath, this.start(this.resolutionOf(absPath)));
    }
  }

  private start(resolved: Promise<Resolved>): Entry {
    this.running++;
    const outcome = (async (): Promise<FileOutcome | undefined> => {
      try {
        const r = await resolved;
        if (!r.ok || this.stopped || this.limits.signal.aborted) return undefined;
        if (this.byPort && !this.hooks.keepText()) {
          // Matched one at a time too, each only while the changes so far fit the limits.
          const turn = this.matching.then(async () => (this.stopped || this.overLimits() ? null : await this.matchByPort(r.target)));
          this.matching = turn.then(
            () => undefined,
            () => undefined,
          );
          const got = await turn;
          if (got === null) return undefined;
          if (got) return this.stopped ? got : this.account(got);
          // (Open in the editor: its buffer, through snapshot; or the command was cancelled.)
          if (this.stopped || this.limits.signal.aborted) return undefined;
        }
        const snapshot = await this.ctx.snapshot(r.target);
        // Read a few at once, matched one at a time, only while the changes so far fit the limits: what
        // is held never grows past them by more than one file's change.
        const turn = this.matching.then(() => (this.stopped || this.overLimits() ? undefined : this.match(r.target, snapshot)));
        this.matching = turn.then(
          () => undefined,
          () => undefined,
        );
        return await turn;
      } finally {
        this.running--;
        this.pump();
      }
    })();
    // Settled by whoever takes it (outcome) or by stop(); never an unhandled rejection meanwhile.
    outcome.catch(() => undefined);
    return { resolved, afterLock: false, outcome };
  }

  /** `target` read and matched by SearchPort.matchLiteral (undefined: read its snapshot and match it here). */
  private async matchByPort(target: ResolvedPath): Promise<FileOutcome | undefined> {
    const { search, replace, preserveCase } = this.spec;
    return this.ctx.matchLiteral?.(target, { search, replace, preserveCase, signal: this.limits.signal });
  }

  private async match(target: ResolvedPath, snapshot: SnapshotResult): Promise<FileOutcome | undefined> {
    const got = withoutUnusedText(await matchSnapshot(this.ctx, this.spec, target, snapshot));
    return this.stopped ? got : this.account(got);
  }

  /** Counts a file worked out before the lock (and has its temp file written ahead), unless it passes the limits. */
  private account(got: FileOutcome): FileOutcome {
    this.read++;
    if (got.kind === 'changed') {
      this.changed++;
      this.held += heldBytes(got.change);
      this.early += heldBytes(got.change);
      this.earlyFiles++;
      // Bound to be refused (too_large): nothing more is read before the lock, nor written ahead.
      if (this.overLimits()) this.lock();
      else this.hooks.onChange(got.change);
    }
    if (this.speculating) this.hooks.onRead(this.read, this.changed);
    return got;
  }

  private overLimits(): boolean {
    return this.changed > this.limits.maxFiles || this.held > this.limits.room;
  }
}

/**
 * A file left as it is keeps its snapshot only to be checked for changes (unchangedSince) until the
 * command takes it: not its text, which a regex over a large tree would otherwise hold for every file.
 */
function withoutUnusedText(got: FileOutcome): FileOutcome {
  if ((got.kind !== 'unchanged' && got.kind !== 'skipped') || got.snapshot === undefined) return got;
  const { snapshot } = got;
  return { ...got, snapshot: { ...snapshot, text: '', ...(snapshot.disk ? { disk: { ...snapshot.disk, text: '' } } : {}) } };
}

/** A listed file's path resolved (SearchPort.resolveListedPath, else resolvePath). */
async function resolveTarget(ctx: Pick<ReadPorts, 'resolvePath' | 'resolveListedPath'>, absPath: string): Promise<{ ok: true; target: ResolvedPath } | { ok: false; failure: Failure }> {
  const r = await (ctx.resolveListedPath ? ctx.resolveListedPath(absPath) : ctx.resolvePath(absPath));
  return r.ok ? { ok: true, target: r } : { ok: false, failure: r };
}
