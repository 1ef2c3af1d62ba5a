// The workspace symbol index: built by one streamed ripgrep pass over the workspace folders (the
// prefilter regex of core/symbols/languages.ts), then kept current file by file from didSave,
// didChangeWatchedFiles and open-buffer edits. Queries answer from what is indexed so far.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEF_FIELDS, FileExtractor, MAX_LINE_BYTES, scanText } from '../../core/symbols/extract.js';
import { INDEXED_EXTENSIONS, LANGUAGES, languageOf, prefilter, type Language } from '../../core/symbols/languages.js';
import { charMask, makeQuery, matchTierIn, rankKeyIn, TopK, type Query } from '../../core/symbols/rank.js';
import type { SymbolHit } from '../../core/symbols/types.js';
import { columnIn, type PositionEncoding } from '../../core/text/positions.js';
import { decodeText, readRegularFile } from '../disk/fileCodec.js';
import type { OpenDocuments } from '../editor/openDocuments.js';
import { fileUri, realpathOrSelf, uriToPath } from '../disk/paths.js';
import type { ProgressHandle } from '../../commands/ports/progress.js';
import { HeadingReader } from '../search/rgHeading.js';
import { nameTypeFlags, runRipgrep, type Flow } from '../search/ripgrep.js';
import { outputFailed, runRipgrepThroughFile } from '../search/ripgrepFile.js';
import type { RipgrepToFile } from '../search/ripgrepToFile.js';
import { builtIndexArgs, indexRunArgs } from './indexArgs.js';
import { isInside } from '../../core/containment.js';
import { END, FIELDS, IndexedFiles, KIND, KINDS, LINE, MASK, NAME_AT, NAME_END, START, type IndexedFile } from './indexedFiles.js';
import { buildNameTable, offerNames, type NameTable } from './nameTable.js';
import { flatCopy } from '../../core/text/flatCopy.js';

export interface SymbolIndexDeps {
  folders(): readonly string[];
  encoding(): PositionEncoding;
  documents: Pick<OpenDocuments, 'get' | 'getByPath'>;
  maxFileSize(): number;
  log(message: string): void;
  /** $/progress for the build (a handle that does nothing when the client has no progress support). */
  startProgress(title: string): ProgressHandle;
  /**
   * The build's ripgrep, started ahead (main.ts, once `initialize` is answered), once: the first
   * build reads it when its arguments are the build's, and stops it otherwise.
   */
  takeAhead?(): RipgrepToFile | undefined;
  /** Where the build's temporary file for ripgrep's output goes (the system's temporary folder when absent). */
  tempDir?(): string;
  /**
   * Symbols outside the name table from which one is (re)built: NAME_TABLE_MIN when absent (tests
   * pass 0 to query through a table on small folders).
   */
  nameTableMin?: number;
  /**
   * How the name table's build lets other work in between its slices (setImmediate when absent),
   * and how long a slice lasts (NAME_TABLE_SLICE_MS): tests hold a build half-way with these.
   */
  nameTableBreak?(): Promise<void>;
  nameTableSliceMs?: number;
}

export type FileChange = { uri: string; type: 'created' | 'changed' | 'deleted' };

/**
 * ripgrep flags of the index build; the README lists them. ripgrep keeps its own thread count (one
 * per core): on two cores that beat leaving one core to the JavaScript thread that consumes its
 * output, also with other processes busy.
 */
export function indexFlags(maxFileSize: number): string[] {
  return [
    '--no-config',
    '--no-require-git',
    '--no-messages',
    '--crlf',
    '--heading',
    '--null',
    '--line-number',
    '--color',
    'never',
    '--max-columns',
    String(MAX_LINE_BYTES),
    '--max-filesize',
    String(maxFileSize),
    '--type-add',
    `editlssource:*.{${INDEXED_EXTENSIONS.join(',')}}`,
    '--type',
    'editlssource',
  ];
}

/**
 * ripgrep's arguments for a build, up to the folders (indexRunArgs adds them). In the bundles, those
 * of the default maxFileSize were computed when editls was built (the regex of languages.ts takes
 * 5-10 ms to make): main.ts's build started ahead uses them, and so does the first build here.
 */
