// Review of agent edits (`agentEdits: "review"`): an agent's edit command runs as a preview (hint
// diagnostics and Apply / Discard code actions in the editor), the file is shown, and the user is
// asked with window/showMessageRequest; the call waits for the answer (at most reviewTimeoutMs) and
// then applies the preview or discards it (`apply_rejected`). Nothing the agent passes skips it.
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { fail } from '../core/result.js';
import { toResponseError } from '../protocol/errors.js';

/** Commands that never change a file: run as they are. */
const READ_ONLY = new Set(['editls.readFile', 'editls.searchFiles', 'editls.discardPreview', 'editls.proposeStrReplace']);

export interface ReviewDeps {
  /** Runs a command through the editor session's own executeCommand handler (same Context, locks, documents). */
  run: (params: ExecuteCommandParams) => Promise<unknown>;
  /** previewable: the command takes `apply` (so `apply: "preview"`); other: it changes files without a
   *  preview (editls.undo); unknown: not a command (it fails on its own). */
  commandKind: (command: string) => 'previewable' | 'other' | 'unknown';
  /** window/showMessageRequest; the title chosen, or null (dismissed, unsupported or aborted). */
  ask: (message: string, actions: string[], signal: AbortSignal) => Promise<string | null>;
  /**
   * What an editls.undo with these arguments would revert: the label of the agent's own latest change
   * (e.g. "editls.edit src/a.ts"), or undefined when it has none (the undo then fails on its own).
   */
  undoTarget: (args: Record<string, unknown>) => Promise<string | undefined>;
  /** window/showDocument of the file, when the client supports it. */
  showDocument: (uri: string) => void;
  timeoutMs: number;
  log: (message: string) => void;
}

const APPLY = 'Apply';
const DISCARD = 'Discard';

interface PreviewReply {
  previewId?: unknown;
  files?: { path: string; uri: string; diff: string }[];
}

export async function reviewAgentCommand(deps: ReviewDeps, params: ExecuteCommandParams, agent: string): Promise<unknown> {
  const raw = params.arguments?.[0];
  const args = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const kind = deps.commandKind(params.command);
  if (READ_ONLY.has(params.command) || kind === 'unknown') return deps.run(params);
  if (params.command === 'editls.applyPreview') return reviewExisting(deps, params, args, agent);
  if (params.command === 'editls.undo') {
    // No preview possible: ask before running, naming the change it reverts (the agent's own only).
    const target = await deps.undoTarget(args);
    if (target === undefined) return deps.run(params);
    const answer = await askWithDeadline(deps, `Agent (${agent}) wants to undo its own last change (${target})`);
    return answer === APPLY ? deps.run(params) : rejected(answer, `the undo of the agent's last change (${target})`, deps.timeoutMs);
  }
  if (kind === 'other') {
    const what = typeof args.path === 'string' ? `${params.command} on ${args.path}` : params.command;
    const answer = await askWithDeadline(deps, `Agent (${agent}) wants to run ${what}`);
    return answer === APPLY ? deps.run(params) : rejected(answer, what, deps.timeoutMs);
  }
  if (args.apply === 'preview') return deps.run(params);
  const preview = (await deps.run({ ...params, arguments: [{ ...args, apply: 'preview' }] })) as PreviewReply;
  if (typeof preview !== 'object' || preview === null || typeof preview.previewId !== 'string') return preview; // a failure, or nothing to change
  const apply = typeof args.apply === 'string' ? args.apply : 'auto';
  return decide(deps, preview.previewId, preview.files ?? [], apply, agent);
}

/** An agent's editls.applyPreview of its own preview still needs the user's yes. */
async function reviewExisting(deps: ReviewDeps, params: ExecuteCommandParams, args: Record<string, unknown>, agent: string): Promise<unknown> {
  if (typeof args.id !== 'string') {
    const what = typeof args.path === 'string' ? `the previews of ${args.path}` : 'previews';
    const answer = await askWithDeadline(deps, `Agent (${agent}) wants to apply ${what}`);
    return answer === APPLY ? deps.run(params) : rejected(answer, what, deps.timeoutMs);
  }
  const answer = await askWithDeadline(deps, `Agent (${agent}) wants to apply preview ${args.id}`);
  if (answer === APPLY) return deps.run(params);
  return rejected(answer, `preview ${args.id}`, deps.timeoutMs);
}

async function decide(deps: ReviewDeps, previewId: string, files: { path: string; uri: string; diff: string }[], apply: string, agent: string): Promise<unknown> {
  const first = files[0];
  if (first) deps.showDocument(first.uri);
  const { added, removed } = countLines(files.map((f) => f.diff).join(''));
  const target = files.length === 1 ? first!.path : `${files.length} files (${files.slice(0, 3).map((f) => f.path).join(', ')}${files.length > 3 ? ', …' : ''})`;
  const answer = await askWithDeadline(deps, `Agent edit to ${target}: +${added} −${removed}`);
  deps.log(`agent ${agent}: edit to ${target} ${answer === APPLY ? 'applied' : answer === null ? 'not answered' : 'discarded'} in review`);
  if (answer === APPLY) return deps.run({ command: 'editls.applyPreview', arguments: [{ id: previewId, ...(apply === 'preview' ? {} : { apply }) }] });
  await deps.run({ command: 'editls.discardPreview', arguments: [{ id: previewId }] });
  return rejected(answer, `the agent edit to ${target}`, deps.timeoutMs);
}

/** The user's answer, or null on dismissal or when reviewTimeoutMs passes (the request is then cancelled). */
async function askWithDeadline(deps: ReviewDeps, message: string): Promise<string | null> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deps.timeoutMs);
  });
  try {
    const answer = await Promise.race([deps.ask(message, [APPLY, DISCARD], controller.signal).catch(() => null), deadline]);
    if (answer === 'timeout') {
      controller.abort();
      return TIMED_OUT;
    }
    return answer;
  } finally {
    clearTimeout(timer);
  }
}

const TIMED_OUT = '\u0000timeout';

function rejected(answer: string | null, what: string, timeoutMs: number) {
  const why = answer === TIMED_OUT ? `no answer in the editor within ${Math.round(timeoutMs / 1000)} s (reviewTimeoutMs)` : 'the user discarded it in the editor';
  return toResponseError(fail('apply_rejected', `${what} was not applied: ${why}; nothing changed. Ask the user before trying again.`, { review: answer === TIMED_OUT ? 'timeout' : 'discarded' }));
}

function countLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
