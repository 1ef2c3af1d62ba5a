// editls.replaceInFiles' reading: one file read (its snapshot), matched and its change worked out
// (`matchFile`), and `ReadAhead`, which does that for the files ripgrep names while it is still
// walking the tree, before the command holds their locks. A file read before the lock is used only
// when it is unchanged since (FilesPort.unchangedSince), else read again: the command's outcome is
// the one reading after the lock would give, only sooner.
import type { Failure } from '../core/result.js';
import { withPreservedCase } from '../core/edits/replaceInFiles.js';
import { finishSearchAndReplace, prepareSearchAndReplace, scanHere } from '../core/edits/searchAndReplace.js';
import type { PlannedChange } from './ports/apply.js';
import type { FilesPort, ResolvedPath, Snapshot } from './ports/files.js';
import type { RequestPort } from './ports/request.js';
import type { SearchPort } from './ports/search.js';

/** Files read and matched at once (reads wait on I/O, matching on the CPU). */
export const READ_AHEAD = 16;

export interface ReplaceSpec {
  search: string;
  replace: string;
  useRegex: boolean;
  ignoreCase: boolean;
  preserveCase: boolean;
}

/** What one file comes to; `snapshot` is the text it was worked out on (none when it could not be read). */
export type FileOutcome =
  | { kind: 'changed'; snapshot: Snapshot; change: PlannedChange }
  | { kind: 'unchanged'; snapshot: Snapshot }
  /** Left out of the command and named in its `skipped` list. */
  | { kind: 'skipped'; snapshot?: Snapshot; reason: string }
  /** The command stops with this failure (`cancelled`: the command's own cancellation). */
  | { kind: 'failed'; snapshot?: Snapshot; failure: Failure; cancelled?: true };

type MatchPorts = Pick<FilesPort, 'snapshot'> & Pick<SearchPort, 'scanRegex'> & Pick<RequestPort, 'settings'>;

/** Reads `target` (the open buffer, else the disk copy) and works out its change. */
export async function matchFile(ctx: MatchPorts, spec: ReplaceSpec, target: ResolvedPath): Promise<FileOutcome> {
  return matchSnapshot(ctx, spec, target, await ctx.snapshot(target));
}

/** Works out the change of a file read as `snapshot`. */
async function matchSnapshot(ctx: MatchPorts, spec: ReplaceSpec, target: ResolvedPath, snapshot: Awaited<ReturnType<FilesPort['snapshot']>>): Promise<FileOutcome> {
  if (!snapshot.ok) return { kind: 'skipped', reason: `${snapshot.kind}: ${snapshot.message}` };
  if (snapshot.source === 'missing') return { kind: 'unchanged', snapshot };
  const max = ctx.settings.maxFileSize;
  const prepared = prepareSearchAndReplace(snapshot.text, { search: spec.search, replace: spec.replace, useRegex: spec.useRegex, ignoreCase: spec.ignoreCase, maxOutput: max }, target.relPath);
  if (!prepared.ok) return { kind: 'failed', snapshot, failure: prepared };
  let reply = prepared.prepared.usesRegex ? await ctx.scanRegex(prepared.prepared.job) : scanHere(prepared.prepared);
  if (spec.preserveCase) reply = withPreservedCase(prepared.prepared, reply);
  const done = finishSearchAndReplace(prepared.prepared, reply);
  if (!done.ok) {
    if (done.kind === 'too_large') return { kind: 'skipped', snapshot, reason: `too_large: ${done.message}` };
    return { kind: 'failed', snapshot, failure: done, ...(done.kind === 'cancelled' ? { cancelled: true as const } : {}) };
  }
  if (done.edits.length === 0) return { kind: 'unchanged', snapshot };
  if (done.newText.length > max) return { kind: 'skipped', snapshot, reason: `too_large: the result would be ${done.newText.length} characters, over maxFileSize (${max})` };
  return { kind: 'changed', snapshot, change: { snapshot, newText: done.newText, edits: done.edits, created: false, replacements: done.replacements } };
}

/**
 * What a changed file costs the heap until the command answers, in bytes (an estimate on the safe
 * side): its old and new text at two bytes a character (UTF-16 strings), again as much for what is
 * built from them (the TextEdits, the diffs, the answer, garbage not yet collected), and about 300
 * bytes per edit for the edit objects and their TextEdits.
 */
export function heldBytes(change: PlannedChange): number {
  return 4 * (change.snapshot.text.length + change.newText.length) + 300 * change.edits.length;
}

interface Entry {
  resolved: Promise<{ ok: true; target: ResolvedPath } | { ok: false; failure: Failure }>;
  outcome: Promise<FileOutcome | undefined>;
  /** Read after the command took its locks: current by construction. */
  afterLock: boolean;
}

type ReadPorts = MatchPorts & Pick<FilesPort, 'resolvePath' | 'unchangedSince'>;

