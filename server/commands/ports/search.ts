// The search port: a searchFiles scope resolved, ripgrep run over it (open buffers searched as the
// editor holds them), replaceInFiles' candidate files, and regex scans run off the main thread.
// Implemented by server/workspace/search/ (ripgrepSearch.ts, replaceCandidates.ts, regexRunner.ts).
import type { Result } from '../../core/result.js';
import type { ScanJob, ScanReply } from '../../core/edits/regexScan.js';
import type { LiteralPrefilter } from '../../core/edits/replaceInFiles.js';
import type { FileHits } from '../../core/search/collect.js';
import type { CompiledGlob } from '../../core/search/glob.js';
import type { Failure } from '../../core/result.js';
import type { PlannedChange } from './apply.js';
import type { ResolvedPath, Snapshot } from './files.js';

export interface SearchRequest {
  /** A folder or a file, resolved and confined (ResolvedPath.directory tells which). */
  scope: ResolvedPath;
  /** Rust regex syntax, as ripgrep takes it. */
  regex: string;
  glob?: CompiledGlob;
  respectIgnore: boolean;
  contextLines: number;
  maxResults: number;
  signal: AbortSignal;
  /** Called after every file with hits (for $/progress). */
  onProgress?: (matchingLines: number, files: number) => void;
}

export interface SearchOutcome {
  files: FileHits[];
  matchCount: number;
  truncated: boolean;
  /** Things the user should know (ripgrep warnings such as unreadable folders). */
  notes: string[];
  /** ripgrep was stopped once the cap was passed, before it finished the walk. */
  stoppedEarly: boolean;
  /**
   * How ripgrep walked the scope: `parallel` (its default, unordered: the files are sorted here),
   * `files` when some files' context lines could not be read here and ripgrep searched them again
   * by name with --context, then `sorted` (`--sort path`, one thread) only when the parallel walk
   * found more than maxResults lines.
   */
  walks: ('parallel' | 'files' | 'sorted')[];
}

export interface CandidateRequest {
  scope: ResolvedPath;
  glob?: CompiledGlob;
  respectIgnore: boolean;
  prefilter?: LiteralPrefilter;
  signal: AbortSignal;
  /**
   * Called with each file as ripgrep names it (absolute real path, in ripgrep's order, each once), before
   * the listing ends: the command may start reading it. The answer's `files` is still the whole list in
   * path order (with open buffers ripgrep was not asked about).
   */
  onListed?: (absPath: string) => void;
}

export interface SearchPort {
  /** Like resolvePath, but a folder (the workspace folder itself too, as ".") is allowed: a searchFiles scope. */
  resolveSearchScope(input: string): Promise<Result<ResolvedPath>>;
  /** Runs ripgrep over the scope; open buffers are searched instead of their disk copies. */
  searchFiles(request: SearchRequest): Promise<Result<SearchOutcome>>;
  /** editls.replaceInFiles' files: what ripgrep would search under the scope (narrowed by an exact literal), plus open buffers there, in path order. */
  listReplaceCandidates(request: CandidateRequest): Promise<Result<{ files: string[]; notes: string[] }>>;
  /** Runs a regex scan off the main thread, stopped after `regexTimeoutMs` (problem "timeout") or on cancellation. */
  scanRegex(job: ScanJob): Promise<ScanReply>;
  /**
   * A closed file read and its case-sensitive literal replacement worked out, as reading its snapshot
   * and matching it would give them, except that a changed file's change never has its texts
   * (PlannedChange.released, with the bytes of its temp file): a UTF-8 file is worked out on its bytes,
   * never decoded. For a command whose changes are written ahead (WriteAhead.writesClosedFiles) and
   * that will not read their texts. Undefined when the file must be read through snapshot (it is open
   * in the editor) or the command was cancelled.
   */
  matchLiteral?(target: ResolvedPath, request: LiteralMatchRequest): Promise<FileOutcome | undefined>;
  /**
   * resolvePath for a file listReplaceCandidates named (an absolute real path when listed): resolved
   * and confined as resolvePath does, but not looked up component by component again, and with the
   * workspace folders checked once per batch; every read of it is confined. Absent: resolvePath.
   */
  resolveListedPath?(absPath: string): Promise<Result<ResolvedPath>>;
}

export interface LiteralMatchRequest {
  search: string;
  replace: string;
  preserveCase: boolean;
  signal: AbortSignal;
}

/** What one file of a replaceInFiles comes to; `snapshot` is the text it was worked out on (none when it could not be read). */
export type FileOutcome =
  | { kind: 'changed'; snapshot: Snapshot; change: PlannedChange }
  | { kind: 'unchanged'; snapshot: Snapshot }
  /** Left out of the command and named in its `skipped` list. */
  | { kind: 'skipped'; snapshot?: Snapshot; reason: string }
  /** The command stops with this failure (`cancelled`: the command's own cancellation). */
  | { kind: 'failed'; snapshot?: Snapshot; failure: Failure; cancelled?: true };
