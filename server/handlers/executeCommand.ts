// workspace/executeCommand: look the command up in the registry, validate arguments[0] (none at all
// counts as {}) with its schema (InvalidParams with the issues otherwise), run it and turn a Failure into a ResponseError;
// a failure is also summarised (window/showMessage as an error with `summary: "message"`).
import { ResponseError, type ExecuteCommandParams } from 'vscode-languageserver';
import { findCommand, COMMAND_IDS } from '../commands/index.js';
import type { Context } from '../commands/context.js';
import { invalidArgs, toResponseError, unexpectedError, type ErrorData } from '../protocol/errors.js';
import { fail } from '../core/result.js';

export async function executeCommand(ctx: Context, params: ExecuteCommandParams): Promise<unknown | ResponseError<ErrorData>> {
  const reply = await runCommand(ctx, params);
  if (reply instanceof ResponseError) ctx.summarize(`${params.command || 'executeCommand'} failed (${String(reply.data?.kind)}): ${reply.message}`, 'error');
  return reply;
}

async function runCommand(ctx: Context, params: ExecuteCommandParams): Promise<unknown | ResponseError<ErrorData>> {
  const command = findCommand(params.command);
  if (!command) {
    return invalidArgs(`unknown command "${params.command}"; editls serves ${COMMAND_IDS.join(', ')}`);
  }
  // No arguments at all (a command run from VS Code's palette or a keybinding without `args`) is an
  // empty object: `editls.undo` then undoes the last change; commands that need arguments say which.
  const raw: unknown = params.arguments === undefined || params.arguments.length === 0 ? {} : params.arguments[0];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalidArgs(`${command.id} takes one object in arguments[0]`, [{ path: 'arguments[0]', message: `expected an object, got ${raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw}` }]);
  }
  const prepared = command.prepare(raw);
  if (!prepared.ok) {
    const issues = prepared.issues.map((i) => ({ path: i.path.map(String).join('.') || '(arguments)', message: i.message }));
    return invalidArgs(`invalid arguments for ${command.id}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  // $/cancelRequest: before the command starts nothing runs; a failure after it is reported as `cancelled`.
  if (ctx.signal.aborted) return toResponseError(fail('cancelled', `${command.id} was cancelled before it started; nothing changed`));
  try {
    const result = await prepared.run(ctx);
    if (!result.ok && result.kind !== 'cancelled' && ctx.signal.aborted) return toResponseError(fail('cancelled', `${command.id} was cancelled (${result.message})`));
    return result.ok ? result.value : toResponseError(result);
  } catch (error) {
    ctx.log(`${command.id} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    // A safety net: commands size their results before building them, so this is a bug, but the user
    // still gets too_large rather than V8's "Invalid string length".
    if (error instanceof RangeError && /Invalid string length|Array buffer allocation failed|Invalid typed array length/.test(error.message)) {
      return toResponseError(fail('too_large', `${command.id}: the result is too large to build in memory; nothing changed; make the change in smaller steps`));
    }
    return unexpectedError(command.id, error);
  }
}
