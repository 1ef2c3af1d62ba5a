// Expected failures as values: every core function returns a Result instead of throwing,
// and only server/protocol/errors.ts turns a Failure into a JSON-RPC ResponseError.

/** The `data.kind` values of the contract (../shared/design/contract.md, "Errors"). */
export const ERROR_KINDS = [
  'invalid_args',
  'file_not_found',
  'already_exists',
  'outside_workspace',
  'not_found',
  'ambiguous',
  'no_change',
  'stale',
  'invalid_range',
  'invalid_regex',
  'regex_timeout',
  'binary_file',
  'unsupported_encoding',
  'too_large',
  'apply_rejected',
  'io_error',
  'cancelled',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** An expected failure: one-line message naming the file and what to do next, plus structured data. */
export interface Failure {
  ok: false;
  kind: ErrorKind;
  message: string;
  data?: Record<string, unknown>;
}

export type Result<T> = ({ ok: true } & T) | Failure;

export function fail(kind: ErrorKind, message: string, data?: Record<string, unknown>): Failure {
  return data === undefined ? { ok: false, kind, message } : { ok: false, kind, message, data };
}

