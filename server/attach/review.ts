// Review of agent edits (`agentEdits: "review"`): an agent's edit command runs as a preview (hint
// diagnostics and Apply / Discard code actions in the editor), the file is shown, and the user is
// asked with window/showMessageRequest. The agent's answer is what happened in the editor: applied
// (by the prompt, or by the preview's code action), discarded (either way), expired (the document
// changed), not answered within reviewTimeoutMs, or withdrawn because the agent cancelled its call,
// disconnected or exited — then the preview is discarded and a later answer to the prompt applies
// nothing. Nothing the agent passes skips the review.
import type { ExecuteCommandParams } from 'vscode-languageserver';
import type { PreviewEnd } from '../commands/ports/review.js';
import { findCommand } from '../commands/index.js';
import { fail } from '../core/result.js';
import { toResponseError } from '../protocol/errors.js';

export interface ReviewDeps {
  /** Runs a command through the editor session's own executeCommand handler (same Context, locks, documents). */
  run: (params: ExecuteCommandParams) => Promise<unknown>;
  /** Discards a preview whatever became of the agent's request (a withdrawn review still cleans up). */
  discard: (previewId: string) => Promise<unknown>;
  /** window/showMessageRequest; the title chosen, or null (dismissed, unsupported or aborted). */
  ask: (message: string, actions: string[], signal: AbortSignal) => Promise<string | null>;
  /**
   * What an editls.undo with these arguments would revert: the label of the agent's own latest change
   * (e.g. "editls.edit src/a.ts"), or undefined when it has none (the undo then fails on its own).
   */
  undoTarget: (args: Record<string, unknown>) => Promise<string | undefined>;
  /** Settles when the preview ends however it ends (the user's code actions included); undefined when it is gone. */
  previewEnded: (id: string) => Promise<PreviewEnd> | undefined;
  /** Lines the whole preview removes and adds (not counted from diffs cut for display). */
  previewStat: (id: string) => { added: number; removed: number } | undefined;
  /** window/showDocument of the file, when the client supports it. */
  showDocument: (uri: string) => void;
  /** A window/showMessage to the user (a prompt answered after the review was over). */
  tellUser: (message: string) => void;
  /** The agent's request: aborted when the agent cancels it, disconnects or exits. */
  signal: AbortSignal;
  timeoutMs: number;
  log: (message: string) => void;
}

export const APPLY = 'Apply';
const DISCARD = 'Discard';

interface PreviewReply {
  previewId?: unknown;
  files?: { path: string; uri: string; diff: string }[];
}

/** How a wait for the user ended. */
export type Outcome = { kind: 'answer'; title: string | null } | { kind: 'ended'; end: PreviewEnd } | { kind: 'timeout' } | { kind: 'withdrawn' };

export async function reviewAgentCommand(deps: ReviewDeps, params: ExecuteCommandParams, agent: string): Promise<unknown> {
  const raw = params.arguments?.[0];
  const args = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  // What the command does to files (its descriptor's effect) decides the review: reads and previews
  // run as they are; an edit runs as a preview first; applying a preview or an undo is asked first.
  // Not a command: it fails on its own.
  const effect = findCommand(params.command)?.effect;
  if (effect === undefined || effect === 'read' || effect === 'preview') return deps.run(params);
  if (effect === 'applyPreview') return reviewExisting(deps, params, args, agent);
  if (effect === 'undo') {
    // No preview possible: ask before running, naming the change it reverts (the agent's own only).
    const target = await deps.undoTarget(args);
    if (target === undefined) return deps.run(params);
    const what = `the undo of the agent's last change (${target})`;
    return confirmThenRun(deps, params, `Agent (${agent}) wants to undo its own last change (${target})`, what, undefined);
  }
  if (args.apply === 'preview') return deps.run(params);
  const preview = (await deps.run({ ...params, arguments: [{ ...args, apply: 'preview' }] })) as PreviewReply;
  if (typeof preview !== 'object' || preview === null || typeof preview.previewId !== 'string') return preview; // a failure, or nothing to change
  const apply = typeof args.apply === 'string' ? args.apply : 'auto';
  return decide(deps, params.command, preview.previewId, preview.files ?? [], apply, agent);
}

/** An agent's editls.applyPreview of its own preview still needs the user's yes. */
async function reviewExisting(deps: ReviewDeps, params: ExecuteCommandParams, args: Record<string, unknown>, agent: string): Promise<unknown> {
  const what = typeof args.id === 'string' ? `preview ${args.id}` : typeof args.path === 'string' ? `the previews of ${args.path}` : 'previews';
  return confirmThenRun(deps, params, `Agent (${agent}) wants to apply ${what}`, what, typeof args.id === 'string' ? args.id : undefined);
}

/** Asks, then runs the command on Apply; any other outcome answers why nothing was run. */
async function confirmThenRun(deps: ReviewDeps, params: ExecuteCommandParams, message: string, what: string, previewId: string | undefined): Promise<unknown> {
  const outcome = await waitForUser(deps, message, what, previewId);
  if (outcome.kind === 'answer' && outcome.title === APPLY) return deps.run(params);
  if (outcome.kind === 'ended') return ended(outcome.end, what);
  return notApplied(outcome, what, deps.timeoutMs);
}

/** The applied preview's result, told as the agent's own command after review (not as editls.applyPreview). */
function reviewed(result: unknown, command: string): unknown {
  if (typeof result !== 'object' || result === null || typeof (result as { message?: unknown }).message !== 'string') return result;
  const r = result as { message: string };
  return { ...r, message: `${r.message.replace(/^editls\.applyPreview:/, `${command}:`)} (applied after review in the editor)`, review: 'applied' };
}

