// Runs ripgrep with its output going to a temporary file that is read as it grows, for the symbol
// index build. A pipe holds 64 KiB, so ripgrep waits whenever JavaScript is busy, and each write
// wakes the reader; a file never makes ripgrep wait and wakes nobody. The file is unlinked as soon
// as it is open, so it is gone when the run ends, also if the process dies (ripgrepToFile.ts starts
// it). Not on Windows, where an open file cannot be unlinked: the caller then uses a pipe
// (workspace/search/ripgrep.ts).
import { readSync } from 'node:fs';
import { killer, ripgrepPath, spawnFailure, type Flow, type RipgrepExit } from './ripgrep.js';
import { startRipgrepToFile, type RipgrepToFile } from './ripgrepToFile.js';
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

/** How long to wait when ripgrep has not written anything new. */
const POLL_MS = 1;

/** ripgrep failed to write its output: the disk is full (ENOSPC) or over quota (EDQUOT). */
export function outputFailed(exit: RipgrepExit): boolean {
  return exit.code === 2 && /os error (28|122)\b|No space left on device|quota exceeded/i.test(exit.stderr);
}

/**
 * The run's exit, or undefined when no temporary file could be made (the caller uses a pipe).
 * `started`: a ripgrep already running with `run.args` (the build's, started ahead by main.ts),
 * read here instead of starting one.
 */
export async function runRipgrepThroughFile(run: FileRun, started?: RipgrepToFile): Promise<RipgrepExit | undefined> {
  let rg = '';
  if (started === undefined) {
    rg = await ripgrepPath();
    if (run.signal?.aborted) return { code: null, stopped: false, cancelled: true, stderr: '', sawSummary: false, malformed: [] };
  } else if (run.signal?.aborted) {
    started.discard();
    return { code: null, stopped: false, cancelled: true, stderr: '', sawSummary: false, malformed: [] };
  }

  return new Promise<RipgrepExit | undefined>((resolve, reject) => {
    let child: RipgrepToFile | undefined;
    try {
      child = started ?? startRipgrepToFile(rg, run.args, run.cwd, run.tempDir);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (child === undefined) {
      resolve(undefined);
      return;
    }
    const ripgrep = child;
    const fd = ripgrep.fd;
    let stopped = false;
    let cancelled = false;
    let settled = false;
    let position = 0;
    const block = Buffer.allocUnsafe(BLOCK);

    const { kill, release } = killer(ripgrep.child, run.signal, () => (cancelled = true));
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      release();
      ripgrep.closeFd();
      then();
    };
    ripgrep.onExit(() => {
      if (ripgrep.spawnError !== undefined) settle(() => reject(spawnFailure(rg || String(ripgrep.child.spawnfile), ripgrep.spawnError!)));
    });

    const pump = () => {
      if (settled) return;
      // A request being served goes first: its steps do not wait for this build's slices.
      if (inForeground() && !cancelled) {
        setTimeout(pump, POLL_MS);
        return;
      }
      // Read whether ripgrep has exited before reading: then everything it wrote is in the file.
      const finished = ripgrep.exited;
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
      if ((finished && read === 0) || ((stopped || cancelled) && ripgrep.exited)) {
        settle(() => resolve({ code: ripgrep.code, stopped, cancelled, stderr: ripgrep.stderr, sawSummary: false, malformed: [] }));
        return;
      }
      if (read > 0 && !stopped && !cancelled) setTimeout(pump, 0);
      else setTimeout(pump, POLL_MS);
    };
    setTimeout(pump, POLL_MS);
  });
}
