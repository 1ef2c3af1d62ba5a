// editls.searchFiles' IO: one parallel ripgrep `--json` run over the scope (ripgrep's own speed; context
// lines read from the few files with hits, searchContext.ts), its
// files sorted by path into the core collector; when it finds more matching lines than the cap, one
// `--sort path` run streamed into the collector until the cap is passed, so the kept lines are always
// the first in path order. Open documents whose text differs from disk are searched as buffers (one
// ripgrep run over private copies, same regex) and merged in path order. Nothing of unbounded length
// goes on a command line (Linux refuses 128 KiB arguments). ripgrep runs from inside the scope's real
// path, which is checked again after the run; each file with hits is checked as ripgrep reports it
// (still at its real path inside the scope, its bytes those ripgrep printed), and one that is not is
// dropped with a note (a folder swapped for a link is never followed).
import { isUtf8 } from 'node:buffer';
import { promises as fsp, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, type Result } from '../../core/result.js';
import { SearchCollector, type FileHits, type SearchLine } from '../../core/search/collect.js';
import type { CompiledGlob } from '../../core/search/glob.js';
import { decodeBytesLine, stripTerminator, utf16OffsetsOfUtf8 } from '../../core/search/lineText.js';
import { comparePaths } from '../../core/search/pathOrder.js';
import { makeBufferCopies } from './bufferCopies.js';
import { eachLimited } from '../limited.js';
import { readTextFile } from '../disk/fileCodec.js';
import type { OpenDocuments } from '../editor/openDocuments.js';
import { fileUri, realpathOrSelf, slashedRelative, uriToPath } from '../disk/paths.js';
import { nameTypeFlags, runAhead, runRipgrep, RipgrepUnavailable, type RipgrepExit } from './ripgrep.js';
import { dataBytes, type RgLineData } from './ripgrepSchema.js';
import { fileContextAround, type Hit, type NotRead } from './searchContext.js';
import { isInside } from '../../core/containment.js';
import type { SearchOutcome, SearchRequest } from '../../commands/ports/search.js';
import type { ResolvedPath } from '../../commands/ports/files.js';

export interface SearchDeps {
  /** Workspace folders (realpath'd); results are relative to the first. */
  folders: readonly string[];
  documents: Pick<OpenDocuments, 'all'> & Partial<Pick<OpenDocuments, 'getByPath'>>;
  maxFileSize: number;
  log: (message: string) => void;
}

/**
 * Flags every run shares (documented in the README, "editls.searchFiles"): no user config file,
 * .gitignore honoured outside git repositories too, `$` before CRLF, and line numbers.
 */
export function baseFlags(respectIgnore: boolean): string[] {
  return ['--no-config', '--no-require-git', '--crlf', '--line-number', ...(respectIgnore ? [] : ['--no-ignore'])];
}

/**
 * The flags of every searchFiles run, over files and over copies of unsaved buffers alike (so a
 * flag added here searches both the same way): the shared ones, the cap (`maxResults + 1` matching
 * lines a file, enough to know the cap is passed) and, unless left out, the context lines.
 */
export function searchFlags(o: { respectIgnore: boolean; maxResults: number; contextLines?: number }): string[] {
  return [...baseFlags(o.respectIgnore), '--max-count', String(o.maxResults + 1), ...(o.contextLines === undefined ? [] : ['--context', String(o.contextLines)])];
}

/**
 * The arguments of a folder's parallel walk (FileSearch.parallelWalk) without its pattern and the
 * `--json` every run starts with: searchFlags without --context (the context lines are read here),
 * the file-type flags, `.`.
 */
function folderWalkArgs(o: { respectIgnore: boolean; maxResults: number }, typeArgs: readonly string[]): string[] {
  return [...searchFlags({ respectIgnore: o.respectIgnore, maxResults: o.maxResults }), ...typeArgs, '--', '.'];
}

/**
 * Starts the ripgrep of a search of the whole `folder` (a real path) with no file_pattern ahead, so
 * that a session's first search, most often of the whole workspace, does not wait for its spawn
 * (server.ts, once the settings are known). A search with other options discards it.
 */
