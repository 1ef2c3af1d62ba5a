// The only place that turns editls failures into JSON-RPC errors: invalid arguments and unknown
// commands are InvalidParams (-32602), every other expected failure is RequestFailed (-32803),
// both with `data.kind` so clients and agents can branch on it.
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import type { Failure } from '../core/result.js';

export interface ErrorData {
  kind: Failure['kind'];
  [key: string]: unknown;
}

export function toResponseError(failure: Failure): ResponseError<ErrorData> {
  const code = failure.kind === 'invalid_args' ? ErrorCodes.InvalidParams : LSPErrorCodes.RequestFailed;
  return new ResponseError<ErrorData>(code, failure.message, { ...(failure.data ?? {}), kind: failure.kind });
}

/** Schema issues in a compact, JSON-safe form for `data.issues`. */
export interface ArgIssue {
  path: string;
  message: string;
}

export function invalidArgs(message: string, issues: ArgIssue[] = []): ResponseError<ErrorData> {
  return new ResponseError<ErrorData>(ErrorCodes.InvalidParams, message, { kind: 'invalid_args', issues });
}

export function unexpectedError(command: string, error: unknown): ResponseError<ErrorData> {
  const detail = error instanceof Error ? error.message : String(error);
  return new ResponseError<ErrorData>(LSPErrorCodes.RequestFailed, `${command} failed unexpectedly: ${detail}`, { kind: 'io_error' });
}

/** A request the client cancelled ($/cancelRequest): LSP's RequestCancelled, which editors drop silently. */
export function requestCancelled(message: string): ResponseError<ErrorData> {
  return new ResponseError<ErrorData>(LSPErrorCodes.RequestCancelled, message, { kind: 'cancelled' });
}

/** An agent connection that has not presented the right token (server/attach/listener.ts). */
export function attachRefused(message: string): ResponseError<{ kind: 'attach_refused' }> {
  return new ResponseError(ErrorCodes.InvalidRequest, message, { kind: 'attach_refused' });
}

/** A request an agent connection may not send (only executeCommand and workspace/symbol are served). */
export function methodNotServed(method: string): ResponseError<undefined> {
  return new ResponseError(ErrorCodes.MethodNotFound, `${method} is not served to agents; send workspace/executeCommand or workspace/symbol`);
}
