// The code actions editls offers on a document: apply / discard each pending preview touching it,
// apply all of them, send the selection to a connected agent CLI, undo of the last editls change,
// and the no-input edits (trailing whitespace in the selection or the file, mixed line endings).
// Each offer runs an editls command, so it is computed and applied like one.
import { countTrailingWhitespace, endingName, lineEndingStats } from '../core/edits/whitespace.js';
import type { ActionOffer } from '../protocol/previewProto.js';
import type { AgentsPort } from './ports/agents.js';
import type { ApplyPort } from './ports/apply.js';
import type { FilesPort } from './ports/files.js';
import type { ReviewPort } from './ports/review.js';
import { CODE_ACTION_KINDS } from './ids.js';

/** Every kind editls offers (advertised as codeActionProvider.codeActionKinds). */
export { CODE_ACTION_KINDS };

/**
 * Offers for the document at `uri`; `lines` is the selected 1-based line span (undefined for a
 * cursor); `only` is the client's kind filter (a kind matches itself and its sub-kinds).
 */
export async function codeActionOffers(
  ctx: FilesPort & ReviewPort & Pick<ApplyPort, 'carriageReturns'> & Pick<AgentsPort, 'mentionTargets'>,
  uri: string,
  lines: { start: number; end: number } | undefined,
  only: readonly string[] | undefined,
  cursorLine?: number,
): Promise<ActionOffer[]> {
  const resolved = await ctx.resolvePath(uri);
  if (!resolved.ok) return [];
  const wanted = (kind: string) => only === undefined || only.length === 0 || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const offers: ActionOffer[] = [];
  const previews = ctx.previews.touching(resolved.absPath);
  for (const p of previews) {
    const files = p.changes.length === 1 ? p.changes[0]!.snapshot.resolved.relPath : `${p.changes.length} files`;
    const what = `${p.command}, ${p.replacements} change${p.replacements === 1 ? '' : 's'} in ${files}`;
    // An agent CLI's own edit under review (p.writer): accepting answers the agent, which writes it.
    offers.push(
      p.writer === undefined
        ? { title: `editls: apply previewed edit ${p.id} (${what})`, kind: 'refactor.rewrite', command: 'editls.applyPreview', args: { id: p.id }, isPreferred: true }
        : { title: `editls: accept ${p.writer}'s edit ${p.id} (${what})`, kind: 'refactor.rewrite', command: 'editls.applyPreview', args: { id: p.id }, isPreferred: true },
      { title: p.writer === undefined ? `editls: discard previewed edit ${p.id}` : `editls: reject ${p.writer}'s edit ${p.id}`, kind: 'refactor.rewrite', command: 'editls.discardPreview', args: { id: p.id } },
    );
  }
  // The selection (or the cursor's line) to the agent CLI connected to the editor, as an @-mention.
  const agents = ctx.mentionTargets();
  const span = lines ?? (cursorLine === undefined ? undefined : { start: cursorLine, end: cursorLine });
  if (agents.length > 0 && span && wanted('source.sendToAgent')) {
    const what = span.start === span.end ? `line ${span.start}` : `lines ${span.start}–${span.end}`;
    offers.push({ title: `editls: send ${what} to ${agents.join(', ')}`, kind: 'source.sendToAgent', command: 'editls.sendToAgent', args: { path: uri, startLine: span.start, endLine: span.end } });
  }
  // With one preview "apply all" would repeat "apply"; a client asking for the kind still gets it.
  if (previews.length >= 2 || (previews.length === 1 && only?.some((o) => o.startsWith('source.applyPreviews')))) {
    offers.push({ title: `editls: apply all ${previews.length} previews in this file`, kind: 'source.applyPreviews', command: 'editls.applyPreview', args: { path: uri } });
  }
  const snapshot = await ctx.snapshot(resolved);
  if (snapshot.ok && snapshot.source !== 'missing') {
    const text = snapshot.text;
    // Undo is offered only while it would work: the document still holds what editls left.
    const last = ctx.journal.latest(resolved.absPath);
    const mine = last?.files.find((f) => f.absPath === resolved.absPath);
    if (last && mine && ctx.journal.holdsWhatEditlsLeft(mine, text)) {
      offers.push({ title: `editls: undo last editls change (${last.command})`, kind: 'refactor.rewrite', command: 'editls.undo', args: { path: uri } });
    }
    if (lines !== undefined && countTrailingWhitespace(text, lines) > 0) {
      const span = lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}-${lines.end}`;
      offers.push({
        title: `editls: remove trailing whitespace in ${span}`,
        kind: 'refactor.rewrite',
        command: 'editls.trimTrailingWhitespace',
        args: { path: uri, start_line: lines.start, end_line: lines.end },
      });
    }
    const inFile = countTrailingWhitespace(text);
    if (inFile > 0) {
      offers.push({
        title: `editls: remove trailing whitespace in this file (${inFile} line${inFile === 1 ? '' : 's'})`,
        kind: 'source.trimTrailingWhitespace',
        command: 'editls.trimTrailingWhitespace',
        args: { path: uri },
      });
    }
    const endings = lineEndingStats(text);
    // Not offered where it cannot work: an open buffer in an editor that changes the carriage
    // returns of edits (Neovim, lsp-mode) cannot take CRs (editls would refuse the edit).
    const needsCr = endings.dominant !== '\n';
    if (endings.mixed && !(needsCr && snapshot.source === 'editor' && ctx.carriageReturns !== 'keep')) {
      const differing = endings.lf + endings.crlf + endings.cr - (endings.dominant === '\n' ? endings.lf : endings.dominant === '\r\n' ? endings.crlf : endings.cr);
      offers.push({
        title: `editls: normalise line endings to ${endingName(endings.dominant)} (${differing} line${differing === 1 ? ' differs' : 's differ'})`,
        kind: 'source.normalizeLineEndings',
        command: 'editls.normalizeLineEndings',
        args: { path: uri },
      });
    }
  }
  return offers.filter((o) => wanted(o.kind));
}
