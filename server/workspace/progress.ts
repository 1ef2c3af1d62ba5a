// `$/progress` for long work: on the request's own workDoneToken when the client sent one, else on
// a token editls creates (window/workDoneProgress/create) when the client supports it, optionally
// only once the work has run for a while. window/workDoneProgress/cancel aborts the handle's signal.
import type { ProgressHandle } from '../commands/ports/progress.js';

export interface ProgressOptions {
  /** The client's workDoneToken from the request; progress then starts at once on it. */
  token?: string | number;
  /** Without a client token: create a token and begin only after this many ms (0 = at once). */
  delayMs?: number;
  cancellable?: boolean;
}

/** The `value` of a `$/progress` notification (LSP's WorkDoneProgressBegin / Report / End). */
export type ProgressValue =
  | { kind: 'begin'; title: string; cancellable?: boolean; message?: string; percentage?: number }
  | { kind: 'report'; message?: string; percentage?: number }
  | { kind: 'end'; message?: string };

export interface ProgressTransport {
  /** The client advertised window.workDoneProgress. */
  supported(): boolean;
  create(token: string): Promise<unknown>;
  send(token: string | number, value: ProgressValue): void;
}

const REPORT_INTERVAL_MS = 200;

export class ProgressReporter {
  private readonly active = new Map<string | number, AbortController>();
  private counter = 0;

  constructor(private readonly transport: ProgressTransport) {}

  /** window/workDoneProgress/cancel. */
  cancel(token: string | number): void {
    this.active.get(token)?.abort();
  }

  start(title: string, options: ProgressOptions = {}): ProgressHandle {
    const controller = new AbortController();
    let token: string | number | undefined;
    let began = false;
    let finished = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastSent = 0;
    let queued: { message: string; percentage?: number } | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const cancellable = options.cancellable ?? true;

    let end: ProgressValue = { kind: 'end' };
    const begin = (t: string | number) => {
      token = t;
      began = true;
      this.transport.send(t, { kind: 'begin', title, cancellable, ...(queued ? { message: queued.message } : {}) });
      lastSent = Date.now();
      queued = undefined;
      // The work ended while the client was still confirming the token (a fast index build): the
      // created token still gets its begin and end.
      if (finished) this.transport.send(t, end);
      else this.active.set(t, controller);
    };
    const flush = () => {
      flushTimer = undefined;
      if (!began || finished || !queued || token === undefined) return;
      this.transport.send(token, { kind: 'report', message: queued.message, ...(queued.percentage !== undefined ? { percentage: Math.round(queued.percentage) } : {}) });
      lastSent = Date.now();
      queued = undefined;
    };

    if (options.token !== undefined) {
      begin(options.token);
    } else if (this.transport.supported()) {
      const create = () => {
        timer = undefined;
        if (finished) return;
        const t = `editls-${++this.counter}-${Date.now().toString(36)}`;
        this.transport.create(t).then(
          () => begin(t),
          () => undefined, // the client refused the token: no progress, the work goes on
        );
      };
      if ((options.delayMs ?? 0) <= 0) create();
      else timer = setTimeout(create, options.delayMs);
    }

    return {
      signal: controller.signal,
      report: (message, percentage) => {
        if (finished) return;
        queued = percentage === undefined ? { message } : { message, percentage };
        if (!began || flushTimer) return;
        const wait = REPORT_INTERVAL_MS - (Date.now() - lastSent);
        if (wait <= 0) flush();
        else flushTimer = setTimeout(flush, wait);
      },
      done: (message) => {
        if (finished) return;
        finished = true;
        end = message === undefined ? { kind: 'end' } : { kind: 'end', message };
        if (timer) clearTimeout(timer);
        if (flushTimer) clearTimeout(flushTimer);
        if (began && token !== undefined) {
          this.transport.send(token, end);
          this.active.delete(token);
        }
      },
    };
  }
}
