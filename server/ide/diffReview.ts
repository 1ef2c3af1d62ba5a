// An agent CLI's own edit reviewed in the editor (Claude Code's and Gemini CLI's `openDiff`): the
// whole proposed file becomes an editls preview of the changed lines (hint diagnostics, the file
// shown, Apply / Discard asked, accept / reject code actions) whose writer is the agent, and the
// answer is what the user did: accepted (the agent then writes the file itself, with the text
// returned here), rejected (how, and why), or refused before any review (outside the workspace, a
// buffer with unsaved changes, too large). Nothing here writes a file or a buffer.
import type { PlannedChange } from '../commands/ports/apply.js';
import type { Snapshot } from '../commands/ports/files.js';
import type { PreviewStore } from '../commands/ports/review.js';
import { textChange } from '../core/edits/lineHunks.js';
import { withEol } from '../core/text/normalizedText.js';
import type { Result } from '../core/result.js';
import { APPLY, askAboutPreview, describeOutcome, type Outcome, type PromptDeps } from '../attach/review.js';

/** How the review of one proposed file ended, as the agent is told. */
export type DiffAnswer =
  | { kind: 'accepted'; text: string }
  | { kind: 'rejected'; how: 'discarded' | 'dismissed' | 'timeout' | 'expired' | 'withdrawn' | 'closed'; why: string }
  | { kind: 'refused'; why: string };

/** The file an agent proposes a new text for, as editls sees it now. */
export interface Proposed {
  /** Resolved in the editor's folders; its text is the open buffer when there is one. */
  snapshot: Snapshot;
  /** The open buffer differs from the file on disk (unsaved changes the agent has not seen). */
  unsaved: boolean;
}

export interface DiffReviewDeps extends Omit<PromptDeps, 'signal' | 'timeoutMs'> {
  /** The file at `path` (absolute, as the agent names it) as it is now; a failure says why it cannot be reviewed. */
  look: (path: string) => Promise<Result<Proposed>>;
  previews: PreviewStore;
}

interface Pending {
  path: string;
  /** Aborted to withdraw the review; `closedBy` says who. */
  controller: AbortController;
  closedBy?: string;
}

/** The reviews of one agent's connection, by the key the agent uses to close them (its tab name or file path). */
export class DiffReviews {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly deps: DiffReviewDeps,
    /** The agent's name as the user reads it ("Claude Code", "Gemini CLI"). */
    private readonly agent: string,
  ) {}

  /** Reviews `newText` as the file at `path`; settles when the user answers, the review is withdrawn, or after `timeoutMs`. */
  async review(key: string, path: string, newText: string, signal: AbortSignal, timeoutMs: number): Promise<DiffAnswer> {
    this.close(key, 'a newer proposal for the same tab');
    const looked = await this.deps.look(path);
    if (!looked.ok) return { kind: 'refused', why: looked.message };
    const { snapshot, unsaved } = looked;
    const rel = snapshot.resolved.relPath;
    if (unsaved) {
      return { kind: 'refused', why: `${rel} has unsaved changes in the editor; save or revert them there first, then propose the edit again (nothing was changed)` };
    }
    const proposed = withEndingsOf(snapshot.text, newText);
    const edits = textChange(snapshot.text, proposed);
    if (edits.length === 0 && snapshot.source !== 'missing') return { kind: 'accepted', text: newText };
    const change: PlannedChange = { snapshot, newText: proposed, edits, created: snapshot.source === 'missing', replacements: edits.length };
    const previewId = this.deps.previews.add(`${this.agent} edit`, [change], this.agent);
    const controller = new AbortController();
    const entry: Pending = { path, controller };
    this.pending.set(key, entry);
    const onAbort = () => controller.abort();
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { outcome, what } = await askAboutPreview(
        { ...this.deps, signal: controller.signal, timeoutMs },
        previewId,
        [{ path: rel, uri: snapshot.uri }],
        `${this.agent} edit`,
        this.agent,
      );
      const answer = this.answer(outcome, what, entry, newText, timeoutMs);
      // Its hints go whatever the answer (a preview that ended on its own is already gone).
      this.deps.previews.remove([previewId], answer.kind === 'accepted' ? { how: 'applied', value: { accepted: true } } : { how: 'discarded' });
      return answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.pending.get(key) === entry) this.pending.delete(key);
    }
  }

  /** Withdraws the pending review under `key` (the agent closed its tab); true when there was one. */
  close(key: string, by = 'the agent closed it'): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    entry.closedBy = by;
    entry.controller.abort();
    this.pending.delete(key);
    return true;
  }

  /** Withdraws every pending review (the agent closed all its diff tabs, or went away). */
  closeAll(by = 'the agent closed all its reviews'): number {
    const keys = [...this.pending.keys()];
    for (const key of keys) this.close(key, by);
    return keys.length;
  }

  /** Keys of the reviews waiting for the user whose file is `path`. */
  keysFor(path: string): string[] {
    return [...this.pending.entries()].filter(([, p]) => p.path === path).map(([k]) => k);
  }

  private answer(outcome: Outcome, what: string, entry: Pending, newText: string, timeoutMs: number): DiffAnswer {
    switch (outcome.kind) {
      case 'answer':
        if (outcome.title === APPLY) return { kind: 'accepted', text: newText };
        return { kind: 'rejected', how: outcome.title === null ? 'dismissed' : 'discarded', why: `the user ${outcome.title === null ? 'dismissed' : 'rejected'} ${what} in the editor` };
      case 'ended':
        if (outcome.end.how === 'applied') return { kind: 'accepted', text: newText };
        if (outcome.end.how === 'discarded') return { kind: 'rejected', how: 'discarded', why: `the user rejected ${what} in the editor` };
        return { kind: 'rejected', how: 'expired', why: `${what} went out of date: ${outcome.end.why}` };
      case 'timeout':
        return { kind: 'rejected', how: 'timeout', why: `no answer in the editor within ${Math.round(timeoutMs / 60_000)} min` };
      case 'withdrawn':
        return entry.closedBy !== undefined
          ? { kind: 'rejected', how: 'closed', why: `${what} was closed: ${entry.closedBy}` }
          : { kind: 'rejected', how: 'withdrawn', why: `${what} was ${describeOutcome(outcome)}` };
    }
  }
}

/**
 * The proposed text with the file's line endings: agents read a CRLF file, edit it, and send the
 * whole text with CR LF kept or with bare LF (then they write CR LF back); the preview compares like
 * with like, so an unchanged line never shows as changed. A file without CR LF is left as sent.
 */
export function withEndingsOf(current: string, proposed: string): string {
  // A byte order mark the agent kept or dropped is not a change of the first line either.
  const body = current.startsWith('\uFEFF') === proposed.startsWith('\uFEFF') ? proposed : current.startsWith('\uFEFF') ? `\uFEFF${proposed}` : proposed.slice(1);
  return !current.includes('\r\n') || body.includes('\r') ? body : withEol(body, '\r\n');
}