export function searchFolderAhead(folder: string, o: { respectIgnore: boolean; maxResults: number }): void {
  runAhead({ args: ['--json', ...folderWalkArgs(o, [])], cwd: folder });
}

/** ripgrep file-type flags that narrow the walk to a file-name glob without re-including ignored files. */
export function typeFlags(name: string, glob: string): string[] {
  return ['--type-add', `${name}:${glob}`, '--type', name];
}

/** Longest regex (UTF-8 bytes) searchFiles takes: it goes on ripgrep's command line, where Linux refuses an argument over 128 KiB. */
export const MAX_SEARCH_REGEX_BYTES = 64 * 1024;

export async function searchFiles(deps: SearchDeps, req: SearchRequest): Promise<Result<SearchOutcome>> {
  const regexBytes = Buffer.byteLength(req.regex, 'utf8');
  if (regexBytes > MAX_SEARCH_REGEX_BYTES) {
    return fail(
      'invalid_regex',
      `the regex is ${Math.ceil(regexBytes / 1024)} KiB, over searchFiles' limit of ${MAX_SEARCH_REGEX_BYTES / 1024} KiB; search for a shorter pattern (e.g. a distinctive part of it)`,
      { bytes: regexBytes, maxBytes: MAX_SEARCH_REGEX_BYTES },
    );
  }
  try {
    return await new FileSearch(deps, req).run();
  } catch (error) {
    if (error instanceof RipgrepUnavailable) return fail('io_error', error.message);
    throw error;
  }
}

/** A file ripgrep reported, whole: its hits (at most maxResults + 1 matching lines, ripgrep's
 *  --max-count, which still prints the after-context the cap needs) and whether it is binary. */
interface DiskFile {
  rel: string;
  abs: string;
  /** The path as ripgrep printed it, absolute: `abs`, or bytes when it is not UTF-8 (abs then has U+FFFD). */
  raw: string | Buffer;
  file: FileHits;
  binary: boolean;
  matches: number;
  /** Every line as ripgrep printed it (offset and bytes), for checkFile. */
  printed: Hit[];
}

/** What one ripgrep run gave: how it ended, the files it kept, and those to search again by name with --context. */
interface RunReport {
  exit: RipgrepExit;
  files: DiskFile[];
  redo: string[];
}

/**
 * One searchFiles call, step by step (run): check the scope, search the open buffers that differ
 * from disk, ripgrep's parallel walk (then the files whose context could not be read here, by name),
 * a `--sort path` walk when the cap was passed, check the scope again, note what was left out. The
 * collector takes files in path order, buffers merged in between.
 */
class FileSearch {
  /** The folder ripgrep runs in: the scope, or a scoped file's folder. */
  private readonly scopeDir: string;
  /** The first workspace folder, which result paths are relative to. */
  private readonly firstFolder: string;
  /** A file_pattern that is a file name glob, handed to ripgrep as a file type. */
  private readonly typed: boolean;
  private readonly collector: SearchCollector;
  private readonly notes: string[] = [];
  private readonly walks: SearchOutcome['walks'] = [];
  private stoppedEarly = false;
  /** Files dropped for their real path, found by checkFile (a Set: the sorted run may report one the parallel run did). */
  private readonly dropped = new Set<string>();
  /** Files whose bytes were no longer what ripgrep printed when they were checked (left out, with a note). */
  private readonly changed = new Set<string>();
  /** Open documents whose text differs from disk (`paths`: never reported from disk) and those searched as buffers. */
  private dirty: { paths: Set<string>; searchable: DirtyBuffer[] } = { paths: new Set(), searchable: [] };
  /** Buffers with hits not yet fed, in path order relative to the scope. */
  private readonly pendingBuffers: { file: FileHits; rel: string }[] = [];

  constructor(
    private readonly deps: SearchDeps,
    private readonly req: SearchRequest,
  ) {
    this.scopeDir = req.scope.directory ? req.scope.absPath : path.dirname(req.scope.absPath);
    this.firstFolder = deps.folders[0] ?? req.scope.folder;
    this.typed = req.scope.directory === true && req.glob?.fileNameGlob !== undefined;
    this.collector = new SearchCollector(req.maxResults, req.contextLines);
  }

