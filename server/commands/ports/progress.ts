// The progress port: $/progress for a long command, on the client's workDoneToken or on one made
// after a delay. Implemented by server/workspace/progress.ts.

export interface ProgressHandle {
  /** Aborted when the client cancels this progress (window/workDoneProgress/cancel). */
  readonly signal: AbortSignal;
  /** Throttled: at most one report per interval reaches the client, the latest wins. */
  report(message: string, percentage?: number): void;
  done(message?: string): void;
}

export interface ProgressPort {
  /** $/progress on the request's workDoneToken, else (client permitting) on a token created after `delayMs`. */
  startProgress(title: string, options?: { delayMs?: number }): ProgressHandle;
}
