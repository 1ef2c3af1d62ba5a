// Runs regex scans (core/edits/regexScan.ts) in worker threads with a deadline, so a catastrophic
// pattern never blocks the server: a scan past `regexTimeoutMs`, or cancelled, has its worker
// terminated. Keeps a small pool of warm workers; the worker code is core's scanRegex source text.
import { Worker } from 'node:worker_threads';
import { scanRegex, type ScanJob, type ScanReply } from '../core/edits/regexScan.js';

/** Eval'd worker source: self-contained (the bundle is one file, and tests run the TS sources). */
const WORKER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const scanRegex = (${scanRegex.toString()});
parentPort.on('message', (job) => {
  let reply;
  try {
    reply = scanRegex(job);
  } catch (error) {
    reply = { ok: false, problem: 'crashed', detail: String(error && error.message ? error.message : error) };
  }
  parentPort.postMessage(reply, reply.ok ? [reply.starts.buffer, reply.ends.buffer] : []);
});
`;

/** Workers kept warm between scans (2 CPU cores is the common case; more idle workers only cost memory). */
const MAX_IDLE = 2;
/** Heap cap per worker: a runaway replacement template fails as too_large instead of exhausting memory. */
const WORKER_HEAP_MB = 1024;

export class RegexRunner {
  private readonly idle: Worker[] = [];

  /** Scans `job` in a worker; resolves with timeout / cancelled / crashed instead of throwing. */
  run(job: ScanJob, timeoutMs: number, signal?: AbortSignal): Promise<ScanReply> {
    if (signal?.aborted) return Promise.resolve({ ok: false, problem: 'cancelled', detail: 'cancelled' });
    const warm = this.idle.pop();
    const worker = warm ?? this.spawn();
    worker.ref();
    return new Promise<ScanReply>((resolve) => {
      let settled = false;
      const finish = (reply: ScanReply, reusable: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reusable && this.idle.length < MAX_IDLE) {
          worker.unref();
          this.idle.push(worker);
        } else {
          void worker.terminate();
        }
        resolve(reply);
      };
      const onMessage = (reply: ScanReply) => finish(reply, true);
      const onError = (error: Error) => {
        const oom = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(oom ? { ok: false, problem: 'too_large', detail: 'the scan ran out of memory' } : { ok: false, problem: 'crashed', detail: error.message }, false);
      };
      const onExit = (code: number) => finish({ ok: false, problem: 'crashed', detail: `the regex worker exited (${code})` }, false);
      const onAbort = () => finish({ ok: false, problem: 'cancelled', detail: 'cancelled' }, false);
      // The deadline is for the scan: a fresh worker's start-up (tens of ms) does not count.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const startClock = () => {
        if (!settled) timer = setTimeout(() => finish({ ok: false, problem: 'timeout', detail: `${timeoutMs} ms` }, false), timeoutMs);
      };
      if (warm) startClock();
      else worker.once('online', startClock);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(job);
    });
  }

  /** Terminates every idle worker (busy ones end with their scan). */
  async dispose(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    // An idle worker that dies (it should not) is simply dropped from the pool.
    worker.on('exit', () => {
      const i = this.idle.indexOf(worker);
      if (i !== -1) this.idle.splice(i, 1);
    });
    worker.on('error', () => undefined);
    return worker;
  }
}

/** The process-wide runner used by request contexts. */
export const regexRunner = new RegexRunner();
