// Messages to the client that nothing waits on: log lines, messages, progress, diagnostics, and the
// requests whose answer is optional (progress tokens, showDocument). vscode-jsonrpc throws at the
// call once the connection is closed or disposed (stdin ended; `editls mcp` dropping its headless
// session for the editor's editls): work that finishes late, such as the stray-temp sweep after the
// index build, must not turn its log line into an uncaught error, which ends the process. Such a
// message has nobody left to reach and is dropped; any other failure goes to stderr (never stdout,
// the protocol channel).
import { ConnectionError, MessageType, ShowDocumentRequest, ShowMessageNotification, type Connection } from 'vscode-languageserver';

/** Runs `send` (a notification) and drops what it throws or rejects with, as above. */
export function sendQuietly(send: () => Promise<void> | void): void {
  try {
    const sent = send();
    if (sent !== undefined) sent.catch(unsent);
  } catch (error) {
    unsent(error);
  }
}

/** A request's answer, or a rejection, never a throw at the call: for callers that only `.then`/`.catch` it. */
export async function requestOrReject<T>(send: () => Promise<T>): Promise<T> {
  return send();
}

/** window/showMessage (a notification: never a prompt), sent quietly. */
export function showMessageQuietly(connection: Connection, type: MessageType, message: string): void {
  sendQuietly(() => connection.sendNotification(ShowMessageNotification.type, { type, message }));
}

/** window/showDocument with focus, its answer (or refusal) not waited on. */
export function showDocumentQuietly(connection: Connection, uri: string): void {
  requestOrReject(() => connection.sendRequest(ShowDocumentRequest.type, { uri, takeFocus: true })).catch(() => undefined);
}

function unsent(error: unknown): void {
  if (error instanceof ConnectionError) return;
  process.stderr.write(`editls: a message to the client was not sent: ${error instanceof Error ? error.message : String(error)}\n`);
}
