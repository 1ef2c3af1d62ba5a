// What a person's review let through. A needsConfirmation edit opens VS Code's Refactor Preview,
// where every file and every edit can be unticked before Apply; the editor then answers "applied"
// for whatever part it applied. This reads each file back from the editor's didOpen / didChange and
// tells, per planned change: applied whole, applied in part (which edits), or left out.
import type { PlannedChange } from '../../commands/ports/apply.js';
import { appliedSubset } from '../../core/edits/editSubset.js';
import type { OpenDocuments } from './openDocuments.js';

export type ReviewedLanding =
  /** The change as planned, or as it landed in part (edits: the ones that landed; newText: what the buffer holds). */
  | { kind: 'applied'; change: PlannedChange; whole: boolean }
  /** Left unticked: the buffer holds the old text (or the closed file was never opened). */
  | { kind: 'leftOut' }
  /** The buffer holds something else as well: editls cannot tell which edits are in it. */
  | { kind: 'unclear'; text: string };

/**
 * For each planned change (all sent to the editor in one reviewed applyEdit the editor answered
 * applied), what landed. Waits at most `waitMs` in all for buffers still catching up (didChange
 * normally arrives before the answer; a file that was not open arrives with didOpen).
 */
export async function landedAfterReview(documents: OpenDocuments, changes: readonly PlannedChange[], waitMs: number): Promise<ReviewedLanding[]> {
  const settled = await Promise.all(changes.map((c) => documents.waitFor(c.snapshot.uri, (doc) => doc !== undefined && doc.text === c.newText, waitMs)));
  return changes.map((c, i) => {
    const s = settled[i];
    const doc = s === 'timeout' ? documents.get(c.snapshot.uri) : s;
    if (doc === undefined) return { kind: 'leftOut' };
    if (doc.text === c.newText) return { kind: 'applied', change: c, whole: true };
    if (doc.text === c.snapshot.text) return { kind: 'leftOut' };
    const subset = appliedSubset(c.snapshot.text, c.edits, doc.text);
    if (subset === undefined) return { kind: 'unclear', text: doc.text };
    if (subset.length === 0) return { kind: 'leftOut' };
    const edits = subset.map((k) => c.edits[k]!);
    // One edit per replacement when the command made them so; otherwise the share that landed.
    const replacements = c.edits.length === c.replacements ? edits.length : Math.max(1, Math.round((c.replacements * edits.length) / c.edits.length));
    return { kind: 'applied', change: { ...c, newText: doc.text, edits, replacements }, whole: false };
  });
}
