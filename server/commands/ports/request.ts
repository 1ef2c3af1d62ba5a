// The request port: what every command may read of the request it serves (settings, the position
// encoding, cancellation, the client's progress token, the room left in memory) and its two ways of telling the user (the log, a one-line summary).
// Implemented by server/workspace/context.ts.
import type { PositionEncoding } from '../../core/text/positions.js';
import type { Settings } from '../../settings.js';

export interface RequestPort {
  readonly settings: Settings;
  /** The position encoding agreed with the client: columns in results and edits are counted in it. */
  readonly encoding: PositionEncoding;
  /** Aborted when the client cancels the request ($/cancelRequest). */
  readonly signal: AbortSignal;
  /** The client's workDoneToken from the request params, if any (for $/progress). */
  readonly workDoneToken?: string | number;
  /**
   * Bytes the JavaScript heap can still grow by (its limit less what it holds now): what a command
   * that gathers a large change in memory may plan on, so that it refuses rather than crashes.
   */
  memoryRoom(): number;
  log(message: string): void;
  /** A one-line summary for the user (window/showMessage when `summary` is "message", else the log); errors show as errors. */
  summarize(message: string, level?: 'info' | 'error'): void;
}
