// One workspace/applyEdit round trip with a deadline and the command's cancellation: whichever
// comes first of the editor's answer, `timeoutMs` and the abort signal settles it; the request is
// then cancelled towards the editor and a late answer only reaches `onLate`.
import type { ApplyWorkspaceEditResult, WorkspaceEdit } from 'vscode-languageserver';

export type EditorAnswer =
  | { kind: 'reply'; reply: ApplyWorkspaceEditResult }
  | { kind: 'error'; message: string }
  | { kind: 'timeout' }
  | { kind: 'cancelled' };

export interface RoundTrip {
  send: (label: string, edit: WorkspaceEdit, signal: AbortSignal) => Promise<ApplyWorkspaceEditResult>;
  /** Infinity: no deadline. */
  timeoutMs: number;
  signal: AbortSignal;
  /** The editor answered after editls stopped waiting (or failed late). */
  onLate: (answer: EditorAnswer) => void;
}

export function askEditor(trip: RoundTrip, label: string, edit: WorkspaceEdit): Promise<EditorAnswer> {
  if (trip.signal.aborted) return Promise.resolve({ kind: 'cancelled' });
  const stop = new AbortController();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: EditorAnswer, late: boolean) => {
      if (settled) {
        if (late) trip.onLate(answer);
        return;
      }
      settled = true;
      clearTimeout(timer);
      trip.signal.removeEventListener('abort', onAbort);
      if (answer.kind === 'timeout' || answer.kind === 'cancelled') stop.abort();
      resolve(answer);
    };
    const onAbort = () => settle({ kind: 'cancelled' }, false);
    // No deadline (Infinity) while a person reviews the edit (a needsConfirmation edit in VS Code's Refactor Preview).
    const timer = Number.isFinite(trip.timeoutMs) ? setTimeout(() => settle({ kind: 'timeout' }, false), trip.timeoutMs) : undefined;
    trip.signal.addEventListener('abort', onAbort, { once: true });
    let request: Promise<ApplyWorkspaceEditResult>;
    try {
      request = trip.send(label, edit, stop.signal);
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (reply) => settle({ kind: 'reply', reply }, true),
      (error: unknown) => settle({ kind: 'error', message: error instanceof Error ? error.message : String(error) }, true),
    );
  });
}

/** "10 s", "0.3 s", "1.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}
