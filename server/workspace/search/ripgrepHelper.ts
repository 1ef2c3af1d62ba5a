// ripgrep started by a small helper process rather than by the server. A fork of the server marks
// every page of its large heap copy-on-write, so each page the server writes afterwards faults once:
// about 400 faults and 9 ms of CPU a small search on two cores, taken from ripgrep's own threads.
// The helper, started once while the server is small, forks ripgrep and hands its stdout over as a
// descriptor; ripgrep's stderr comes back with its exit report. Without a helper (not started, gone,
// or silent past a deadline) ripgrep is spawned directly, also for the runs that were waiting on it.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { statSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';

/** What runRipgrep reads of ripgrep's stdout and stderr: a child's Readable, or a pipe the helper hands over. */
export interface RipgrepOutput {
  setEncoding(encoding: BufferEncoding): unknown;
  /** Strings once an encoding is set, Buffers otherwise. */
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

type DataListener = ((chunk: string) => void) | ((chunk: Buffer) => void);

/** What runRipgrep uses of a child process; a ChildProcess has it, and so does a run through the helper. */
export interface RipgrepChild extends EventEmitter {
  readonly stdout: RipgrepOutput;
  readonly stderr: RipgrepOutput;
  readonly stdin: Writable | null;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
}

/**
 * The helper, run with `node -e`. It starts the ripgreps asked for in order, 10 ms of spawns per turn of
 * its event loop, so that a burst of requests on a busy machine never keeps it silent. It stops reading ripgrep's stdout before sending it (`readStop`):
 * what ripgrep writes stays in the pipe for the server, none of it is read here. ripgrep's stderr
 * (warnings, a bad regex; its first 64 KiB) is read here and sent with the exit report once that pipe
 * has closed and ripgrep has exited: the server has one descriptor a run to watch, not two. A run
 * started ahead (`stdin`: a ripgrep that reads its pattern with `-f -`) also hands its stdin over. It
 * kills its ripgreps and exits when the server goes: when the IPC channel closes (Node emits no
 * 'disconnect' when it closes while a sent descriptor awaits its acknowledgement, so the channel is
 * also looked at twice a second). A report due after that (a ripgrep started ahead ends as soon as the
 * server's end of its stdin closes) is dropped: sent without a callback it would be an unhandled error
 * printed on editls's stderr.
 */
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
const { statSync } = require('node:fs');
const folderId = (p) => { try { const s = statSync(p); return s.isDirectory() ? s.dev + ':' + s.ino : undefined; } catch { return undefined; } };
const kids = new Map();
const send = (m, h) => { if (!process.connected) return; try { process.send(m, h, {}, () => {}); } catch {} };
// Requests wait here and are started a few milliseconds' worth at a time: Node hands a burst of
// messages over in one go, and spawning them all at once would keep every answer (and the
// acknowledgements its descriptors wait on) back until the last spawn, silent past the deadline.
const queue = [];
const killedEarly = new Set();
let scheduled = false;
const drain = () => {
  scheduled = false;
  const until = Date.now() + 10;
  while (queue.length > 0) {
    run(queue.shift());
    if (queue.length > 0 && Date.now() >= until) { scheduled = true; setImmediate(drain); return; }
  }
};
process.on('message', (m) => {
  if (typeof m.kill === 'number') {
    const c = kids.get(m.kill);
    if (c) c.kill('SIGKILL');
    else if (queue.some((q) => q.id === m.kill)) killedEarly.add(m.kill);
    return;
  }
  queue.push(m);
  if (!scheduled) { scheduled = true; setImmediate(drain); }
});
const run = (m) => {
  let c;
  const before = m.stdin && folderId(m.cwd);
  try { c = spawn(m.file, m.args, { cwd: m.cwd, stdio: [m.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], windowsHide: true }); }
  catch (e) { send({ id: m.id, kind: 'error', message: String(e && e.message) }); return; }
  c.on('error', (e) => { kids.delete(m.id); send({ id: m.id, kind: 'error', message: e.message }); });
  if (c.pid === undefined) return;
  kids.set(m.id, c);
  if (m.stdin) {
    // The folder ripgrep really works in: its /proc entry, else the path's before and after the spawn when they agree.
    const after = folderId(m.cwd);
    const cwd = folderId('/proc/' + c.pid + '/cwd') ?? (before === after ? after : undefined);
    c.stdin.on('error', () => {});
    send({ id: m.id, kind: 'stdin', cwd }, c.stdin);
  }
  c.stdout._handle.readStop();
  send({ id: m.id, kind: 'stdout' }, c.stdout);
  let stderr = '';
  let exit;
  let stderrClosed = false;
  const report = () => { if (!exit || !stderrClosed) return; kids.delete(m.id); send({ id: m.id, kind: 'exit', code: exit[0], signal: exit[1], stderr: stderr.slice(0, 65536) }); };
  c.stderr.setEncoding('utf8');
  c.stderr.on('data', (d) => { if (stderr.length < 65536) stderr += d; });
  c.stderr.on('close', () => { stderrClosed = true; report(); });
  c.on('exit', (code, signal) => { exit = [code, signal]; report(); });
  if (killedEarly.delete(m.id)) c.kill('SIGKILL');
};
const quit = () => { for (const c of kids.values()) c.kill('SIGKILL'); process.exit(0); };
process.on('disconnect', quit);
setInterval(() => { if (!process.channel) quit(); }, 500).unref();
`;

/**
 * How long the helper may stay silent while a run waits on it (for ripgrep's stdout, or for its exit
 * once the output has ended) before it is given up. Silent means no message at all: a helper working
 * through a queue of spawns on a busy machine answers other runs meanwhile and is not given up.
 */
const HANDOVER_MS = 5000;

type HelperMessage =
  | { id: number; kind: 'stdout' }
  | { id: number; kind: 'stdin'; cwd?: unknown }
  | { id: number; kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; stderr?: unknown }
  | { id: number; kind: 'error'; message: string };

/** What a run searches with: for a run that took a ripgrep started ahead, its own arguments (`-e PATTERN`). */
interface Request {
  file: string;
  args: readonly string[];
  cwd: string | undefined;
}

/**
 * ripgrep's stdout, read from the socket the helper hands over: the encoding and the listeners given
 * before it arrives are put on the socket itself (a stream in between cost every chunk a second pass
 * through Node's stream code: about half a millisecond of CPU a small search). `onClosed` runs once
 * the socket has closed, after its last data (also after a read error, which closes it).
 */
class HandedOverPipe implements RipgrepOutput {
  private encoding: BufferEncoding | undefined;
  private readonly listeners: DataListener[] = [];
  private socket: Socket | undefined;

  constructor(private readonly onClosed: () => void) {}

  setEncoding(encoding: BufferEncoding): this {
    this.encoding = encoding;
    this.socket?.setEncoding(encoding);
    return this;
  }

  on(_event: 'data', listener: DataListener): this {
    if (this.socket) this.socket.on('data', listener as (chunk: Buffer) => void);
    else this.listeners.push(listener);
    return this;
  }

  /** The pipe's reading end: a socket the helper handed over, or the stdout of a ripgrep spawned here. */
  attach(socket: Socket): void {
    this.socket = socket;
    if (this.encoding) socket.setEncoding(this.encoding);
    socket.on('error', () => undefined); // a read error closes the socket: the run ends with what came
    socket.once('close', this.onClosed);
    for (const listener of this.listeners) socket.on('data', listener as (chunk: Buffer) => void);
    this.listeners.length = 0;
  }

  /** Closes the socket unread (a ripgrep started ahead that is not used). */
  destroy(): void {
    this.socket?.destroy();
  }
}

/** ripgrep's stderr as the helper reports it with the exit (one chunk), or as a ripgrep spawned here writes it. */
class ReportedStderr implements RipgrepOutput {
  private readonly listeners: DataListener[] = [];

  setEncoding(): this {
    return this;
  }

  on(_event: 'data', listener: DataListener): this {
    this.listeners.push(listener);
    return this;
  }

  deliver(text: string): void {
    if (text === '') return;
    for (const listener of this.listeners) (listener as (chunk: string) => void)(text);
  }
}

/**
 * A ripgrep run through the helper: ChildProcess's events ('error', 'exit', 'close') and streams.
 * When the helper is given up before this run's stdout came over, the run spawns its ripgrep here
 * (`spawnHere`) and goes on as if nothing had happened: a busy machine slows a search, never fails it.
 */
class HelperRun extends EventEmitter implements RipgrepChild {
  readonly stdout: HandedOverPipe;
  readonly stderr = new ReportedStderr();
  readonly stdin = null;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** ripgrep's stdout is here (handed over, or from a ripgrep spawned here). */
  handedOver = false;
  private ended = false; // stdout closed
  private finished = false;
  /** The consumer asked for ripgrep's end. */
  private killed = false;
  /** The ripgrep spawned here once the helper was given up. */
  private here: ChildProcess | undefined;

  constructor(
    /** The helper's name for this run; a new one when the run is sent to the helper again (`respawn`). */
    public id: number,
    private readonly helper: RipgrepHelper,
    public request: Request,
  ) {
    super();
    this.stdout = new HandedOverPipe(() => {
      this.ended = true;
      this.lastStep = Date.now();
      this.settle();
    });
  }

  private get exited(): boolean {
    return this.exitCode !== null || this.signalCode !== null;
  }

  /** Waiting on the helper, not on ripgrep: for its stdout, or for the exit of a ripgrep whose output has ended. */
  get waitsOnHelper(): boolean {
    return !this.finished && this.here === undefined && (!this.handedOver || (this.ended && !this.exited));
  }

  /** When the run last moved on (started, the pipe handed over, the stream ended, the exit reported). */
  lastStep = Date.now();

  kill(): boolean {
    if (this.finished || this.exited) return false;
    this.killed = true;
    if (this.here) this.here.kill('SIGKILL');
    else this.helper.send({ kill: this.id });
    return true;
  }

  /** A run started ahead: ripgrep's stdin, where its pattern goes (`-f -`). */
  private input: Socket | undefined;

  /** A run started ahead: the device and inode of the folder ripgrep works in (as the helper read it after the spawn). */
  workingFolder: string | undefined;

  /** A run started ahead that a search took before its stdin came over: the pattern, and the folder ripgrep must work in. */
  private waitingPattern: { pattern: string; folder: string | undefined } | undefined;

  /** A run started ahead that a search can still take: not ended, and ripgrep (as far as known) waiting for its pattern. */
  get takable(): boolean {
    return !this.finished && !this.exited && (this.input === undefined || !this.input.destroyed);
  }

  /** Whether the helper has handed over this ripgrep's stdin (and so read the folder it works in). */
  get inputHere(): boolean {
    return this.input !== undefined;
  }

  /**
   * A search takes this run started ahead: `request` is the search's own (for a fall-back), `folder`
   * the identity the search's folder has now. The pattern goes to ripgrep now when its stdin is here,
   * else as soon as it comes; ripgrep working in another folder than `folder` is not used then.
   */
  take(pattern: string, request: Request, folder: string | undefined): void {
    this.request = request;
    this.lastStep = Date.now();
    if (this.input) this.start(pattern);
    else this.waitingPattern = { pattern, folder };
  }

  /** Gives a run started ahead its pattern: ripgrep starts searching once its stdin ends. */
  private start(pattern: string): void {
    this.lastStep = Date.now();
    this.helper.spareRuns++;
    this.input!.end(`${pattern}\n`);
  }

  receive(m: HelperMessage, handle: unknown): void {
    if (m.kind === 'stdout') {
      this.stdout.attach(handle as Socket);
      this.handedOver = true;
      this.lastStep = Date.now();
    } else if (m.kind === 'stdin') {
      this.workingFolder = typeof m.cwd === 'string' ? m.cwd : undefined;
      this.input = handle as Socket;
      this.input.on('error', () => undefined); // EPIPE once ripgrep is gone: it then exits on its own
      const waiting = this.waitingPattern;
      this.waitingPattern = undefined;
      if (!waiting) return;
      if (this.workingFolder !== undefined && this.workingFolder === waiting.folder) this.start(waiting.pattern);
      else this.helper.respawn(this); // ripgrep works in another folder (or one the helper could not read)
    } else if (m.kind === 'exit') {
      this.stderr.deliver(typeof m.stderr === 'string' ? m.stderr : '');
      this.exitCode = m.code;
      this.signalCode = m.signal;
      this.lastStep = Date.now();
      this.emit('exit', m.code, m.signal);
      this.settle();
    } else if (m.kind === 'error') {
      if (this.waitingPattern) this.helper.respawn(this); // a spare that failed: the search asks for its own ripgrep
      else this.fail(m.message);
    }
  }

  /** Before the helper is asked for this run once more under a new id: what came of the old one is dropped. */
  reset(id: number): void {
    this.id = id;
    this.input?.destroy();
    this.input = undefined;
    this.workingFolder = undefined;
    this.waitingPattern = undefined;
    this.lastStep = Date.now();
  }

  /**
   * The helper was given up (`gone`: it is gone, or is ended now). A run whose stdout had not come over
   * spawns its ripgrep here (the helper is told to end the one it may still start). A run whose
   * output came over goes on while the helper is there to report its exit; once the helper is gone it
   * ends when that output does, as killed (the helper kills its ripgreps as it exits).
   */
  lost(gone: boolean): void {
    if (this.finished || this.here) return;
    if (!this.handedOver) {
      this.helper.send({ kill: this.id });
      if (this.killed) this.end('SIGKILL');
      else this.spawnHere();
    } else if (gone && !this.exited) {
      this.signalCode = 'SIGKILL';
      this.settle();
    }
  }

  /** ripgrep spawned by the server itself, its streams and events taken over by this run. */
  private spawnHere(): void {
    this.input?.destroy();
    this.input = undefined;
    const { file, args, cwd } = this.request;
    let child: ChildProcess;
    try {
      child = spawn(file, [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    this.here = child;
    child.on('error', (error) => this.fail(error.message));
    if (child.pid === undefined) return; // the 'error' follows
    this.stdout.attach(child.stdout as Socket);
    this.handedOver = true;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => this.stderr.deliver(text));
    // 'close' comes once ripgrep has exited and its stdout and stderr have ended.
    child.on('close', (code, signal) => {
      this.exitCode = code;
      this.signalCode = signal;
      this.emit('exit', code, signal);
      this.settle();
    });
  }

  /** A spare that will not be used: its pipes are closed here (the helper is asked to kill ripgrep). */
  discard(): void {
    this.finished = true;
    this.input?.destroy();
    this.stdout.destroy();
  }

  /** Ends a run that never had output, as ended by `signal`. */
  private end(signal: NodeJS.Signals): void {
    this.signalCode = signal;
    this.emit('exit', null, signal);
    this.ended = true;
    this.settle();
  }

  private fail(message: string): void {
    if (this.finished) return;
    this.finished = true;
    this.input?.destroy();
    this.helper.forget(this.id);
    this.emit('error', new Error(message));
  }

  private settle(): void {
    if (this.finished || !this.ended || !this.exited) return;
    this.finished = true;
    this.input?.destroy();
    this.helper.forget(this.id);
    this.emit('close', this.exitCode, this.signalCode);
  }
}

/**
 * A ripgrep started ahead (a spare) for the next search: the arguments of the last search with `-f -` in place
 * of `-e PATTERN`, waiting on its stdin for the pattern. The spawn (2–3.5 ms through the helper on
 * the bench machine: a wake-up of each process, the fork and exec, the hand-over) is then done while
 * the agent or the user reads the last answer, not while the next one waits; see docs/dev/performance-log.md.
 * The next search like it takes it even before the helper has handed it over: the helper answers in
 * order, so a ripgrep asked for after it would come later. Up to MAX_SPARES are kept, one for each of
 * the kinds of run (arguments and folder) last made: a search's and a replaceInFiles listing's, so
 * that an agent alternating them does not discard one's with the other's.
 */
const MAX_SPARES = 2;

class RipgrepHelper {
  private readonly runs = new Map<number, HelperRun>();
  private nextId = 1;
  private started_ = 0;
  /** The ripgreps started ahead, by key (aheadOf), the least recently started first. */
  private readonly spares = new Map<string, HelperRun>();
  /** No run goes to the helper any more (it is gone, or was silent past the deadline). */
  broken = false;
  /** The helper is gone, or its channel closed by the server: it is sent nothing more. */
  private ended = false;
  /** When the helper last sent anything. */
  private lastHeard = Date.now();
  /** Runs started through the helper so far, started ahead or not. */
  get started(): number {
    return this.started_;
  }
  /** Runs whose pattern went to a ripgrep started ahead. */
  spareRuns = 0;

  get pid(): number {
    return this.child.pid ?? -1;
  }

  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: HelperMessage, handle: unknown) => {
      this.lastHeard = Date.now();
      const run = this.runs.get(m.id);
      if (run) run.receive(m, handle);
      else if (handle && typeof (handle as Socket).destroy === 'function') (handle as Socket).destroy(); // a discarded spare's pipe
    });
    const gone = () => this.end();
    child.on('exit', gone);
    child.on('error', gone);
    child.on('disconnect', gone);
    this.idle();
  }

  /**
   * ripgrep with these arguments, and `-e pattern` when there is one (withPattern): a ripgrep
   * started ahead with the same arguments takes the pattern on its stdin instead.
   */
  spawn(file: string, args: readonly string[], cwd: string | undefined, pattern?: string): HelperRun {
    const full = pattern === undefined ? args : withPattern(args, ['-e', pattern]);
    const request = { file, args: full, cwd };
    const ahead = pattern === undefined ? undefined : spareKey(file, args, cwd, pattern);
    let taken: HelperRun | undefined;
    let folder: string | undefined;
    const spare = ahead ? this.spares.get(ahead.key) : undefined;
    if (ahead && spare) {
      // The folder at that path now must be the one the waiting ripgrep works in (a folder swapped since is not searched).
      folder = folderIdentity(cwd);
      if (spare.takable && (!spare.inputHere || (spare.workingFolder !== undefined && spare.workingFolder === folder))) {
        taken = spare;
        this.spares.delete(ahead.key);
      } else this.discardSpare(ahead.key);
    }
    const run = taken ?? this.newRun(request);
    this.started_++;
    this.child.channel?.ref();
    this.watch(run);
    if (taken) taken.take(pattern!, request, folder);
    else this.send({ id: run.id, file, args: [...full], cwd });
    if (ahead) this.afterward(run, file, ahead, cwd);
    return run;
  }

  /**
   * One `rg --version` through the helper, its output dropped, right after the helper starts: a
   * session's first search otherwise paid each side's first spawn, hand-over and read of a
   * descriptor (about 10 ms, measured). Not counted in `started`. Resolves once the run is over.
   */
  warm(file: string): Promise<void> {
    if (this.broken) return Promise.resolve();
    const run = this.spawn(file, ['--version'], undefined);
    this.started_--;
    run.stdout.on('data', () => undefined);
    return new Promise((resolve) => {
      run.once('close', () => resolve());
      run.once('error', () => resolve());
    });
  }

  private newRun(request: Request): HelperRun {
    const run = new HelperRun(this.nextId++, this, request);
    this.runs.set(run.id, run);
    return run;
  }

  /** A run that took a ripgrep started ahead which cannot serve it: the helper is asked for a ripgrep of its own. */
  respawn(run: HelperRun): void {
    this.runs.delete(run.id);
    this.send({ kill: run.id });
    run.reset(this.nextId++);
    this.runs.set(run.id, run);
    const { file, args, cwd } = run.request;
    if (this.broken) run.lost(this.ended);
    else this.send({ id: run.id, file, args: [...args], cwd });
  }

  /** Once `run` has ended, a ripgrep is started ahead for the next search like it (after this turn of the event loop: the answer goes first). */
  private afterward(run: HelperRun, file: string, ahead: { key: string; args: string[] }, cwd: string | undefined): void {
    run.once('close', () => setTimeout(() => this.startSpare(file, ahead, cwd), 0).unref());
  }

  /**
   * A ripgrep started ahead for a run with these arguments (and a pattern apart) that has not been
   * asked for yet: the session's first search of a folder (searchFolderAhead). The spare it replaces,
   * if any, is discarded.
   */
  ahead(file: string, args: readonly string[], cwd: string | undefined): void {
    this.startSpare(file, aheadOf(file, args, cwd), cwd);
  }

  private startSpare(file: string, ahead: { key: string; args: string[] }, cwd: string | undefined): void {
    if (this.broken || this.spares.has(ahead.key)) return;
    // The least recently started goes first.
    if (this.spares.size >= MAX_SPARES) this.discardSpare(this.spares.keys().next().value!);
    const spare = this.newRun({ file, args: ahead.args, cwd });
    spare.on('error', () => undefined); // a spare that fails is not used; the next search spawns its own
    this.spares.set(ahead.key, spare);
    this.send({ id: spare.id, file, args: ahead.args, cwd, stdin: true });
  }

  private discardSpare(key: string): void {
    const spare = this.spares.get(key);
    if (!spare) return;
    this.spares.delete(key);
    this.runs.delete(spare.id);
    spare.discard();
    this.send({ kill: spare.id });
  }

  /**
   * While the run waits on the helper (for ripgrep's stdout, or for the exit once ripgrep's output has
   * ended), the helper must say something, about this run or another, within the deadline; while
   * ripgrep runs, nothing is asked of it. Past it, the helper is given up: runs waiting for their
   * stdout spawn ripgrep here, and a run still waiting on it after that (for an exit) ends it.
   * Checked after the event loop's next poll (setImmediate): after a long block of this loop, the
   * helper's answer may be waiting to be read when the timer fires.
   */
  private watch(run: HelperRun): void {
    let deadline: ReturnType<typeof setTimeout>;
    const arm = (ms: number) => {
      deadline = setTimeout(() => {
        setImmediate(() => {
          if (!this.runs.has(run.id) || this.ended) return;
          const left = HANDOVER_MS - (Date.now() - Math.max(run.lastStep, this.lastHeard));
          if (run.waitsOnHelper && left <= 0) {
            if (!this.broken) this.giveUp();
            if (run.waitsOnHelper) this.end();
          }
          if (!this.ended) arm(run.waitsOnHelper ? Math.max(left, 1) : HANDOVER_MS);
        });
      }, ms);
      deadline.unref();
    };
    arm(HANDOVER_MS);
    run.once('close', () => clearTimeout(deadline));
    run.once('error', () => clearTimeout(deadline));
  }

  send(message: object): void {
    if (this.ended) return;
    try {
      this.child.send(message);
    } catch {
      this.end();
    }
  }

  forget(id: number): void {
    this.runs.delete(id);
    for (const [key, spare] of this.spares) if (spare.id === id) this.spares.delete(key);
    if (this.runs.size === this.spares.size) {
      if (this.broken && !this.ended) this.end();
      else this.idle();
    }
  }

  /**
   * The helper was silent past the deadline: from now on ripgrep is spawned directly. Runs waiting for
   * their stdout spawn theirs here; runs whose output came over finish through the helper, which is
   * ended once they have (or once one of them waits on it past the deadline).
   */
  private giveUp(): void {
    this.broken = true;
    for (const key of [...this.spares.keys()]) this.discardSpare(key);
    for (const run of [...this.runs.values()]) run.lost(false);
    if (this.runs.size === 0) this.end();
  }

  /**
   * The helper is gone, or is ended now: closing the channel makes it kill its ripgreps and exit; one
   * that does not is killed. Runs in flight end (those whose stdout had not come over spawn ripgrep here).
   */
  end(): void {
    this.broken = true;
    if (!this.ended) {
      this.ended = true;
      try {
        if (this.child.connected) this.child.disconnect();
      } catch {
        // already closed
      }
      setTimeout(() => {
        if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      }, 1000).unref();
    }
    for (const spare of this.spares.values()) {
      this.runs.delete(spare.id);
      spare.discard();
    }
    this.spares.clear();
    for (const run of [...this.runs.values()]) run.lost(true);
  }

  /** The helper never keeps the server alive, and its channel only while a run waits on it (a spare does not count). */
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

/** The arguments of a ripgrep started ahead (`-f -` where `-e PATTERN` goes) and its key; none for a pattern `-f` would split or change. */
function spareKey(file: string, args: readonly string[], cwd: string | undefined, pattern: string): { key: string; args: string[] } | undefined {
  if (pattern === '' || /[\r\n]/.test(pattern)) return undefined;
  return aheadOf(file, args, cwd);
}

/** A ripgrep started ahead for runs with these arguments: its own arguments (`-f -` for the pattern) and its key. */
function aheadOf(file: string, args: readonly string[], cwd: string | undefined): { key: string; args: string[] } {
  const spareArgs = withPattern(args, ['-f', '-']);
  return { key: JSON.stringify([file, spareArgs, cwd ?? '']), args: spareArgs };
}

/** `args` with the pattern's arguments (`-e PATTERN`, or `-f -`) right before the `--` that ends the options (at the end when there is none). */
export function withPattern(args: readonly string[], patternArgs: readonly string[]): string[] {
  const end = args.indexOf('--');
  return end === -1 ? [...args, ...patternArgs] : [...args.slice(0, end), ...patternArgs, ...args.slice(end)];
}

/** The folder's device and inode now (undefined when it is not there). */
function folderIdentity(cwd: string | undefined): string | undefined {
  try {
    const st = statSync(cwd ?? '.');
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

let helper: RipgrepHelper | undefined;

/** The helper as its starter holds it. */
export interface RipgrepHelperHandle {
  /** Its process id, the runs started through it and how many took a ripgrep started ahead; undefined once it no longer works. */
  state(): { pid: number; runs: number; spareRuns: number } | undefined;
  /** Runs `rg --version` (`file`) through the helper once, to warm both sides (RipgrepHelper.warm); resolves once it is over. */
  warm(file: string): Promise<void>;
  /** Ends it (it also exits by itself when the server does); later runs spawn ripgrep directly. */
  stop(): void;
}

/**
 * Starts the helper with this Node binary (main.ts calls it at start-up, while the heap is small), or
 * returns the one already working. Undefined when it could not be started: ripgrep is then spawned directly.
 */
export function startRipgrepHelper(nodePath: string): RipgrepHelperHandle | undefined {
  if (!helper || helper.broken) {
    try {
      const child = spawn(nodePath, ['-e', HELPER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], windowsHide: true });
      if (child.pid === undefined) {
        child.on('error', () => undefined);
        return undefined;
      }
      helper = new RipgrepHelper(child);
    } catch {
      return undefined;
    }
  }
  const mine = helper;
  return {
    state: () => (mine.broken ? undefined : { pid: mine.pid, runs: mine.started, spareRuns: mine.spareRuns }),
    warm: (file) => mine.warm(file),
    stop: () => {
      mine.end();
      if (helper === mine) helper = undefined;
    },
  };
}

/** Starts a ripgrep ahead, through the helper, for a run with these arguments and a pattern apart (RipgrepHelper.ahead); nothing without a helper. */
export function startRipgrepAhead(file: string, args: readonly string[], cwd: string | undefined): void {
  if (helper && !helper.broken) helper.ahead(file, args, cwd);
}

/**
 * ripgrep with these arguments: through the helper when there is one and no stdin is needed, else
 * spawned here. `pattern`: given apart from `args` (withPattern), for a run that a ripgrep started
 * ahead may take (and after which one is started for the next run like it).
 */
export function spawnRipgrep(file: string, args: readonly string[], cwd: string | undefined, withStdin: boolean, pattern?: string): RipgrepChild {
  if (!withStdin && helper && !helper.broken) return helper.spawn(file, args, cwd, pattern);
  return spawn(file, pattern === undefined ? [...args] : withPattern(args, ['-e', pattern]), { cwd, stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], windowsHide: true }) as ChildProcess & RipgrepChild;
}
