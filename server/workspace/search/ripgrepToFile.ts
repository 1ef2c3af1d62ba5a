// A ripgrep whose output goes to a temporary file, unlinked as soon as it is open (so it is gone
// when the run ends, also if the process dies), and read through the descriptor kept: the start of
// ripgrepFile.ts's runs, apart so that main.ts can start the symbol index build's ripgrep before it
// loads the rest of editls (ahead: the build adopts it when its arguments are the same). It owns
// the child from its spawn, so that an exit or an error before anyone listens is not lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The index build's ripgrep runs at this nice value (a search's ripgrep keeps the server's). */
const BUILD_NICE = 10;

export class RipgrepToFile {
  /** Set once the child has closed (its output is all in the file then), or failed to start. */
  exited = false;
  code: number | null = null;
  /** ripgrep's stderr, its first 64 KiB. */
  stderr = '';
  /** Why the child could not be started (spawn's 'error'), if it could not. */
  spawnError: Error | undefined;
  private readonly listeners: (() => void)[] = [];
  private closed = false;

  constructor(
    readonly args: readonly string[],
    readonly cwd: string | undefined,
    readonly child: ChildProcess,
    /** The read end of the temporary file, at offset 0. */
    readonly fd: number,
  ) {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (this.stderr.length < 65536) this.stderr += chunk;
    });
    child.on('error', (error) => {
      this.spawnError ??= error;
      this.settle();
    });
    child.on('close', (exitCode) => {
      this.code = exitCode;
      this.settle();
    });
  }

  /** `listener` runs once the child has closed or failed (at once if it has). */
  onExit(listener: () => void): void {
    if (this.exited) listener();
    else this.listeners.push(listener);
  }

  /** SIGKILL unless it has exited. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** Kills it and closes the descriptor: a run nobody will read. */
  discard(): void {
    this.kill();
    this.closeFd();
  }

  closeFd(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private settle(): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.listeners.splice(0)) listener();
  }
}

/**
 * Starts `rg` with these arguments, its output to a new temporary file in `tempDir` (the system's
 * temporary folder by default) at a low priority (background work: its threads give way to a
 * search's ripgrep). Undefined when no temporary file can be made, or on Windows, where an open
 * file cannot be unlinked (the caller uses a pipe). Throws what spawn throws.
 */
export function startRipgrepToFile(rg: string, args: readonly string[], cwd: string | undefined, tempDir?: string): RipgrepToFile | undefined {
  if (os.platform() === 'win32') return undefined;
  const file = path.join(tempDir ?? os.tmpdir(), `editls-rg-${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}`);
  let writeFd: number | undefined;
  let readFd: number | undefined;
  try {
    writeFd = openSync(file, 'wx', 0o600);
    readFd = openSync(file, 'r');
    unlinkSync(file);
  } catch {
    if (writeFd !== undefined) closeSync(writeFd);
    if (readFd !== undefined) closeSync(readFd);
    try {
      unlinkSync(file);
    } catch {
      // never created
    }
    return undefined;
  }
  let child: ChildProcess;
  try {
    child = spawn(rg, [...args], { cwd, stdio: ['ignore', writeFd, 'pipe'], windowsHide: true });
  } catch (error) {
    closeSync(readFd);
    throw error;
  } finally {
    // ripgrep has its own copy of the descriptor now (or there is no ripgrep).
    closeSync(writeFd);
  }
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, BUILD_NICE);
    } catch {
      // not permitted: it runs at the server's priority
    }
  }
  return new RipgrepToFile(args, cwd, child, readFd);
}