  async run(): Promise<Result<SearchOutcome>> {
    const { req } = this;
    // The scope as checked: its real path must still be scopeDir now, and the same folder after the run.
    const checked = identity(this.scopeDir);
    if (checked.real !== this.scopeDir) return scopeChanged(this.deps, req, checked.real, 'before');
    const buffers = await this.searchBuffers();
    if (!buffers.ok) return buffers;
    // A single file that is not a regular one (a FIFO, a socket) is never handed to ripgrep, which
    // would open it and wait: only its buffer, if it has one, is searched.
    if (!req.scope.directory && (await isSpecialFile(req.scope.absPath))) {
      if (!this.dirty.paths.has(req.scope.absPath)) {
        const rel = this.relToFirst(req.scope.absPath);
        return fail('io_error', `${rel} is not a regular file (a named pipe, socket or device); searchFiles only reads regular files`, { path: rel });
      }
      this.flushBuffersBefore(undefined);
      return this.outcome();
    }
    const parallel = await this.parallelWalk();
    let exit = parallel.exit;
    if (!exit.stopped) {
      if (!exit.cancelled) this.feedSorted(parallel.files);
    } else {
      exit = await this.sortedWalk();
    }
    if (exit.cancelled) return cancelled();
    const after = identity(this.scopeDir);
    if (after.real !== this.scopeDir || after.dev !== checked.dev || after.ino !== checked.ino) return scopeChanged(this.deps, req, after.real, 'during');
    const failure = exitFailure(parallel.exit, req.regex);
    if (failure) return failure;
    this.noteLeftOut();
    if (!this.collector.done) this.flushBuffersBefore(undefined);
    if (parallel.exit.code === 2 && !parallel.exit.stopped) this.notes.push(...warnings(parallel.exit.stderr));
    if (parallel.exit.malformed.length > 0) this.deps.log(`searchFiles: ignored ${parallel.exit.malformed.length} unexpected ripgrep output line(s): ${parallel.exit.malformed[0]}`);
    return this.outcome();
  }

  /** Step 1: the open buffers that differ from disk, searched as the editor holds them (one ripgrep run), kept for merging. */
  private async searchBuffers(): Promise<Result<{}>> {
    this.dirty = await dirtyBuffers(this.deps, this.req, (abs) => this.accepts(abs));
    if (this.req.signal.aborted) return cancelled();
    const searched = await searchBuffers(this.dirty.searchable, this.req, (b) => this.relToFirst(b.absPath));
    if (!searched.ok) return searched;
    for (const [i, file] of searched.files.entries()) {
      if (file) this.pendingBuffers.push({ file, rel: this.relToScope(this.dirty.searchable[i]!.absPath) });
    }
    this.pendingBuffers.sort((a, b) => comparePaths(a.rel, b.rel));
    return { ok: true };
  }

  /**
   * Step 2: ripgrep at its own speed: the parallel walk, every file kept, sorted afterwards. Paths are
   * relative to the working folder ripgrep starts in (the scope's real path): once started, its
   * walk does not go through the scope's path or its parents again. Over a folder it runs without
   * --context (a slower mode of ripgrep's), and each file with hits gets its context lines read
   * here as ripgrep reports it; the few files where that cannot be done exactly (UTF-16, changed
   * since) are searched once more by name with --context.
   */
  private async parallelWalk(): Promise<RunReport> {
    const { req } = this;
    this.walks.push('parallel');
    const parallel = req.scope.directory
      ? await this.ripgrep(folderWalkArgs(req, this.typeArgs()), { stopAt: req.maxResults, readContext: true, pattern: req.regex })
      : await this.ripgrep([...this.flags(true), '-e', req.regex, '--', this.target()], {});
    if (!parallel.exit.stopped && !parallel.exit.cancelled && parallel.redo.length > 0) {
      this.walks.push('files');
      for (const names of argumentChunks(parallel.redo.map((abs) => `./${this.relToScope(abs)}`))) {
        const again = await this.ripgrep([...this.flags(true), '-e', req.regex, '--', ...names], {});
        parallel.files.push(...again.files);
        if (again.exit.cancelled) parallel.exit = again.exit;
      }
    }
    return parallel;
  }

