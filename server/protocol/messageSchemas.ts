// The shapes of incoming LSP messages that editls (or vscode-languageserver on its behalf) reads:
// zod schemas for notification params and for request params, checked at the boundary by
// sessionGate.ts so that no handler ever sees a `text` that is not a string or a range without `end`.
// `initialize` is checked without zod (initializeParams.ts), before this is loaded.
import { z } from 'zod';
import type { MessageChecks } from './sessionGate.js';

const uint = z.number().int().nonnegative();
const uri = z.string();
const position = z.object({ line: uint, character: uint });
const range = z.object({ start: position, end: position });
/** ProgressToken: integer | string. */
const progressToken = z.union([z.number().int(), z.string()]);
const textDocument = z.object({ uri });
const workspaceFolder = z.object({ uri, name: z.string() });
/** An optional object that the code reads with `?.` (null is as good as absent). */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();

/** didChange: an incremental change has a whole range; a full-text change has none (not even null). */
const contentChange = z.union([
  z.object({ range, rangeLength: uint.optional(), text: z.string() }),
  z.object({ text: z.string(), range: z.never().optional() }),
]);

/** Notifications whose params are checked; others pass as they are (their handlers read nothing, or nothing handles them). */
export const NOTIFICATION_PARAMS: Readonly<Record<string, z.ZodType>> = {
  'textDocument/didOpen': z.object({ textDocument: z.object({ uri, languageId: z.string(), version: z.number().int(), text: z.string() }) }),
  'textDocument/didChange': z.object({ textDocument: z.object({ uri, version: z.number().int() }), contentChanges: z.array(contentChange) }),
  'textDocument/didClose': z.object({ textDocument }),
  'textDocument/didSave': z.object({ textDocument, text: z.string().optional() }),
  'textDocument/willSave': z.object({ textDocument, reason: z.number().int() }),
  'workspace/didChangeWatchedFiles': z.object({ changes: z.array(z.object({ uri, type: z.union([z.literal(1), z.literal(2), z.literal(3)]) })) }),
  'workspace/didChangeWorkspaceFolders': z.object({ event: z.object({ added: z.array(workspaceFolder), removed: z.array(workspaceFolder) }) }),
  'workspace/didChangeConfiguration': z.object({ settings: z.unknown().optional() }),
  'window/workDoneProgress/cancel': z.object({ token: progressToken }),
  '$/cancelRequest': z.object({ id: z.union([z.number(), z.string()]) }),
  '$/setTrace': z.object({ value: z.string() }),
  '$/progress': z.object({ token: progressToken, value: z.unknown() }),
};

/** Request params checked before the handler runs (a wrong shape is InvalidParams). `workspace/executeCommand` checks its own. */
export const REQUEST_PARAMS: Readonly<Record<string, z.ZodType>> = {
  'textDocument/codeAction': z.object({
    textDocument,
    range,
    context: maybe(z.object({ diagnostics: z.array(z.unknown()).optional(), only: z.array(z.string()).optional() })),
  }),
  'workspace/symbol': z.object({ query: z.string() }),
};

/** The progress tokens any request may carry. */
export const PROGRESS_TOKENS = z.object({ workDoneToken: progressToken.optional(), partialResultToken: progressToken.optional() });

/** The gate's checks of every message after `initialize` (sessionGate.ts). */
export const MESSAGE_CHECKS: MessageChecks = {
  request(method, params) {
    const schema = REQUEST_PARAMS[method];
    if (schema) {
      const parsed = schema.safeParse(params);
      if (!parsed.success) return describeIssues(parsed.error);
    }
    if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
      const tokens = PROGRESS_TOKENS.safeParse(params);
      if (!tokens.success) return describeIssues(tokens.error);
    }
    return undefined;
  },
  notification(method, params) {
    const parsed = NOTIFICATION_PARAMS[method]?.safeParse(params);
    return parsed === undefined || parsed.success ? undefined : describeIssues(parsed.error);
  },
};

/** The first few issues of a failed parse, on one line ("textDocument.text: expected string, received number"). */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message.replace(/^Invalid input: /, '')}`);
  return issues.join('; ') + (error.issues.length > 3 ? `; and ${error.issues.length - 3} more` : '');
}
