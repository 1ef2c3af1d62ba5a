// Runs regex scans (core/edits/regexScan.ts) in worker threads with a deadline, so a catastrophic
// pattern never blocks the server: a scan past `regexTimeoutMs`, or cancelled, has its worker
// terminated. Keeps a small pool of warm workers; the worker code is core's scanRegex source text.
import type { Worker } from 'node:worker_threads';
import { scanRegex, type ScanJob, type ScanReply } from '../../core/edits/regexScan.js';
import { SpareBuffer } from '../spareBuffer.js';

/** Texts at least this long go to the worker as transferred UTF-16 bytes (one copy each way, exact for
 *  lone surrogates) instead of a structured-clone string. */
const TRANSFER_TEXT_CHARS = 1 << 16;
/** Most distinct replacement texts (or matches) the worker sends as a table plus indexes. */
const MAX_TEXT_TABLE = 4096;

/**
 * A job as posted: a long text travels as a transferred UTF-16LE buffer (`textUtf16`), which the
 * worker sends back once it has read it, to be kept (SpareBuffer) for the next text that fits:
 * touching a fresh 20 MB buffer page by page cost ~55 ms here (the 10 MB text of
 * searchAndReplaceBench, every scan); its copy into a buffer already touched, ~2 ms. A text given
 * with its body (`crBody`: the text is the body's \n view) is made from the body: copied, then its \r
 * dropped (before a \n) or turned into \n in place; the view itself, a rope, is never made flat (a
 * fresh 20 MB copy of that text, ~60 ms of page faults here, every scan). The body never travels.
 */
function toWorker(job: ScanJob, spare: SpareBuffer): { message: unknown; transfer: ArrayBuffer[] } {
  const { crBody, ...posted } = job;
  if (job.text.length < TRANSFER_TEXT_CHARS) return { message: posted, transfer: [] };
  const bytes = crBody === undefined ? undefined : viewOfBody(spare.take(2 * crBody.length), crBody, job.text.length);
  const sent = bytes ?? spare.take(2 * job.text.length);
  if (bytes === undefined) sent.write(job.text, 'utf16le');
  return { message: { ...posted, text: '', textUtf16: sent }, transfer: [sent.buffer as ArrayBuffer] };
}

/**
 * `body`'s \n view in `into` as UTF-16LE (each \r\n as \n, each lone \r as \n, as NormalizedText
 * reads it): the body written, then each run between two \r moved left over the \r dropped before it.
 * The bytes of the view (a view of `into`), or undefined when they are not `length` units long.
 */
function viewOfBody(into: Buffer, body: string, length: number): Buffer | undefined {
  into.write(body, 'utf16le');
  let out = 0;
  let from = 0;
  for (let i = body.indexOf('\r'); i !== -1; i = body.indexOf('\r', i + 1)) {
    if (body.charCodeAt(i + 1) !== 10) {
      into.writeUInt16LE(10, 2 * i);
      continue;
    }
    if (out !== from) into.copyWithin(2 * out, 2 * from, 2 * i);
    out += i - from;
    from = i + 1;
  }
  if (out !== from) into.copyWithin(2 * out, 2 * from, 2 * body.length);
  out += body.length - from;
  return out === length ? into.subarray(0, 2 * out) : undefined;
}

/** A reply as received: lists sent as a table plus indexes become plain lists again. */
function fromWorker(
  reply: ScanReply & { textTable?: string[]; textIndex?: Int32Array; matchedTable?: string[]; matchedIndex?: Int32Array },
): ScanReply {
  if (!reply.ok) return reply;
  const unpack = (table: string[], index: Int32Array): string[] => {
    const list: string[] = new Array(index.length);
    for (let i = 0; i < index.length; i++) list[i] = table[index[i] as number] as string;
    return list;
  };
  const texts = reply.textTable !== undefined && reply.textIndex !== undefined ? unpack(reply.textTable, reply.textIndex) : reply.texts;
  const matched = reply.matchedTable !== undefined && reply.matchedIndex !== undefined ? unpack(reply.matchedTable, reply.matchedIndex) : (reply.matched ?? null);
  return { ok: true, count: reply.count, starts: reply.starts, ends: reply.ends, texts, matched };
}

