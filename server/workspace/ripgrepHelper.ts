// ripgrep started by a small helper process rather than by the server. A fork of the server marks
// every page of its large heap copy-on-write, so each page the server writes afterwards faults once:
// about 400 faults and 9 ms of CPU a small search on two cores, taken from ripgrep's own threads.
// The helper, started once while the server is small, forks ripgrep and hands its stdout and stderr
// over as descriptors; its exit is reported back. Without a helper (not started, gone, or silent past
// a deadline) ripgrep is spawned directly.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
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
 * The helper, run with `node -e`. It stops reading each pipe before sending it (`readStop`): what
 * ripgrep writes stays in the pipe for the server, none of it is read here. It kills its ripgreps
 * and exits when the server goes (the IPC channel closes).
 */
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
const kids = new Map();
const send = (m, h) => { try { process.send(m, h); } catch {} };
process.on('message', (m) => {
  if (typeof m.kill === 'number') { const c = kids.get(m.kill); if (c) c.kill('SIGKILL'); return; }
  let c;
  try { c = spawn(m.file, m.args, { cwd: m.cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }); }
  catch (e) { send({ id: m.id, kind: 'error', message: String(e && e.message) }); return; }
  c.on('error', (e) => { kids.delete(m.id); send({ id: m.id, kind: 'error', message: e.message }); });
  if (c.pid === undefined) return;
  kids.set(m.id, c);
  c.stdout._handle.readStop();
  c.stderr._handle.readStop();
  send({ id: m.id, kind: 'stdout' }, c.stdout);
  send({ id: m.id, kind: 'stderr' }, c.stderr);
  c.on('exit', (code, signal) => { kids.delete(m.id); send({ id: m.id, kind: 'exit', code, signal }); });
});
process.on('disconnect', () => { for (const c of kids.values()) c.kill('SIGKILL'); process.exit(0); });
`;

/** How long the helper may keep a run waiting on it (for ripgrep's pipes, or for its exit once the output has ended) before it is given up. */
const HANDOVER_MS = 5000;

type HelperMessage =
  | { id: number; kind: 'stdout' | 'stderr' }
  | { id: number; kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { id: number; kind: 'error'; message: string };

/**
 * One of ripgrep's pipes, read from the socket the helper hands over: the encoding and the listeners
 * given before it arrives are put on the socket itself (a stream in between cost every chunk a second
 * pass through Node's stream code: about half a millisecond of CPU a small search). `onClosed` runs
 * once the socket has closed, after its last data (also after a read error, which closes it).
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

  attach(socket: Socket): void {
    this.socket = socket;
    if (this.encoding) socket.setEncoding(this.encoding);
    socket.on('error', () => undefined); // a read error closes the socket: the run ends with what came
    socket.once('close', this.onClosed);
    for (const listener of this.listeners) socket.on('data', listener as (chunk: Buffer) => void);
    this.listeners.length = 0;
  }
}

/** A ripgrep run through the helper: ChildProcess's events ('error', 'exit', 'close') and streams. */
class HelperRun extends EventEmitter implements RipgrepChild {
  readonly stdout: HandedOverPipe;
  readonly stderr: HandedOverPipe;
  readonly stdin = null;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** Pipes handed over so far (0 to 2). */
  handovers = 0;
  private ended = 0; // pipes closed (0 to 2)
  private finished = false;

  constructor(
    readonly id: number,
    private readonly helper: RipgrepHelper,
  ) {
    super();
    const end = () => {
      this.ended++;
      this.lastStep = Date.now();
      this.settle();
    };
    this.stdout = new HandedOverPipe(end);
    this.stderr = new HandedOverPipe(end);
  }

  private get exited(): boolean {
    return this.exitCode !== null || this.signalCode !== null;
  }

  /** Waiting on the helper, not on ripgrep: for its pipes, or for the exit of a ripgrep whose output has ended. */
  get waitsOnHelper(): boolean {
    return !this.finished && (this.handovers < 2 || (this.ended === 2 && !this.exited));
  }

  /** When the run last moved on (started, a pipe handed over, a stream ended, the exit reported). */
  lastStep = Date.now();

  kill(): boolean {
    if (this.finished || this.exited) return false;
    this.helper.send({ kill: this.id });
    return true;
  }

  receive(m: HelperMessage, handle: unknown): void {
    if (m.kind === 'stdout' || m.kind === 'stderr') {
      (m.kind === 'stdout' ? this.stdout : this.stderr).attach(handle as Socket);
      this.handovers++;
      this.lastStep = Date.now();
    } else if (m.kind === 'exit') {
      this.exitCode = m.code;
      this.signalCode = m.signal;
      this.lastStep = Date.now();
      this.emit('exit', m.code, m.signal);
      this.settle();
    } else if (m.kind === 'error') {
      this.fail(m.message);
    }
  }

  /** The helper is gone or silent: an error unless ripgrep's output already came over (it then ends on its own). */
  lost(why: string): void {
    if (this.handovers < 2) this.fail(why);
    else if (!this.exited) {
      // ripgrep was killed with the helper: its streams end, and the run ends as killed.
      this.signalCode = 'SIGKILL';
      this.settle();
    }
  }

  private fail(message: string): void {
    if (this.finished) return;
    this.finished = true;
    this.helper.forget(this.id);
    this.emit('error', new Error(message));
  }

  private settle(): void {
    if (this.finished || this.ended < 2 || !this.exited) return;
    this.finished = true;
    this.helper.forget(this.id);
    this.emit('close', this.exitCode, this.signalCode);
  }
}

class RipgrepHelper {
  private readonly runs = new Map<number, HelperRun>();
  private nextId = 1;
  /** Runs started through the helper so far (tests check that the helper was used). */
  get started(): number {
    return this.nextId - 1;
  }
  broken = false;

  get pid(): number {
    return this.child.pid ?? -1;
  }

  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: HelperMessage, handle: unknown) => this.runs.get(m.id)?.receive(m, handle));
    const gone = () => this.giveUp('ripgrep\'s helper process exited; search again');
    child.on('exit', gone);
    child.on('error', gone);
    child.on('disconnect', gone);
    this.idle();
  }

  spawn(file: string, args: readonly string[], cwd: string | undefined): HelperRun {
    const run = new HelperRun(this.nextId++, this);
    this.runs.set(run.id, run);
    this.child.channel?.ref();
    // While the run waits on the helper (for the pipes, or for the exit once ripgrep's output has
    // ended), the helper must move it on within the deadline of its last step; while ripgrep runs,
    // nothing is asked of it. Checked after the event loop's next poll (setImmediate): after a long block of this loop,
    // the helper's answer may be waiting to be read when the timer fires.
    let deadline: ReturnType<typeof setTimeout>;
    const arm = (ms: number) => {
      deadline = setTimeout(() => {
        setImmediate(() => {
          if (!this.runs.has(run.id)) return;
          const left = HANDOVER_MS - (Date.now() - run.lastStep);
          if (run.waitsOnHelper && left <= 0) this.giveUp(`ripgrep's helper process did not answer within ${HANDOVER_MS / 1000} s; search again`);
          else arm(run.waitsOnHelper ? left : HANDOVER_MS);
        });
      }, ms);
      deadline.unref();
    };
    arm(HANDOVER_MS);
    run.once('close', () => clearTimeout(deadline));
    run.once('error', () => clearTimeout(deadline));
    this.send({ id: run.id, file, args: [...args], cwd });
    return run;
  }

  send(message: object): void {
    if (this.broken) return;
    try {
      this.child.send(message);
    } catch {
      this.giveUp('ripgrep\'s helper process cannot be reached; search again');
    }
  }

  forget(id: number): void {
    this.runs.delete(id);
    if (this.runs.size === 0) this.idle();
  }

  /** From now on ripgrep is spawned directly; runs in flight end (with an error unless their output came over). */
  giveUp(why: string): void {
    if (!this.broken) {
      this.broken = true;
      // Closing the channel makes the helper kill its ripgreps and exit; one that does not is killed.
      try {
        if (this.child.connected) this.child.disconnect();
      } catch {
        // already closed
      }
      setTimeout(() => {
        if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      }, 1000).unref();
    }
    for (const run of [...this.runs.values()]) run.lost(why);
  }

  /** The helper never keeps the server alive, and its channel only while a run waits on it. */
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