  /**
   * Step 3, when more than maxResults matching lines exist: the first ones in path order come from
   * one `--sort path` run (single-threaded, but stopped as soon as the cap is passed), so the result
   * is the same on every run. Dense matches stop it within the first files.
   */
  private async sortedWalk(): Promise<RipgrepExit> {
    this.walks.push('sorted');
    const sorted = await this.ripgrep([...this.flags(true), ...this.typeArgs(), '--sort', 'path', '-e', this.req.regex, '--', this.target()], { onFile: (d) => this.feed(d) });
    this.stoppedEarly = sorted.exit.stopped;
    return sorted.exit;
  }

  /** Step 4: a note (and a log line) for the files left out because they moved or changed under ripgrep. */
  private noteLeftOut(): void {
    if (this.dropped.size > 0) {
      const n = this.dropped.size;
      const note = `${n} file${n === 1 ? '' : 's'} left out: ${n === 1 ? 'its' : 'their'} real path was outside ${this.req.scope.relPath} when ripgrep reported ${n === 1 ? 'it' : 'them'} (a folder replaced by a symlink during the search)`;
      this.notes.push(note);
      this.deps.log(`searchFiles: ${note}`);
    }
    for (const abs of this.dropped) this.changed.delete(abs);
    if (this.changed.size > 0) {
      const n = this.changed.size;
      const note = `${n} file${n === 1 ? '' : 's'} left out: ${n === 1 ? 'it' : 'they'} changed while ripgrep read ${n === 1 ? 'it' : 'them'} (${[...this.changed].slice(0, 3).map((abs) => this.relToFirst(abs)).join(', ')}${n > 3 ? ', ...' : ''}); search again`;
      this.notes.push(note);
      this.deps.log(`searchFiles: ${note}`);
    }
  }

  private outcome(): Result<SearchOutcome> {
    this.collector.end();
    const c = this.collector;
    return { ok: true, files: c.files, matchCount: c.matchCount, truncated: c.truncated, notes: this.notes, stoppedEarly: this.stoppedEarly, walks: this.walks };
  }

  /** ripgrep's flags for this search: the shared ones (searchFlags), with --context or without (read here). */
  private flags(withContext: boolean): string[] {
    const { respectIgnore, maxResults, contextLines } = this.req;
    return searchFlags(withContext ? { respectIgnore, maxResults, contextLines } : { respectIgnore, maxResults });
  }

  private typeArgs(): string[] {
    return this.typed ? typeFlags('editls', this.req.glob!.fileNameGlob!) : [];
  }

  /** What ripgrep searches, relative to scopeDir: the folder itself, or the scoped file. */
  private target(): string {
    return this.req.scope.directory ? '.' : path.basename(this.req.scope.absPath);
  }

  private relToScope(abs: string): string {
    return slashedRelative(this.scopeDir, abs);
  }

  private relToFirst(abs: string): string {
    return slashedRelative(this.firstFolder, abs);
  }

  /**
   * Whether a file in the scope is one this search takes (its file_pattern). A file-type filter lets
   * hidden *files* through (ripgrep skips the hidden check for files a type whitelists), so with one
   * in use hidden file names are dropped here.
   */
  private accepts(abs: string, rel = this.relToScope(abs)): boolean {
    if (!this.req.scope.directory) return true;
    if (this.typed && path.basename(abs).startsWith('.')) return false;
    return this.req.glob ? this.req.glob.test(rel) : true;
  }

  private report(): void {
    this.req.onProgress?.(this.collector.matchCount, this.collector.files.length);
  }

  /** Feeds the buffers that come before `rel` in path order (all of them without one); true once the cap is passed. */
  private flushBuffersBefore(rel: string | undefined): boolean {
    while (this.pendingBuffers.length > 0 && (rel === undefined || comparePaths(this.pendingBuffers[0]!.rel, rel) < 0)) {
      const next = this.pendingBuffers.shift()!;
      if (this.collector.addFile(next.file) === 'done') return true;
      this.report();
    }
    return false;
  }

  /** Every run's files go through here in path order, buffers merged in between; true once the cap is passed. */
  private feed(d: DiskFile): boolean {
    if (this.flushBuffersBefore(d.rel)) return true;
    const verdict = this.collector.addFile(d.file, d.binary);
    this.report();
    return verdict === 'done';
  }