/**
 * Eval'd worker source: self-contained (the bundle is one file, and tests run the TS sources). Besides
 * scanRegex it undoes and does the transport of a big scan (see toWorker / fromWorker above).
 */
const WORKER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const scanRegex = (${scanRegex.toString()});
const MAX_TABLE = ${MAX_TEXT_TABLE};
parentPort.on('message', (job) => {
  let reply;
  // The buffer the text came in, read: sent back with the reply for the next scan (SpareBuffer).
  let spare;
  try {
    if (job.textUtf16 !== undefined) {
      const bytes = job.textUtf16;
      job = { ...job, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf16le'), textUtf16: undefined };
      spare = bytes.buffer;
    }
    reply = scanRegex(job);
  } catch (error) {
    reply = { ok: false, problem: 'crashed', detail: String(error && error.message ? error.message : error) };
  }
  if (!reply.ok) return parentPort.postMessage(spare ? { ...reply, spare } : reply, spare ? [spare] : []);
  // Replacement texts and matches repeat (a template with few distinct expansions, a pattern with few
  // distinct matches): each list goes as a table plus indexes. Too varied a list of matches is not
  // sent at all (it is only a shortcut); too varied a list of texts goes as it is.
  const pack = (list) => {
    const seen = new Map();
    const table = [];
    const index = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      let k = seen.get(t);
      if (k === undefined) {
        if (table.length === MAX_TABLE) return null;
        k = table.length;
        table.push(t);
        seen.set(t, k);
      }
      index[i] = k;
    }
    return { table, index };
  };
  const transfer = [reply.starts.buffer, reply.ends.buffer];
  const out = { ok: true, count: reply.count, starts: reply.starts, ends: reply.ends, texts: reply.texts, matched: reply.matched && reply.matched.length === 0 ? [] : null };
  if (reply.texts !== null && reply.texts.length > 0) {
    const packed = pack(reply.texts);
    if (packed !== null) {
      out.texts = null;
      out.textTable = packed.table;
      out.textIndex = packed.index;
      transfer.push(packed.index.buffer);
    }
  }
  if (reply.matched && reply.matched.length > 0) {
    const packed = pack(reply.matched);
    if (packed !== null) {
      out.matchedTable = packed.table;
      out.matchedIndex = packed.index;
      transfer.push(packed.index.buffer);
    }
  }
  if (spare) {
    out.spare = spare;
    transfer.push(spare);
  }
  reply = out;
  parentPort.postMessage(reply, transfer);
});
`;

/** Workers kept warm between scans (2 CPU cores is the common case; more idle workers only cost memory). */
const MAX_IDLE = 2;
/** Heap cap per worker: a runaway replacement template fails as too_large instead of exhausting memory. */
const WORKER_HEAP_MB = 1024;

export class RegexRunner {
  private readonly idle: Worker[] = [];
  private readonly spare = new SpareBuffer();

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
      const onMessage = ({ spare, ...reply }: ScanReply & { spare?: ArrayBuffer }) => {
        if (spare !== undefined) this.spare.keep(spare);
        finish(fromWorker(reply as ScanReply), true);
      };
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
      const { message, transfer } = toWorker(job, this.spare);
      worker.postMessage(message, transfer);
    });
  }

  /** Terminates every idle worker (busy ones end with their scan), and lets the spare buffer go. */
  async dispose(): Promise<void> {
    this.spare.drop();
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private spawn(): Worker {
    // Loaded with the first worker, not at start-up (docs/performance.md, "Start-up").
    const { Worker } = process.getBuiltinModule('node:worker_threads');
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