async function decide(deps: ReviewDeps, command: string, previewId: string, files: { path: string; uri: string; diff: string }[], apply: string, agent: string): Promise<unknown> {
  const { outcome, what } = await askAboutPreview(deps, previewId, files, 'Agent edit', agent);
  if (outcome.kind === 'answer' && outcome.title === APPLY) return reviewed(await deps.run({ command: 'editls.applyPreview', arguments: [{ id: previewId, ...(apply === 'preview' ? {} : { apply }) }] }), command);
  if (outcome.kind === 'ended') return ended(outcome.end, what);
  await deps.discard(previewId);
  return notApplied(outcome, what, deps.timeoutMs);
}

/** What a review prompt needs: the editor's window requests, the preview store's view, the requester's signal. */
export type PromptDeps = Pick<ReviewDeps, 'ask' | 'previewEnded' | 'previewStat' | 'showDocument' | 'tellUser' | 'signal' | 'timeoutMs' | 'log'>;

/**
 * Shows the preview's first file and asks "<title> to <files>: +a −r" with Apply / Discard until the
 * first outcome (waitForUser); `what` names the change for the messages that follow.
 */
export async function askAboutPreview(deps: PromptDeps, previewId: string, files: readonly { path: string; uri: string }[], title: string, agent: string): Promise<{ outcome: Outcome; what: string }> {
  const first = files[0];
  if (first) deps.showDocument(first.uri);
  const { added, removed } = deps.previewStat(previewId) ?? { added: 0, removed: 0 };
  const target = files.length === 1 ? first!.path : `${files.length} files (${files.slice(0, 3).map((f) => f.path).join(', ')}${files.length > 3 ? ', …' : ''})`;
  const what = `the ${title.replace(/^Agent /, 'agent ')} to ${target}`;
  const outcome = await waitForUser(deps, `${title} to ${target}: +${added} −${removed}`, what, previewId);
  deps.log(`agent ${agent}: ${title.replace(/^Agent /, '').toLowerCase()} to ${target} ${describeOutcome(outcome)} in review`);
  return { outcome, what };
}

/**
 * Waits for the first of: the user's answer, the preview's end (the user applied or discarded it
 * through a code action, or its document changed), the deadline, the agent's withdrawal. The prompt
 * is cancelled when anything but its answer comes first; answered later with Apply, it tells the user
 * that nothing was applied.
 */
async function waitForUser(deps: PromptDeps, message: string, what: string, previewId: string | undefined): Promise<Outcome> {
  if (deps.signal.aborted) return { kind: 'withdrawn' };
  const prompt = new AbortController();
  const cleanups: (() => void)[] = [];
  let over = false;
  const asked = deps.ask(message, [APPLY, DISCARD], prompt.signal).catch(() => null);
  const waits: Promise<Outcome>[] = [
    asked.then((title) => ({ kind: 'answer', title })),
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ kind: 'timeout' }), deps.timeoutMs);
      cleanups.push(() => clearTimeout(timer));
    }),
    new Promise((resolve) => {
      const withdraw = () => resolve({ kind: 'withdrawn' });
      deps.signal.addEventListener('abort', withdraw, { once: true });
      cleanups.push(() => deps.signal.removeEventListener('abort', withdraw));
    }),
  ];
  const end = previewId === undefined ? undefined : deps.previewEnded(previewId);
  if (end) waits.push(end.then((e) => ({ kind: 'ended', end: e })));
  const outcome = await Promise.race(waits);
  over = true;
  for (const c of cleanups) c();
  if (outcome.kind !== 'answer') {
    prompt.abort();
    void asked.then((title) => {
      if (over && title === APPLY) deps.tellUser(`editls: ${what} is no longer waiting for review (${describeOutcome(outcome)}); nothing was applied`);
    });
  }
  return outcome;
}

export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'answer':
      return outcome.title === APPLY ? 'applied' : outcome.title === null ? 'dismissed' : 'discarded';
    case 'ended':
      return outcome.end.how === 'expired' ? `expired: ${outcome.end.why}` : `${outcome.end.how} through its code action`;
    case 'timeout':
      return 'not answered in time';
    case 'withdrawn':
      return 'withdrawn: the agent cancelled its call or went away';
  }
}

/** The preview ended outside the prompt: the agent hears exactly how. */
function ended(end: PreviewEnd, what: string): unknown {
  if (end.how === 'applied') return typeof end.value === 'object' && end.value !== null ? { ...end.value, review: 'applied by the user in the editor' } : end.value;
  if (end.how === 'discarded') return toResponseError(fail('apply_rejected', `${what} was not applied: the user discarded it in the editor; nothing changed. Ask the user before trying again.`, { review: 'discarded' }));
  return toResponseError(fail('stale', `${what} was not applied: ${end.why} while it waited for review; nothing changed. Read the file again before retrying.`, { review: 'expired' }));
}

function notApplied(outcome: Outcome, what: string, timeoutMs: number) {
  if (outcome.kind === 'withdrawn') return toResponseError(fail('cancelled', `${what} was withdrawn from review: the agent cancelled the call or went away; nothing changed`, { review: 'withdrawn' }));
  const timedOut = outcome.kind === 'timeout';
  const why = timedOut ? `no answer in the editor within ${Math.round(timeoutMs / 1000)} s (reviewTimeoutMs)` : 'the user discarded it in the editor';
  return toResponseError(fail('apply_rejected', `${what} was not applied: ${why}; nothing changed. Ask the user before trying again.`, { review: timedOut ? 'timeout' : 'discarded' }));
}