  private feedSorted(files: DiskFile[]): boolean {
    files.sort((a, b) => comparePaths(a.rel, b.rel));
    for (const d of files) if (this.feed(d)) return true;
    return false;
  }

  /**
   * One ripgrep --json run, its files kept whole (ripgrep prints each file's messages together, in
   * parallel runs too), each checked as it ends (checkFile): its lines must be the file's bytes at
   * its place inside the scope. `readContext`: ripgrep runs without --context, and the check reads
   * the context lines too; a file where that cannot be done goes to `redo`. `stopAt`: stop once the
   * text files reported hold more matching lines than that. `onFile`: called with each file as it
   * ends instead (a sorted run feeds the collector so); true ends the run.
   */
  private async ripgrep(args: string[], o: { stopAt?: number; onFile?: (d: DiskFile) => boolean; readContext?: boolean; pattern?: string }): Promise<RunReport> {
    const { req, scopeDir } = this;
    const files: DiskFile[] = [];
    const redo: string[] = [];
    let current: (DiskFile & { skip: boolean }) | undefined;
    let received = 0;
    const exit = await runRipgrep({
      args: ['--json', ...args],
      cwd: scopeDir,
      signal: req.signal,
      // The parallel walk names its pattern apart: a ripgrep started ahead with the same other
      // arguments may take it, waiting for its pattern (ripgrepHelper.ts).
      ...(o.pattern !== undefined ? { pattern: o.pattern } : {}),
      onMessage: (m) => {
        switch (m.type) {
          case 'begin': {
            const abs = m.data.path ? path.resolve(scopeDir, dataPath(m.data.path)) : '';
            const rel = abs === '' ? '' : this.relToScope(abs);
            const skip = abs === '' || this.dirty.paths.has(abs) || !this.accepts(abs, rel);
            current = { rel: skip ? '' : rel, abs, raw: m.data.path && 'bytes' in m.data.path ? rawBytesPath(scopeDir, m.data.path) : abs, file: { path: skip ? '' : this.relToFirst(abs), uri: skip ? '' : fileUri(abs), lines: [] }, binary: false, matches: 0, skip, printed: [] };
            return 'continue';
          }
          case 'match':
          case 'context':
            if (!current || current.skip) return 'continue';
            current.file.lines.push(toSearchLine(m.data, m.type === 'match'));
            if (m.type === 'match') current.matches++;
            current.printed.push({ line: m.data.line_number ?? 0, offset: m.data.absolute_offset, bytes: dataBytes(m.data.lines) });
            return 'continue';
          case 'end': {
            const done = current;
            current = undefined;
            if (!done || done.skip || done.file.lines.length === 0) return 'continue';
            const { skip: _, ...d } = done;
            d.binary = m.data.binary_offset !== null;
            // A binary file is dropped with its hits (the collector would drop it too).
            if (d.binary && !o.onFile) return 'continue';
            if (!d.binary) {
              const verdict = checkFile(d, o.readContext ? req.contextLines : 0);
              if (verdict === 'moved') {
                this.dropped.add(d.abs);
                return 'continue';
              }
              // Searched again by name, with --context; a name that is not UTF-8 cannot go on a command line.
              if (verdict !== 'ok' && o.readContext && typeof d.raw === 'string') {
                redo.push(d.abs);
                return 'continue';
              }
              if (verdict === 'changed') {
                this.changed.add(d.abs);
                return 'continue';
              }
              // `unsupported` here: a UTF-16 file, where it was found; ripgrep's lines are kept (without
              // context lines for the rare one whose name is not UTF-8 either).
            }
            if (o.onFile) return o.onFile(d) ? 'stop' : 'continue';
            files.push(d);
            received += d.matches;
            req.onProgress?.(Math.min(received, req.maxResults), files.length);
            return o.stopAt !== undefined && received > o.stopAt ? 'stop' : 'continue';
          }
          default:
            return 'continue';
        }
      },
    });
    return { exit, files, redo };
  }
}

/** The real path of a folder and its identity now (real '' when it is gone). */
function identity(dir: string): { real: string; dev: number; ino: number } {
  try {
    const real = realpathSync.native(dir);
    const st = statSync(real);
    return { real, dev: st.dev, ino: st.ino };
  } catch {
    return { real: '', dev: -1, ino: -1 };
  }
}

