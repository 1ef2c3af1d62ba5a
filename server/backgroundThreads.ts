// Owns the CPU priority of editls's background threads: on Linux, every thread of the process but
// the main one (libuv's threadpool, which creates, writes and syncs replaceInFiles' temp files, and
// V8's helper threads) runs at nice BACKGROUND_NICE, so that none of them preempts the main thread.
//
// Why: a replace in 426 files on 2 cores woke a threadpool thread for each temp file, and the
// woken thread took the main thread's core (~390 involuntary context switches of the main thread a
// command, about one a file; 80-140 with these threads at nice 10). The main thread reads and
// matches the files: it is the command's critical path, while the threadpool's work (creating a
// file costs the file system 0.2-0.5 ms of kernel time) only has to be done before the sync that
// follows. Two builds taking turns on replaceInFilesBench's trees, each order once (stop 50):
// 20,000 files 0.91x and 0.91x, 2,000 files 0.93x and 1.03x, 200 files 0.99x and 1.00x. A thread
// started later by the main thread (a regex worker) keeps the main thread's priority. Elsewhere than
// Linux setpriority names a whole process, so nothing is done there.
// Called by main.ts only (the module that owns the process), once `initialize` is answered and at
// `editls mcp`'s start.
import { readdirSync, stat } from 'node:fs';
import os from 'node:os';

/** The nice value of every thread but the main one (0 is the default; 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers every thread of this process but the main one to BACKGROUND_NICE (never raises one: a
 * thread already lower stays), once libuv's threadpool is running (its threads start together, at
 * its first job). Resolves with how many threads it lowered; 0 elsewhere than Linux. A thread that
 * ended meanwhile, or that the system refuses to change, is left as it is.
 */
export async function lowerBackgroundThreads(): Promise<number> {
  if (process.platform !== 'linux') return 0;
  // A job for the threadpool, so that its threads exist before they are listed.
  await new Promise<void>((resolve) => stat('/', () => resolve()));
  let tids: number[];
  try {
    tids = readdirSync('/proc/self/task').map(Number);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const tid of tids) {
    // The main thread's id is the process's.
    if (tid === process.pid || !Number.isInteger(tid)) continue;
    try {
      if (os.getPriority(tid) >= BACKGROUND_NICE) continue;
      os.setPriority(tid, BACKGROUND_NICE);
      lowered++;
    } catch {
      // gone, or not ours to change
    }
  }
  return lowered;
}