export function indexArgsBefore(maxFileSize: number): string[] {
  const built = builtIndexArgs(maxFileSize);
  return built !== undefined ? [...built] : [...indexFlags(maxFileSize), '-e', prefilter().regex, '--'];
}

/** Symbols per file beyond this are dropped (generated tables, bundles). */
const MAX_SYMBOLS_PER_FILE = 5000;
/** Symbols scanned (or names tested) between two yields to the event loop during a query. */
const QUERY_SLICE = 40_000;
/** Names of the name table tested in one go (then the work done is checked against QUERY_SLICE). */
const TABLE_CHUNK = 4096;
/**
 * The symbols outside the name table (plus those it lists in vain) that make it worth (re)building:
 * below this, scanning them one by one takes well under a millisecond. A table is also rebuilt once
 * a thirty-second of its size is stale.
 */
const NAME_TABLE_MIN = 20_000;

/** How long a query waits for the first build when nothing is indexed yet. */
const FIRST_QUERY_WAIT_MS = 1000;

export class SymbolIndex {
  private readonly files = new IndexedFiles();
  /** The name table queries use, with the records indexed since (files.unlisted) scanned beside it. */
  private table: NameTable | undefined;
  /** The table being built, if any; bumped to abandon it. */
  private tableJob: { id: number; done: Promise<void> } | undefined;
  private tableJobs = 0;
  private build: AbortController | undefined;
  private generation = 0;
  private readonly pending = new Set<Promise<void>>();
  private readonly dirtyBuffers = new Set<string>();
  /** Files updated one by one while a build runs: the build's end must not drop them as unseen. */
  private readonly updatedDuringBuild = new Set<string>();
  /** Resolves when the current (or last) full build finishes. */
  built: Promise<void> = Promise.resolve();
  building = false;
  /** When the running (or last) build started, and whether any build has ended with the whole index. */
  private buildStarted = 0;
  private everBuilt = false;
  /** The folders the index was last made for (joined); a query finding others first drops the files outside them. */
  private foldersKey = '';

  constructor(private readonly deps: SymbolIndexDeps) {}

  get fileCount(): number {
    return this.files.size;
  }

  get symbolCount(): number {
    return this.files.symbols;
  }

  /** (Re)builds the whole index in the background; a running build is abandoned. */
  rebuild(): Promise<void> {
    this.buildStarted = Date.now();
    this.build?.abort();
    // The build replaces every record: a table kept meanwhile would keep all the old ones alive.
    this.dropNameTable();
    const controller = new AbortController();
    this.build = controller;
    const generation = ++this.generation;
    this.building = true;
    this.built = this.runBuild(controller.signal, generation).finally(() => {
      if (this.generation === generation) {
        this.building = false;
        this.build = undefined;
      }
    });
    return this.built;
  }

  dispose(): void {
    this.deps.takeAhead?.()?.discard();
    this.build?.abort();
    this.dropNameTable();
  }

  /** The name table's distinct names and the symbols it lists (some since retired), if one is built. */
  get nameTableSize(): { names: number; symbols: number } | undefined {
    return this.table && { names: this.table.masks.length, symbols: this.table.symFile.length };
  }

  private dropNameTable(): void {
    this.tableJobs++;
    if (this.table === undefined) return;
    this.table = undefined;
    this.files.unlistAll();
  }

  /** Resolves when no name table is being built (tests wait on it; queries never do). */
  async nameTableSettled(): Promise<void> {
    while (this.tableJob !== undefined) await this.tableJob.done;
  }