/** A path ripgrep printed as bytes (a name that is not UTF-8), absolute and normalised as path.resolve would, the bytes kept exact. */
function rawBytesPath(scopeDir: string, d: { bytes: string }): Buffer {
  const bytes = Buffer.from(d.bytes, 'base64');
  // ripgrep prints the paths of a walk of `.` as `./name`; the leading `./` goes, as path.resolve drops it.
  const rel = bytes[0] === 0x2e && bytes[1] === 0x2f ? bytes.subarray(2) : bytes;
  return Buffer.concat([Buffer.from(`${scopeDir}${path.sep}`), rel]);
}

/** The scope's real path moved between the check and the end of the search: nothing is reported. */
function scopeChanged(deps: SearchDeps, req: SearchRequest, now: string, when: 'before' | 'during') {
  const where = now === '' ? 'no longer exists' : `now resolves to ${now}`;
  const message = `the search scope ${req.scope.relPath} ${where}: it was replaced (e.g. by a symlink) ${when === 'before' ? 'after it was checked' : 'while it was searched'}; nothing is reported, search again`;
  deps.log(`searchFiles refused: ${message}`);
  return fail('outside_workspace', message, { path: req.scope.relPath, absPath: req.scope.absPath, now, reason: 'scope_changed' });
}

function cancelled() {
  return fail('cancelled', 'searchFiles was cancelled; ripgrep was stopped');
}

function dataPath(d: { text: string } | { bytes: string }): string {
  return 'text' in d ? d.text : Buffer.from(d.bytes, 'base64').toString('utf8');
}

/**
 * Checks that the lines ripgrep printed for a file are its bytes now, at its place (searchContext.ts),
 * and adds `contextLines` lines of context around them read from the file (0 when ripgrep printed
 * them). `unsupported` (a UTF-16 file, which ripgrep transcodes) when the bytes cannot be compared.
 */
function checkFile(d: { raw: string | Buffer; file: FileHits; printed: Hit[] }, contextLines: number): 'ok' | NotRead {
  const context = fileContextAround(d.raw, d.printed, contextLines);
  if (typeof context === 'string') return context;
  if (context.length > 0) d.file.lines = mergeByLine(d.file.lines, context);
  d.printed = [];
  return 'ok';
}

/** ripgrep's lines and the context lines read around them (both in line order), in line order. */
function mergeByLine(lines: readonly SearchLine[], context: readonly { line: number; bytes: Buffer }[]): SearchLine[] {
  const out: SearchLine[] = [];
  let i = 0;
  for (const c of context) {
    while (i < lines.length && lines[i]!.line <= c.line) out.push(lines[i++]!);
    out.push(contextLine(c.line, c.bytes));
  }
  while (i < lines.length) out.push(lines[i++]!);
  return out;
}

/** Paths for ripgrep's command line, a run's worth at a time (each run's arguments under 64 KiB). */
function argumentChunks(paths: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let size = 0;
  for (const p of paths) {
    if (chunks.length === 0 || size + p.length + 1 > 64 * 1024) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1]!.push(p);
    size += p.length + 1;
  }
  return chunks;
}

/** A context line from its bytes, decoded as ripgrep's `{text}` or `{bytes}` would be. */
function contextLine(line: number, bytes: Buffer): SearchLine {
  const text = isUtf8(bytes) ? bytes.toString('utf8') : decodeBytesLine(bytes, []).text;
  return { line, text: stripTerminator(text), match: false, submatches: [] };
}

function toSearchLine(d: RgLineData, match: boolean): SearchLine {
  const offsets: number[] = [];
  for (const s of d.submatches) offsets.push(s.start, s.end);
  let text: string;
  let utf16: number[];
  if ('text' in d.lines) {
    text = d.lines.text;
    utf16 = utf16OffsetsOfUtf8(text, offsets);
  } else {
    const decoded = decodeBytesLine(dataBytes(d.lines), offsets);
    text = decoded.text;
    utf16 = decoded.offsets;
  }
  const stripped = stripTerminator(text);
  const submatches: SearchLine['submatches'] = [];
  for (let i = 0; i < d.submatches.length; i++) submatches.push({ start: Math.min(utf16[2 * i]!, stripped.length), end: Math.min(utf16[2 * i + 1]!, stripped.length) });
  return { line: d.line_number ?? 0, text: stripped, match, submatches };
}

