// Runs ripgrep with its output going to a temporary file that is read as it grows, for the symbol
// index build. A pipe holds 64 KiB, so ripgrep waits whenever JavaScript is busy, and each write
// wakes the reader; a file never makes ripgrep wait and wakes nobody. The file is unlinked as soon
// as it is open, so it is gone when the run ends, also if the process dies. Not on Windows, where
// an open file cannot be unlinked: the caller then uses a pipe (workspace/search/ripgrep.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killer, ripgrepPath, spawnFailure, type Flow, type RipgrepExit } from './ripgrep.js';
import { inForeground, SLICE_MS } from '../timeSlice.js';

export interface FileRun {
  args: readonly string[];
  cwd?: string;
  signal?: AbortSignal;
  /** Every block of output in order; the buffer is reused after the call returns. */
  onChunk: (chunk: Buffer) => Flow;
  /** Where the temporary file goes (the system's temporary folder by default). */
  tempDir?: string;
}

/** Bytes per read. */
const BLOCK = 16 * 1024;
/**
 * Bytes read, and milliseconds spent on them, before yielding to the event loop: a request that
 * arrives during a build waits at most one slice (on a 200,000-file build a 1 MiB slice took up to
 * ~40 ms of parsing, and one-file searches waited 90 ms at the median).
 */
const SLICE = 1024 * 1024;
/** The index build's ripgrep runs at this nice value (a search's ripgrep keeps the server's). */
const BUILD_NICE = 10;

/** How long to wait when ripgrep has not written anything new. */
const POLL_MS = 1;

/** ripgrep failed to write its output: the disk is full (ENOSPC) or over quota (EDQUOT). */
export function outputFailed(exit: RipgrepExit): boolean {
  return exit.code === 2 && /os error (28|122)\b|No space left on device|quota exceeded/i.test(exit.stderr);
}

/** The run's exit, or undefined when no temporary file could be made (the caller uses a pipe). */
export async function runRipgrepThroughFile(run: FileRun): Promise<RipgrepExit | undefined> {
  if (os.platform() === 'win32') return undefined;
  const rg = await ripgrepPath();
  if (run.signal?.aborted) return { code: null, stopped: false, cancelled: true, stderr: '', sawSummary: false, malformed: [] };
  const file = path.join(run.tempDir ?? os.tmpdir(), `editls-rg-${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}`);
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
  const fd = readFd;
  const output = writeFd;

  return new Promise<RipgrepExit>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(rg, [...run.args], { cwd: run.cwd, stdio: ['ignore', output, 'pipe'], windowsHide: true });
    } catch (error) {
      closeSync(output);
      closeSync(fd);
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    // ripgrep has its own copy of the descriptor now.
    closeSync(output);
    // The build is background work: at a lower priority its two threads give way to a search's ripgrep.
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, BUILD_NICE);
      } catch {
        // not permitted: it runs at the server's priority
      }
    }
    let exited = false;
    let code: number | null = null;
    let stopped = false;
    let cancelled = false;
    let settled = false;
    let stderr = '';
    let position = 0;
    const block = Buffer.allocUnsafe(BLOCK);

    const { kill, release } = killer(child, run.signal, () => (cancelled = true));
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      release();
      closeSync(fd);
      then();
    };

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < 65536) stderr += chunk;
    });
    child.on('error', (error) => settle(() => reject(spawnFailure(rg, error))));
    child.on('close', (exitCode) => {
      exited = true;
      code = exitCode;
    });

    const pump = () => {
      if (settled) return;
      // A request being served goes first: its steps do not wait for this build's slices.
      if (inForeground() && !cancelled) {
        setTimeout(pump, POLL_MS);
        return;
      }
      // Read whether ripgrep has exited before reading: then everything it wrote is in the file.
      const finished = exited;
      let read = 0;
      const sliceStart = performance.now();
      while (!stopped && !cancelled && read < SLICE && performance.now() - sliceStart < SLICE_MS) {
        let n: number;
        try {
          n = readSync(fd, block, 0, BLOCK, position);
        } catch (error) {
          kill();
          settle(() => reject(error instanceof Error ? error : new Error(String(error))));
          return;
        }
        if (n <= 0) break;
        position += n;
        read += n;
        if (run.onChunk(block.subarray(0, n)) === 'stop') {
          stopped = true;
          kill();
        }
      }
      if ((finished && read === 0) || ((stopped || cancelled) && exited)) {
        settle(() => resolve({ code, stopped, cancelled, stderr, sawSummary: false, malformed: [] }));
        return;
      }
      if (read > 0 && !stopped && !cancelled) setTimeout(pump, 0);
      else setTimeout(pump, POLL_MS);
    };
    setTimeout(pump, POLL_MS);
  });
}
