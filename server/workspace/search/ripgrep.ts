// Runs the ripgrep binary of @vscode/ripgrep and streams its output line by line: `--json` messages
// validated against workspace/search/ripgrepSchema.ts, raw lines, or raw byte chunks. The consumer can stop
// the run at any line or chunk, and an AbortSignal kills it; either way the process is gone when the
// promise settles.
import { spawnRipgrep, startRipgrepAhead, startRipgrepHelper } from './ripgrepHelper.js';
import { parseRgMessage, type RgMessage } from './ripgrepSchema.js';
import { ripgrepBinary } from './ripgrepBinary.js';

export type Flow = 'continue' | 'stop';

export interface RipgrepRun {
  args: readonly string[];
  cwd?: string;
  /** Text written to ripgrep's stdin, which is then closed (search it with the path `-`). */
  stdin?: string;
  /**
   * The run's pattern, given apart from `args`: ripgrep gets `-e PATTERN` right before the `--` that
   * ends `args`' options. A ripgrep started ahead with the same `args` may take this run (the
   * pattern then goes to its stdin), and one is started ahead for the next run like it
   * (ripgrepHelper.ts): for searches an agent repeats with new patterns. Other runs put `-e` in `args`.
   */
  pattern?: string;
  signal?: AbortSignal;
  /** For `--json` runs: every message that fits the schema, in order. */
  onMessage?: (message: RgMessage) => Flow;
  /** For plain runs: every output line, without its `\n`. */
  onLine?: (line: string) => Flow;
  /**
   * For plain runs read as bytes: every stdout chunk as it arrives (a line may span chunks). Takes
   * precedence over `onLine` and `onMessage`: no decoding or line splitting happens here.
   */
  onChunk?: (chunk: Buffer) => Flow;
}

export interface RipgrepExit {
  /** ripgrep's exit code: 0 matches, 1 none, 2 an error (also with partial results); null when killed. */
  code: number | null;
  /** The consumer stopped the run early. */
  stopped: boolean;
  /** The signal aborted the run. */
  cancelled: boolean;
  /** ripgrep's stderr (first 64 KiB). */
  stderr: string;
  /** A `summary` message arrived, so ripgrep got as far as searching. */
  sawSummary: boolean;
  /** Output lines that did not fit the schema (first few), for the log. */
  malformed: string[];
}

/** The most characters of file-name globs put on one command line (each argument stays far below Linux's 128 KiB). */
const MAX_TYPE_GLOB_CHARS = 64 * 1024;
const TYPE_CHUNK_CHARS = 16 * 1024;

/**
 * ripgrep flags defining file type `type` as these exact file names (in chunks of a few KiB, each a
 * `{a,b,…}` glob), or undefined when they would not fit a command line or cannot be put in a type
 * (a `:` or `/` in a name): then the caller lists without the type and filters the names itself.
 */
export function nameTypeFlags(type: string, names: readonly string[]): string[] | undefined {
  if (names.length === 0 || names.some((n) => n.includes(':') || n.includes('/'))) return undefined;
  const escaped = names.map((n) => n.replace(/[\\*?[\]{},]/g, (c) => `\\${c}`));
  if (escaped.reduce((n, e) => n + e.length + 1, 0) > MAX_TYPE_GLOB_CHARS) return undefined;
  const flags: string[] = [];
  let chunk: string[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    flags.push('--type-add', `${type}:${chunk.length === 1 ? chunk[0]! : `{${chunk.join(',')}}`}`);
    chunk = [];
    size = 0;
  };
  for (const e of escaped) {
    if (size + e.length + 1 > TYPE_CHUNK_CHARS) flush();
    chunk.push(e);
    size += e.length + 1;
  }
  flush();
  return [...flags, '--type', type];
}

let rgPathPromise: Promise<string> | undefined;

/** ripgrep could not be run; the message says why and what to do. */
export class RipgrepUnavailable extends Error {}

/** Why `rg` could not be spawned, with the advice that fits: a missing or unusable binary, or a system out of processes, descriptors or memory. */
export function spawnFailure(rg: string, error: Error): RipgrepUnavailable {
  const code = (error as NodeJS.ErrnoException).code;
  const advice =
    code === 'ENOENT' || code === 'EACCES' || code === 'ENOEXEC'
      ? 'reinstall editls so that @vscode/ripgrep ships its binary'
      : code === 'EAGAIN' || code === 'EMFILE' || code === 'ENFILE' || code === 'ENOMEM'
        ? 'the system is out of processes, file descriptors or memory; search again once it has some to spare'
        : 'search again';
  return new RipgrepUnavailable(`cannot run ripgrep (${rg}): ${error.message}; ${advice}`);
}

/**
 * Starts ripgrep's helper process (main.ts: after `initialize`, or when `editls mcp` goes headless)
 * and, once the binary is located, warms it with one `rg --version` (RipgrepHelper.warm).
 */
export function startWarmRipgrepHelper(nodePath: string): void {
  const handle = startRipgrepHelper(nodePath);
  if (handle) ripgrepPath().then((rg) => handle.warm(rg), () => undefined);
}