/** A run that ended with exit code 2 before searching anything: a bad regex, or ripgrep failing outright. */
function exitFailure(exit: RipgrepExit, regex: string) {
  if (exit.code !== 2 || exit.sawSummary || exit.stopped) return undefined;
  const detail = exit.stderr.replace(/^rg: /gm, '').trim();
  if (/regex|literal .* is not allowed/i.test(detail)) {
    const reason = regexErrorReason(detail);
    return fail('invalid_regex', `regex ${JSON.stringify(regex)} is invalid: ${reason}; ripgrep takes Rust regex syntax (escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally)`, {
      regex,
      details: detail,
    });
  }
  return fail('io_error', `ripgrep failed: ${detail.split('\n')[0] ?? 'exit code 2'}`, { details: detail });
}

function regexErrorReason(detail: string): string {
  const error = /^error: (.+)$/m.exec(detail)?.[1];
  if (error) return error.trim();
  if (/literal "\\n" is not allowed/.test(detail)) return 'it matches a line break, and searchFiles matches within single lines';
  return detail.split('\n')[0]!.trim();
}

function warnings(stderr: string): string[] {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^rg: /, '').trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return [];
  const shown = lines.slice(0, 5).map((l) => `ripgrep: ${l}`);
  if (lines.length > 5) shown.push(`ripgrep: ... and ${lines.length - 5} more warnings`);
  return shown;
}

interface DirtyBuffer {
  absPath: string;
  uri: string;
  text: string;
}

/**
 * Open documents inside the scope whose text is not what is on disk. Their disk copies are never
 * reported (`paths`); those ripgrep would have searched on disk are searched as buffers (`searchable`).
 */
async function dirtyBuffers(
  deps: SearchDeps,
  req: SearchRequest,
  accepts: (abs: string) => boolean,
): Promise<{ paths: Set<string>; searchable: DirtyBuffer[] }> {
  const paths = new Set<string>();
  const candidates: (DirtyBuffer & { onDisk: boolean })[] = [];
  const inScope: { doc: { uri: string; text: string }; abs: string }[] = [];
  for (const doc of deps.documents.all()) {
    const p = uriToPath(doc.uri);
    if (p === undefined) continue;
    const abs = realpathOrSelf(p);
    const inside = req.scope.directory ? isInside(abs, req.scope.absPath) : abs === req.scope.absPath;
    if (!inside) continue;
    // A file open under several URIs (a symlinked path) is searched once, as its latest buffer.
    const latest = deps.documents.getByPath?.(abs);
    if (latest !== undefined && latest.uri !== doc.uri) continue;
    inScope.push({ doc, abs });
  }
  const disks = new Array<Awaited<ReturnType<typeof readTextFile>>>(inScope.length);
  await eachLimited(inScope.length, IO_CONCURRENCY, async (i) => {
    disks[i] = await readTextFile(inScope[i]!.abs, inScope[i]!.abs, deps.maxFileSize);
  });
  for (const [i, { doc, abs }] of inScope.entries()) {
    const disk = disks[i]!;
    if (disk.ok && disk.text === doc.text) continue;
    paths.add(abs);
    // No regular file behind the buffer (missing, or a FIFO readTextFile refused without opening it):
    // ripgrep would not search one on disk, so the ignore rules cannot be asked; the buffer is searched.
    const onDisk = disk.ok || (disk.kind !== 'file_not_found' && disk.data?.['special'] !== true);
    if (accepts(abs) && !doc.text.includes('\0')) candidates.push({ absPath: abs, uri: doc.uri, text: doc.text, onDisk });
  }
  if (candidates.length === 0 || !req.scope.directory) return { paths, searchable: candidates };
  // Would ripgrep search these files on disk (ignore rules, hidden folders)? Ask it, listing only
  // files with the same names. A buffer with no file on disk cannot be checked: it is searched.
  const listed = await listEligible(req.scope, req.respectIgnore, candidates.filter((c) => c.onDisk).map((c) => c.absPath), req.signal);
  return { paths, searchable: candidates.filter((c) => !c.onDisk || listed.has(c.absPath)) };
}