/**
 * The files of one command, read and matched a few at a time: first as ripgrep names them (`listed`,
 * before the locks; stopped once the command is bound to be refused: more changed files than
 * `maxFiles` or more text than `room`), then in the command's order (`outcome`) once it holds the locks.
 * `onChange` is told of each change worked out (the command's temp files are written ahead from it).
 */
export class ReadAhead {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private running = 0;
  /** Files named by ripgrep are read as they come (until the lock, or until the command is bound to be refused). */
  private speculating = true;
  /** The command is done: nothing more is read or reported. */
  private stopped = false;
  private changed = 0;
  private held = 0;
  private read = 0;
  /** The last match started: matches run one after another. */
  private matching: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: ReadPorts,
    private readonly spec: ReplaceSpec,
    private readonly limits: { maxFiles: number; room: number; signal: AbortSignal },
    private readonly hooks: { onChange: (change: PlannedChange) => void; onRead: (read: number, changed: number) => void },
  ) {}

  /** A file ripgrep named: read soon (at most READ_AHEAD at once), unless reading ahead has ended. */
  listed(absPath: string): void {
    if (!this.speculating || this.entries.has(absPath)) return;
    this.queue.push(absPath);
    this.pump();
  }

  /** The path a file resolves to: a listed file's is already being worked out (and its reading starts now if it waited in line). */
  resolve(absPath: string): Entry['resolved'] {
    let entry = this.entries.get(absPath);
    if (!entry && this.speculating && !this.stopped) {
      const at = this.queue.indexOf(absPath);
      if (at >= 0) {
        this.queue.splice(at, 1);
        entry = this.start(resolveTarget(this.ctx, absPath), false);
        this.entries.set(absPath, entry);
      }
    }
    return entry ? entry.resolved : resolveTarget(this.ctx, absPath);
  }

  /** The command holds its files' locks from now on: nothing more is read before them. */
  lock(): void {
    this.speculating = false;
    this.queue.length = 0;
  }

  /** Starts reading `target` (after the lock) unless it is read or being read already. */
  ensure(target: ResolvedPath): void {
    if (this.stopped || this.entries.has(target.absPath)) return;
    this.entries.set(target.absPath, this.start(Promise.resolve({ ok: true, target }), true));
  }

  /** `target`'s outcome as reading it now would give it: one read before the lock is checked, and read again when it changed since. */
  async outcome(target: ResolvedPath): Promise<FileOutcome> {
    this.ensure(target);
    const entry = this.entries.get(target.absPath);
    this.entries.delete(target.absPath);
    const got = entry ? await entry.outcome : undefined;
    if (got && (entry!.afterLock || (got.snapshot !== undefined && this.ctx.unchangedSince(got.snapshot)))) return got;
    const again = await matchFile(this.ctx, this.spec, target);
    if (again.kind === 'changed' && !this.stopped && !this.overLimits()) this.hooks.onChange(again.change);
    return again;
  }

  /** Nothing more is read or reported; resolves once what was being read has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.speculating = false;
    this.queue.length = 0;
    await Promise.allSettled([...this.entries.values()].map((e) => e.outcome));
  }

  private pump(): void {
    while (this.speculating && !this.stopped && this.running < READ_AHEAD && this.queue.length > 0) {
      const absPath = this.queue.shift()!;
      this.entries.set(absPath, this.start(resolveTarget(this.ctx, absPath), false));
    }
  }

  private start(resolved: Entry['resolved'], afterLock: boolean): Entry {
    this.running++;
    const outcome = (async (): Promise<FileOutcome | undefined> => {
      try {
        const r = await resolved;
        if (!r.ok || this.stopped || this.limits.signal.aborted) return undefined;
        const snapshot = await this.ctx.snapshot(r.target);
        // Files are read a few at once, but matched one at a time, each only while the changes so far
        // fit the limits: what is held never grows past them by more than one file's change.
        const turn = this.matching.then(() => (this.stopped || this.overLimits() ? undefined : this.match(r.target, snapshot, afterLock)));
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
    return { resolved, outcome, afterLock };
  }

  private async match(target: ResolvedPath, snapshot: Awaited<ReturnType<FilesPort['snapshot']>>, afterLock: boolean): Promise<FileOutcome | undefined> {
    const got = withoutUnusedText(await matchSnapshot(this.ctx, this.spec, target, snapshot));
    if (this.stopped) return got;
    this.read++;
    if (got.kind === 'changed') {
      this.changed++;
      this.held += heldBytes(got.change);
      // Bound to be refused (too_large): nothing more is read before the lock, nor written ahead.
      if (this.overLimits()) this.lock();
      else this.hooks.onChange(got.change);
    }
    if (!afterLock) this.hooks.onRead(this.read, this.changed);
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

async function resolveTarget(ctx: Pick<FilesPort, 'resolvePath'>, absPath: string): Promise<{ ok: true; target: ResolvedPath } | { ok: false; failure: Failure }> {
  const r = await ctx.resolvePath(absPath);
  return r.ok ? { ok: true, target: r } : { ok: false, failure: r };
}