  /**
   * Starts building a name table in the background when enough symbols are outside the current
   * one, and no full build is running (it would retire most of what the table holds).
   */
  private maybeBuildNameTable(): void {
    if (this.building || this.tableJob !== undefined) return;
    // Symbols scanned one by one beside the table, and symbols the table lists in vain (retired).
    const listed = this.table?.symFile.length ?? 0;
    const stale = this.files.unlistedSymbols + (listed - (this.files.symbols - this.files.unlistedSymbols));
    if (stale === 0 || stale < Math.max(this.deps.nameTableMin ?? NAME_TABLE_MIN, listed / 32)) return;
    const id = ++this.tableJobs;
    const snapshot = [...this.files.values()];
    const started = Date.now();
    const pause = async () => {
      await (this.deps.nameTableBreak?.() ?? new Promise<void>((resolve) => setImmediate(resolve)));
      return this.tableJobs === id && !this.building;
    };
    const done = buildNameTable(snapshot, pause, this.deps.nameTableSliceMs)
      .then((table) => {
        if (table === undefined || this.tableJobs !== id || this.building) return;
        this.table = table;
        this.files.listed(snapshot);
        this.deps.log(`symbol index: name table of ${table.masks.length} names for ${table.symFile.length} symbols (${Date.now() - started} ms)`);
      })
      .catch((error) => this.deps.log(`symbol index: name table failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.tableJob?.id === id) this.tableJob = undefined;
      });
    this.tableJob = { id, done };
  }

  /** The ripgrep started ahead when it was started with these arguments; stopped otherwise. */
  private adoptAhead(args: readonly string[], cwd: string | undefined): RipgrepToFile | undefined {
    const ahead = this.deps.takeAhead?.();
    if (ahead === undefined) return undefined;
    if (ahead.cwd === cwd && ahead.args.length === args.length && ahead.args.every((a, i) => a === args[i])) {
      this.deps.log('symbol index: building from the ripgrep started once initialize was answered');
      return ahead;
    }
    ahead.discard();
    return undefined;
  }

  private async runBuild(signal: AbortSignal, generation: number, viaPipe = false): Promise<void> {
    const folders = this.deps.folders();
    const started = Date.now();
    this.foldersKey = folders.join('\0');
    if (folders.length === 0) {
      this.files.clear();
      return;
    }
    const progress = this.deps.startProgress('editls: indexing symbols');
    const seen = new Map<string, IndexedFile>();
    let seenSymbols = 0;
    // Files no longer under a folder go at once; the others are replaced as the build reaches them.
    for (const abs of [...this.files.keys()]) if (!folders.some((f) => isInside(abs, f))) this.files.drop(abs);
    // One folder is searched as `.` from inside it, and its paths come back as `./…`: ripgrep
    // resolves every path it prints one component at a time (a readlink each), so shorter paths
    // are cheaper. Several folders are passed as they are.
    const single = folders.length === 1 ? folders[0] : undefined;
    // Columns in utf-8/utf-32 need the line text; utf-16 columns are what the extractor gives.
    const keepLines = this.deps.encoding() !== 'utf-16';
    let abs = '';
    let extractor: FileExtractor | undefined;
    let lineTexts: string[] = [];
    let lines = 0;
    const finish = () => {
      if (extractor === undefined) return;
      const texts = lineTexts;
      const file = this.fileFrom(abs, extractor, (line) => texts[line] ?? '');
      // The names are slices of ripgrep's output: forget them now rather than at the next file, so
      // that the last chunk of a build does not stay reachable through them.
      extractor.reset();
      extractor = undefined;
      seen.set(abs, file);
      seenSymbols += file.count;
      this.files.put(file);
      // An open buffer is the truth for its file: the next query indexes its text instead.
      const open = this.deps.documents.getByPath(abs);
      if (open) this.dirtyBuffers.add(open.uri);
    };
    // One extractor per language, all made at the first file (ripgrep is started by then): a
    // language first met halfway through the build would otherwise take a path the optimised code
    // has not seen.
    let extractors: Map<Language, FileExtractor> | undefined;
    const reader = new HeadingReader({
      file: (p) => {
        finish();
        // The name starts after the last separator (ripgrep prints the paths it was given joined
        // with the platform's). A file type lets hidden files through; ripgrep would skip them otherwise.
        const at = p.lastIndexOf(path.sep) + 1;
        const language = p.charCodeAt(at) === 46 ? undefined : languageOf(p.slice(at));
        if (language === undefined) return false;
        abs = single === undefined ? p : single + p.slice(1);
        extractors ??= new Map(LANGUAGES.map((l) => [l, new FileExtractor(l, true)]));
        extractor = extractors.get(language)!;
        extractor.reset();
        if (keepLines) lineTexts = [];
        return true;
      },
      line: (line, s, from, to) => {
        const x = extractor!;
        const before = x.count;
        if (before < MAX_SYMBOLS_PER_FILE) {
          x.addLineIn(line - 1, s, from, to);
          if (keepLines && x.count > before) lineTexts[line - 1] = s.slice(from, to);
        }
        lines++;
      },
    });
    let reported = 0;
    try {
      const run = {
        args: indexRunArgs(indexArgsBefore(this.deps.maxFileSize()), folders),
        cwd: folders[0],
        signal,
        onChunk: (chunk: Buffer): Flow => {
          reader.push(chunk);
          // Here rather than per line, which would make the hot line path rarely take a branch.
          if (lines - reported >= 5000) {
            reported = lines;
            progress.report(`${seen.size} files, ${seenSymbols} symbols`);
          }
          return 'continue';
        },
      };
      // Through a temporary file when one can be made, else a pipe (workspace/search/ripgrepFile.ts).
      const ahead = viaPipe ? undefined : this.adoptAhead(run.args, run.cwd);
      const exit = viaPipe ? await runRipgrep(run) : ((await runRipgrepThroughFile({ ...run, tempDir: this.deps.tempDir?.() }, ahead)) ?? (await runRipgrep(run)));
      if (outputFailed(exit) && !viaPipe) {
        // The disk filled up under the temporary file: build again on a pipe.
        this.deps.log(`symbol index: ripgrep could not write its output (${exit.stderr.split('\n')[0] ?? ''}); building again without a temporary file`);
        progress.done();
        return this.runBuild(signal, generation, true);
      }
      if (!exit.cancelled) reader.end();
      finish();
      if (exit.cancelled || generation !== this.generation) return;
      // Files the build did not reach any more (deleted, now ignored) leave the index.
      for (const abs of [...this.files.keys()]) {
        if (!seen.has(abs) && !this.updatedDuringBuild.has(abs) && !this.deps.documents.getByPath(abs)) this.files.drop(abs);
      }
      this.updatedDuringBuild.clear();
      if (exit.code === 2) this.deps.log(`symbol index: ripgrep reported errors: ${exit.stderr.split('\n')[0] ?? ''}`);
      this.everBuilt = true;
      const summary = `indexed ${this.symbolCount} symbols in ${this.files.size} files (${Date.now() - started} ms)`;
      this.deps.log(`symbol index: ${summary}`);
      progress.done(summary);
    } catch (error) {
      this.deps.log(`symbol index: build failed: ${error instanceof Error ? error.message : String(error)}; workspace/symbol answers from open buffers only`);
      progress.done('symbol index unavailable');
    } finally {
      progress.done();
    }
  }

  private fileFrom(abs: string, found: FileExtractor, lineText: (line: number) => string, uri?: string): IndexedFile {
    const count = Math.min(found.count, MAX_SYMBOLS_PER_FILE);
    const foundNames = found.names;
    // Copies, so that the names stop referring to ripgrep's output chunks (join returns a lone
    // element as it is).
    const names = count === 1 ? flatCopy(foundNames[0]!) : foundNames.slice(0, count).join('');
    let lowers = names.toLowerCase();
    // Name by name when the whole string would differ: a few characters change length when
    // lower-cased (İ) and Σ depends on the letter after it.
    if (lowers.length !== names.length || names.includes('\u03a3')) lowers = lowerEach(foundNames, count);
    const data = symbolData(found.data, foundNames, count, lowers);
    const encoding = this.deps.encoding();
    if (encoding !== 'utf-16') convertColumns(data, count, lineText, encoding);
    // A copy: the build's extractor is reused for the next file.
    const containers = found.hasContainers ? found.containers.slice(0, count) : undefined;
    const folders = this.deps.folders();
    const first = folders[0] ?? path.dirname(abs);
    const rel = abs.startsWith(first) && abs[first.length] === path.sep ? abs.slice(first.length + 1) : path.relative(first, abs);
    return { abs, rel: path.sep === '/' ? rel : rel.split(path.sep).join('/'), uri: uri ?? fileUri(abs), count, names, lowers, containers, data, order: 0, retired: false };
  }

  private indexText(abs: string, text: string, uri?: string): void {
    const language = languageOf(path.basename(abs));
    if (!language) return;
    const found = scanText(new FileExtractor(language), text);
    if (this.building) this.updatedDuringBuild.add(abs);
    const lines = found.count > 0 && this.deps.encoding() !== 'utf-16' ? text.split(/\r?\n/) : [];
    this.files.put(this.fileFrom(abs, found, (line) => lines[line] ?? '', uri));
  }

  /** Runs an update and lets queries wait for it. */
  private track(work: Promise<void>): void {
    const p = work.catch((error) => this.deps.log(`symbol index: update failed: ${error instanceof Error ? error.message : String(error)}`));
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private inWorkspace(abs: string): boolean {
    const name = path.basename(abs);
    if (name.startsWith('.') || !languageOf(name)) return false;
    return this.deps.folders().some((f) => isInside(abs, f));
  }

  /** textDocument/didSave: the saved text is the buffer's. */
  fileSaved(uri: string): void {
    this.bufferChanged(uri);
  }

  /** didOpen/didChange: re-read from the buffer at the next query. */
  bufferChanged(uri: string): void {
    const p = uriToPath(uri);
    if (p === undefined || !this.inWorkspace(realpathOrSelf(p))) return;
    this.dirtyBuffers.add(uri);
  }

  /** didClose: the disk copy is the truth again. */
  bufferClosed(uri: string): void {
    this.dirtyBuffers.delete(uri);
    const p = uriToPath(uri);
    if (p === undefined) return;
    const abs = realpathOrSelf(p);
    if (this.files.has(abs)) this.track(this.reindexFromDisk([abs]));
  }

  /** workspace/didChangeWatchedFiles. */
  watchedFilesChanged(changes: readonly FileChange[]): void {
    const reread: string[] = [];
    for (const change of changes) {
      const p = uriToPath(change.uri);
      if (p === undefined) continue;
      const abs = change.type === 'deleted' ? path.resolve(p) : realpathOrSelf(p);
      if (change.type === 'deleted') {
        // A deleted folder takes every file below it along.
        for (const known of [...this.files.keys()]) if (known === abs || isInside(known, abs)) this.files.drop(known);
        continue;
      }
      if (this.deps.documents.getByPath(abs)) continue; // the buffer is the truth
      if (this.inWorkspace(abs)) reread.push(abs);
    }
    if (reread.length > 0) this.track(this.reindexFromDisk(reread));
  }

  /** Re-reads files from disk; files not yet in the index are first checked against the ignore rules. */
  private async reindexFromDisk(files: readonly string[]): Promise<void> {
    const known = files.filter((f) => this.files.has(f));
    const unknown = files.filter((f) => !this.files.has(f));
    const eligible = unknown.length > 0 ? await this.eligible(unknown) : new Set<string>();
    for (const abs of [...known, ...unknown.filter((f) => eligible.has(f))]) {
      if (this.deps.documents.getByPath(abs)) continue;
      // Never a plain readFile: a FIFO (or one swapped in for the file) would block a libuv thread.
      const read = await readRegularFile(abs, abs, this.deps.maxFileSize());
      if (!read.ok) {
        this.files.drop(abs);
        continue;
      }
      const buf = read.buf;
      if (buf.includes(0)) {
        this.files.drop(abs);
        continue;
      }
      const decoded = decodeText(buf, abs);
      if (!decoded.ok) {
        this.files.drop(abs);
        continue;
      }
      this.indexText(abs, decoded.text);
    }
  }

  /** Which of these files would the build index (ignore rules, hidden folders)? Asks ripgrep, listing only these names. */
  private async eligible(files: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(files);
    const found = new Set<string>();
    const folders = this.deps.folders();
    if (folders.length === 0) return found;
    const names = [...new Set(files.map((f) => path.basename(f)))];
    // A name with `:` cannot go into a ripgrep type definition, and thousands of names would not fit
    // a command line: then every source file is listed instead.
    const type = nameTypeFlags('editlscheck', names) ?? ['--type-add', `editlscheck:*.{${INDEXED_EXTENSIONS.join(',')}}`, '--type', 'editlscheck'];
    await runRipgrep({
      args: ['--files', '--no-config', '--no-require-git', '--no-messages', ...type, '--', ...folders],
      cwd: folders[0],
      onLine: (line) => {
        if (wanted.has(line)) found.add(line);
        return found.size === wanted.size ? 'stop' : 'continue';
      },
    });
    return found;
  }

  private refreshBuffers(): void {
    if (this.dirtyBuffers.size === 0) return;
    const uris = [...this.dirtyBuffers];
    this.dirtyBuffers.clear();
    const unknown: { abs: string; uri: string }[] = [];
    for (const uri of uris) {
      const doc = this.deps.documents.get(uri);
      const p = uriToPath(uri);
      if (!doc || p === undefined) continue;
      const abs = realpathOrSelf(p);
      if (this.files.has(abs)) this.indexText(abs, doc.text, doc.uri);
      else unknown.push({ abs, uri });
    }
    if (unknown.length > 0) {
      this.track(
        this.eligible(unknown.map((u) => u.abs)).then((ok) => {
          for (const u of unknown) {
            const doc = this.deps.documents.get(u.uri);
            // A buffer with no file on disk cannot be checked against the ignore rules: it is indexed.
            if (doc && (ok.has(u.abs) || !existsSync(u.abs))) this.indexText(u.abs, doc.text, doc.uri);
          }
        }),
      );
    }
  }

  private ordered = new WeakSet<IndexedFile>();

  /** Numbers the files in path order when any file object changed since the last query. */
  private refreshOrder(): void {
    let stale = false;
    for (const f of this.files.values()) {
      if (!this.ordered.has(f)) {
        stale = true;
        break;
      }
    }
    if (!stale) return;
    const all = [...this.files.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    all.forEach((f, i) => {
      f.order = i;
      this.ordered.add(f);
    });
  }

  /**
   * A folder that changed since the index was made (replaced by a symlink, removed: deps.folders()
   * leaves it out) takes its files out of the index: their paths now lead elsewhere.
   */
  private dropChangedFolders(): void {
    const folders = this.deps.folders();
    const key = folders.join('\0');
    if (key === this.foldersKey) return;
    this.foldersKey = key;
    for (const abs of [...this.files.keys()]) if (!folders.some((f) => isInside(abs, f))) this.files.drop(abs);
  }

  /** Ranked hits for a workspace/symbol query, from files inside `within` when given; 'cancelled' when the signal fires. */
  async query(raw: string, limit: number, signal: AbortSignal, within?: string): Promise<SymbolHit[] | 'cancelled'> {
    // A query that arrives before the build indexed anything (an agent asking right after
    // `initialized`) waits for the build, at most a second, rather than answering an empty list;
    // so does one in the first second of the session's first build, which would otherwise answer
    // from the part read so far (ripgrep's output can be all there while the last files are
    // still being read). Past that, queries answer from what is there (Helix re-queries per keystroke).
    const waitUntil = !this.building ? 0 : this.files.size === 0 ? Date.now() + FIRST_QUERY_WAIT_MS : this.everBuilt ? 0 : this.buildStarted + FIRST_QUERY_WAIT_MS;
    const wait = waitUntil - Date.now();
    if (wait > 0) await Promise.race([this.built.catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, wait))]);
    this.refreshBuffers();
    if (this.pending.size > 0) await Promise.all([...this.pending]);
    if (signal.aborted) return 'cancelled';
    this.dropChangedFolders();
    const q = makeQuery(raw);
    this.refreshOrder();
    this.maybeBuildNameTable();
    const top = new TopK<[IndexedFile, number]>(limit);
    // Both are normalised real paths: a prefix test (path.relative per file would cost a query milliseconds).
    const prefix = within === undefined ? undefined : within.endsWith(path.sep) ? within : within + path.sep;
    // Taken now: a table finished while this query yields lists records this query would then miss.
    const table = this.table;
    const unlisted = [...this.files.unlisted];
    let work = 0;
    const breathe = async (): Promise<boolean> => {
      work = 0;
      // Let $/cancelRequest (Helix re-queries on every keystroke) and other messages in.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return !signal.aborted;
    };
    if (table !== undefined) {
      for (let k = 0; k < table.masks.length; k += TABLE_CHUNK) {
        work += offerNames(table, q, top, prefix, k, Math.min(table.masks.length, k + TABLE_CHUNK));
        if (work >= QUERY_SLICE && !(await breathe())) return 'cancelled';
      }
    }
    for (const file of unlisted) {
      if (file.retired || (prefix !== undefined && !file.abs.startsWith(prefix))) continue;
      offerFile(q, top, file);
      work += file.count;
      if (work >= QUERY_SLICE && !(await breathe())) return 'cancelled';
    }
    return top.sorted().map(([file, i]) => {
      const container = file.containers?.[i];
      const at = i * FIELDS;
      return {
        name: file.names.slice(file.data[at + NAME_AT]!, file.data[at + NAME_END]!),
        kind: KINDS[file.data[at + KIND]!]!,
        ...(container !== undefined ? { container } : {}),
        uri: file.uri,
        line: file.data[at + LINE]!,
        character: file.data[at + START]!,
        endCharacter: file.data[at + END]!,
      };
    });
  }
}

/** Offers every symbol of one record that matches `q` to `top`. */
function offerFile(q: Query, top: TopK<[IndexedFile, number]>, file: IndexedFile): void {
  const { names, lowers, data } = file;
  for (let i = 0, at = 0; i < file.count; i++, at += FIELDS) {
    const from = data[at + NAME_AT]!;
    const to = data[at + NAME_END]!;
    const tier = matchTierIn(q, names, lowers, from, to, data[at + MASK]!, top.worstUseful());
    if (tier < 0) continue;
    const key = rankKeyIn(q, names, from, to, tier, KINDS[data[at + KIND]!]!);
    if (top.mightAccept(key)) top.push({ item: [file, i], key, order: file.order, line: data[at + LINE]!, column: data[at + START]! });
  }
}

/** The index's FIELDS numbers for the first `count` definitions of an extractor (UTF-16 columns). */
function symbolData(defs: Int32Array, names: readonly string[], count: number, lowers: string): Int32Array {
  const data = new Int32Array(count * FIELDS);
  let offset = 0;
  for (let i = 0, at = 0, d = 0; i < count; i++, at += FIELDS, d += DEF_FIELDS) {
    const from = offset;
    offset += names[i]!.length;
    data[at + MASK] = charMask(lowers, from, offset);
    data[at + KIND] = defs[d + 3]!;
    data[at + LINE] = defs[d]!;
    data[at + START] = defs[d + 1]!;
    data[at + END] = defs[d + 2]!;
    data[at + NAME_AT] = from;
    data[at + NAME_END] = offset;
  }
  return data;
}

/** UTF-16 name columns to utf-8 or utf-32 ones. */
function convertColumns(data: Int32Array, count: number, lineText: (line: number) => string, encoding: PositionEncoding): void {
  for (let at = 0; at < count * FIELDS; at += FIELDS) {
    const text = lineText(data[at + LINE]!);
    data[at + START] = columnIn(text, data[at + START]!, encoding);
    data[at + END] = columnIn(text, data[at + END]!, encoding);
  }
}

/** Lower-cased names joined, each lower-cased on its own (ASCII only where that changes its length). */
function lowerEach(names: readonly string[], count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const lower = names[i]!.toLowerCase();
    out += lower.length === names[i]!.length ? lower : names[i]!.replace(/[A-Z]/g, (c) => c.toLowerCase());
  }
  return out;
}

