// The shape check of `initialize`'s params, without zod: main.ts answers `initialize` before zod
// (with the rest of editls) is loaded. The fields as far as they are read, by editls and by
// vscode-languageserver's features: arrays that get array methods called on them, strings that
// become paths. Flags are compared with `=== true`, so any value is harmless there and none is
// refused. Every other message's params are checked by messageSchemas.ts.

type Check = (value: unknown, at: string) => string | undefined;

function received(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

const expected = (what: string, value: unknown, at: string) => `${at || '(params)'}: expected ${what}, received ${received(value)}`;
const join = (at: string, key: string | number) => (at === '' ? String(key) : `${at}.${key}`);

const string: Check = (v, at) => (typeof v === 'string' ? undefined : expected('string', v, at));
const int: Check = (v, at) => (typeof v === 'number' && Number.isInteger(v) ? undefined : expected('int', v, at));
/** null or absent is as good as a value the code reads with `?.`. */
const nullish =
  (check: Check): Check =>
  (v, at) =>
    v === null || v === undefined ? undefined : check(v, at);
const optional =
  (check: Check): Check =>
  (v, at) =>
    v === undefined ? undefined : check(v, at);
const array =
  (item: Check): Check =>
  (v, at) => {
    if (!Array.isArray(v)) return expected('array', v, at);
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], join(at, i));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
const object =
  (fields: Record<string, Check>): Check =>
  (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return expected('object', v, at);
    for (const [key, check] of Object.entries(fields)) {
      const problem = check((v as Record<string, unknown>)[key], join(at, key));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
/** ProgressToken: integer | string. */
const progressToken: Check = (v, at) => (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)) ? undefined : expected('int or string', v, at));

const workspaceFolder = object({ uri: string, name: string });

const initializeParams = object({
  processId: nullish(int),
  clientInfo: nullish(object({ name: string, version: optional(string) })),
  rootPath: nullish(string),
  rootUri: nullish(string),
  workspaceFolders: nullish(array(workspaceFolder)),
  capabilities: object({
    general: nullish(object({ positionEncodings: nullish(array(string)) })),
    workspace: nullish(
      object({
        workspaceEdit: nullish(object({ resourceOperations: nullish(array(string)) })),
        didChangeWatchedFiles: nullish(object({})),
      }),
    ),
    window: nullish(object({})),
    textDocument: nullish(object({})),
  }),
  workDoneToken: optional(progressToken),
  partialResultToken: optional(progressToken),
});

/** What is wrong with `initialize`'s params (the first problem: "capabilities: expected object, received undefined"), if anything. */
export function initializeProblem(params: unknown): string | undefined {
  return initializeParams(params, '');
}