/**
 * Which of `files` (real paths under the scope folder) ripgrep would search on disk there: ignore
 * rules and hidden folders applied, asked with `rg --files` restricted to their names (in chunked
 * file types, or every file when the names would not fit a command line).
 */
export async function listEligible(scope: { absPath: string }, respectIgnore: boolean, files: readonly string[], signal: AbortSignal): Promise<Set<string>> {
  const found = new Set<string>();
  if (files.length === 0) return found;
  const names = [...new Set(files.map((f) => path.basename(f)))];
  const wanted = new Set(files);
  // Without a type (too many names for a command line, or a name with `:`), every file is listed.
  const type = nameTypeFlags('editlsbuffers', names) ?? [];
  await runRipgrep({
    args: ['--files', ...baseFlags(respectIgnore), ...type, '--', '.'],
    cwd: scope.absPath,
    signal,
    onLine: (line) => {
      const abs = path.resolve(scope.absPath, line);
      // The type lets hidden files through; without it ripgrep would have skipped them.
      if (wanted.has(abs) && !path.basename(abs).startsWith('.')) found.add(abs);
      return found.size === wanted.size ? 'stop' : 'continue';
    },
  });
  return found;
}


/** Reads and writes of buffers' files in flight at once (the thread pool has four threads). */
const IO_CONCURRENCY = 8;

async function isSpecialFile(abs: string): Promise<boolean> {
  try {
    const st = await fsp.stat(abs);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Searches the buffers' texts with one ripgrep run over private copies (a 0700 folder of 0600 files,
 * removed afterwards): one process whatever the number of buffers, no text on a command line. Each
 * copy gives at most maxResults + 1 matching lines (the cap needs no more). Hits come back per buffer.
 */
async function searchBuffers(
  buffers: readonly DirtyBuffer[],
  req: SearchRequest,
  relPath: (b: DirtyBuffer) => string,
): Promise<Result<{ files: (FileHits | undefined)[] }>> {
  const files: (FileHits | undefined)[] = buffers.map(() => undefined);
  if (buffers.length === 0) return { ok: true, files };
  const copies = await makeBufferCopies();
  const dir = copies.dir;
  try {
    await eachLimited(buffers.length, IO_CONCURRENCY, (i) =>
      req.signal.aborted ? undefined : fsp.writeFile(path.join(dir, `b${i}`), buffers[i]!.text, { mode: 0o600, flag: 'wx' }),
    );
    if (req.signal.aborted) return cancelled();
    const lines: SearchLine[][] = buffers.map(() => []);
    const binary: boolean[] = buffers.map(() => false);
    let current = -1;
    const exit = await runRipgrep({
      // The same flags as the files' runs; the copies are private names in a private folder, so no
      // ignore rule or hidden-name rule may apply to them.
      args: ['--json', ...searchFlags({ respectIgnore: false, maxResults: req.maxResults, contextLines: req.contextLines }), '--hidden', '-e', req.regex, '--', dir],
      cwd: dir,
      signal: req.signal,
      onMessage: (m) => {
        if (m.type === 'begin') {
          const name = m.data.path ? path.basename(dataPath(m.data.path)) : '';
          current = /^b\d+$/.test(name) ? Number(name.slice(1)) : -1;
          if (current >= buffers.length) current = -1;
        } else if ((m.type === 'match' || m.type === 'context') && current !== -1) {
          lines[current]!.push(toSearchLine(m.data, m.type === 'match'));
        } else if (m.type === 'end' && current !== -1) {
          binary[current] = m.data.binary_offset !== null;
          current = -1;
        }
        return 'continue';
      },
    });
    if (exit.cancelled) return cancelled();
    const failure = exitFailure(exit, req.regex);
    if (failure) return failure;
    for (const [i, b] of buffers.entries()) {
      if (!binary[i] && lines[i]!.length > 0) files[i] = { path: relPath(b), uri: b.uri, lines: lines[i]! };
    }
    return { ok: true, files };
  } finally {
    await copies.done();
  }
}