let helper: RipgrepHelper | undefined;

/**
 * Starts the helper with this Node binary (main.ts calls it at start-up, while the heap is small).
 * Returns false when it could not be started: ripgrep is then spawned directly.
 */
export function startRipgrepHelper(nodePath: string): boolean {
  if (helper && !helper.broken) return true;
  try {
    const child = spawn(nodePath, ['-e', HELPER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], windowsHide: true });
    if (child.pid === undefined) {
      child.on('error', () => undefined);
      return false;
    }
    helper = new RipgrepHelper(child);
    return true;
  } catch {
    return false;
  }
}

/** Stops the helper (tests; the helper also exits by itself when the server does). */
export function stopRipgrepHelper(): void {
  helper?.giveUp('ripgrep\'s helper process was stopped');
  helper = undefined;
}

/** The helper's process id and the runs it started, for tests; undefined when there is no working helper. */
export function ripgrepHelperState(): { pid: number; runs: number } | undefined {
  return helper && !helper.broken ? { pid: helper.pid, runs: helper.started } : undefined;
}

/** ripgrep with these arguments: through the helper when there is one and no stdin is needed, else spawned here. */
export function spawnRipgrep(file: string, args: readonly string[], cwd: string | undefined, withStdin: boolean): RipgrepChild {
  if (!withStdin && helper && !helper.broken) return helper.spawn(file, args, cwd);
  return spawn(file, [...args], { cwd, stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], windowsHide: true }) as ChildProcess & RipgrepChild;
}