/**
 * The ripgrep binary. @vscode/ripgrep throws on import when its platform package is missing: that
 * is a RipgrepUnavailable, and the next call tries again.
 */
export function ripgrepPath(): Promise<string> {
  // require in the bundle (CommonJS, run by dist/editls.js through vm.Script, where import() would
  // need --experimental-vm-modules), without loading @vscode/ripgrep when it can (ripgrepBinary.ts);
  // import() where the sources run as ES modules (the tests).
  const load = (): Promise<string> => (typeof require === 'function' ? Promise.resolve().then(() => ripgrepBinary(require)) : import('@vscode/ripgrep').then((m) => m.rgPath));
  rgPathPromise ??= load().catch((error: unknown) => {
    rgPathPromise = undefined;
    throw new RipgrepUnavailable(`ripgrep is not available: ${error instanceof Error ? error.message : String(error)}; reinstall editls so that @vscode/ripgrep ships its binary`);
  });
  return rgPathPromise;
}

/**
 * `kill` ends the child (SIGKILL) unless it has exited; an abort of `signal` runs `onAbort` and
 * kills it. `release` stops listening to the signal.
 */
export function killer(child: { readonly exitCode: number | null; readonly signalCode: NodeJS.Signals | null; kill(signal: NodeJS.Signals): boolean }, signal: AbortSignal | undefined, onAbort: () => void): { kill(): void; release(): void } {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const abort = () => {
    onAbort();
    kill();
  };
  signal?.addEventListener('abort', abort, { once: true });
  return { kill, release: () => signal?.removeEventListener('abort', abort) };
}

/**
 * Starts a ripgrep ahead for a run with these arguments whose pattern comes apart (RipgrepRun.pattern),
 * before any such run: the run then does not wait for the spawn. Nothing without the helper, or when
 * the binary cannot be found (the run will say so).
 */
export function runAhead(run: Pick<RipgrepRun, 'args' | 'cwd'>): void {
  ripgrepPath().then((rg) => startRipgrepAhead(rg, run.args, run.cwd), () => undefined);
}

export async function runRipgrep(run: RipgrepRun): Promise<RipgrepExit> {
  const rg = await ripgrepPath();
  if (run.signal?.aborted) return { code: null, stopped: false, cancelled: true, stderr: '', sawSummary: false, malformed: [] };

  return new Promise<RipgrepExit>((resolve, reject) => {
    // stdin is a pipe only for text to search; otherwise /dev/null (every run names its paths), and
    // the run goes through ripgrep's helper process when there is one (ripgrepHelper.ts).
    const child = spawnRipgrep(rg, run.args, run.cwd, run.stdin !== undefined, run.pattern);
    let stopped = false;
    let cancelled = false;
    let sawSummary = false;
    let stderr = '';
    const malformed: string[] = [];
    let settled = false;

    const { kill, release } = killer(child, run.signal, () => (cancelled = true));

    const handleLine = (line: string): Flow => {
      if (line === '') return 'continue';
      if (run.onLine) return run.onLine(line);
      if (!run.onMessage) return 'continue';
      const message = parseRgMessage(line);
      if (message === undefined) {
        if (malformed.length < 5) malformed.push(line.slice(0, 200));
        return 'continue';
      }
      if (message.type === 'summary') sawSummary = true;
      return run.onMessage(message);
    };

    let rest = '';
    const onChunk = run.onChunk;
    if (onChunk) {
      child.stdout.on('data', (chunk: Buffer) => {
        if (stopped || cancelled || onChunk(chunk) !== 'stop') return;
        stopped = true;
        kill();
      });
    } else {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        if (stopped || cancelled) return;
        // The partial line left from the previous chunk is joined to this chunk's first line only:
        // concatenating whole chunks would copy every 64 KiB chunk once more.
        let start = 0;
        let nl = chunk.indexOf('\n');
        if (rest !== '') {
          if (nl === -1) {
            rest += chunk;
            return;
          }
          const first = rest + chunk.slice(0, nl);
          rest = '';
          start = nl + 1;
          if (emit(first) === 'stop') return;
          nl = chunk.indexOf('\n', start);
        }
        for (; nl !== -1; nl = chunk.indexOf('\n', start)) {
          const line = chunk.slice(start, nl);
          start = nl + 1;
          if (emit(line) === 'stop') return;
        }
        rest = chunk.slice(start);
      });
    }
    const emit = (raw: string): Flow => {
      const line = run.onLine && raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
      if (handleLine(line) !== 'stop') return 'continue';
      stopped = true;
      rest = '';
      kill();
      return 'stop';
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 65536) stderr += chunk;
    });
    // EPIPE when ripgrep exits (or is killed) before reading all of stdin: nothing to do.
    if (run.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(run.stdin);
    }

    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      release();
      reject(spawnFailure(rg, error));
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      release();
      if (!stopped && !cancelled && rest !== '') handleLine(rest);
      resolve({ code, stopped, cancelled, stderr, sawSummary, malformed });
    });
  });
}
