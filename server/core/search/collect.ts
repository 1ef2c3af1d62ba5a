// Collects search hits file by file in path order and enforces the cap on matching lines: it says
// when the search can stop (the cap is passed and the last kept hit has its after-context), drops
// files ripgrep found to be binary, and turns hits beyond the cap into plain context lines.

export interface SearchLine {
  /** 1-based line number. */
  line: number;
  /** The line without its terminator, untruncated. */
  text: string;
  /** A matching line (false for a context line). */
  match: boolean;
  /** Matches on the line as UTF-16 [start, end) offsets in `text`. */
  submatches: { start: number; end: number }[];
}

export interface FileHits {
  /** Relative to the first workspace folder, `/`-separated. */
  path: string;
  uri: string;
  /** Matching and context lines in line order. */
  lines: SearchLine[];
}

export type Verdict = 'more' | 'done';

export class SearchCollector {
  readonly files: FileHits[] = [];
  /** Matching lines kept (never more than maxResults). */
  matchCount = 0;
  /** More matching lines exist than were kept. */
  truncated = false;
  private pending: FileHits | undefined;
  private pendingMatches = 0;
  /** Once the cap is passed: the last line that still belongs to the last kept hit's block. */
  private windowEnd = Infinity;
  private finished = false;

  constructor(
    private readonly maxResults: number,
    private readonly contextLines: number,
  ) {}

  get done(): boolean {
    return this.finished;
  }

  beginFile(path: string, uri: string): Verdict {
    if (this.finished) return 'done';
    if (this.pending) this.commit();
    this.pending = { path, uri, lines: [] };
    this.pendingMatches = 0;
    return 'more';
  }

  addLine(line: SearchLine): Verdict {
    const file = this.pending;
    if (this.finished || !file) return this.finished ? 'done' : 'more';
    if (this.windowEnd !== Infinity) {
      // The cap was passed in this file: keep only the last kept hit's after-context.
      if (line.line > this.windowEnd) return this.finish();
      file.lines.push(line.match ? { ...line, match: false, submatches: [] } : line);
      return line.line >= this.windowEnd ? this.finish() : 'more';
    }
    if (line.match) {
      if (this.matchCount + this.pendingMatches >= this.maxResults) {
        this.truncated = true;
        const last = this.lastMatchLine(file);
        this.windowEnd = last + this.contextLines;
        // Lines rg sent as before-context of this extra hit may lie past the last hit's window.
        file.lines = file.lines.filter((l) => l.line <= this.windowEnd);
        if (line.line > this.windowEnd) return this.finish();
        file.lines.push({ ...line, match: false, submatches: [] });
        return line.line >= this.windowEnd ? this.finish() : 'more';
      }
      this.pendingMatches++;
    }
    file.lines.push(line);
    return 'more';
  }

  /** Ends the current file; a binary file (ripgrep saw a NUL byte) is dropped with its hits. */
  endFile(binary: boolean): Verdict {
    if (this.finished) return 'done';
    if (binary && this.windowEnd === Infinity) {
      this.pending = undefined;
      this.pendingMatches = 0;
      return 'more';
    }
    if (this.windowEnd !== Infinity) return this.finish();
    this.commit();
    return 'more';
  }

  /** Adds a whole file at once (an open buffer searched on its own). */
  addFile(file: FileHits, binary = false): Verdict {
    if (this.beginFile(file.path, file.uri) === 'done') return 'done';
    for (const line of file.lines) {
      if (this.addLine(line) === 'done') return 'done';
    }
    return this.endFile(binary);
  }

  /** The stream ended (or was stopped): commit what is pending. */
  end(): void {
    if (!this.finished) this.finish();
  }

  private lastMatchLine(file: FileHits): number {
    for (let i = file.lines.length - 1; i >= 0; i--) if (file.lines[i]!.match) return file.lines[i]!.line;
    // No kept hit in this file: the window is empty, only earlier files are shown.
    return -Infinity;
  }

  private finish(): Verdict {
    this.commit();
    this.finished = true;
    return 'done';
  }

  private commit(): void {
    const file = this.pending;
    this.pending = undefined;
    if (!file) return;
    if (this.windowEnd === -Infinity) file.lines = [];
    this.matchCount += this.pendingMatches;
    this.pendingMatches = 0;
    if (file.lines.some((l) => l.match)) this.files.push(file);
  }
}
