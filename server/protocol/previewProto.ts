// LSP shapes for previews and code actions: the hint diagnostics marking the ranges a preview would
// change, CodeAction objects for editls's offers (each runs an editls command, so it is applied
// like any command), and the 1-based line span a code action request's range covers.
import { DiagnosticSeverity, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver';
import type { SpanEdit } from '../core/text/spanEdit.js';
import type { PositionEncoding } from '../core/text/positions.js';
import { toTextEdits } from './toProto.js';

/** Diagnostics per preview and file are capped; the last one says how many more changes there are. */
export const MAX_PREVIEW_DIAGNOSTICS = 100;

/** Hint diagnostics on the ranges `edits` (against `text`) would change, `code` = the preview id. */
export function previewDiagnostics(previewId: string, command: string, text: string, edits: readonly SpanEdit[], encoding: PositionEncoding): Diagnostic[] {
  const shown = [...edits].sort((a, b) => a.start - b.start).slice(0, MAX_PREVIEW_DIAGNOSTICS);
  const textEdits = toTextEdits(text, shown, encoding);
  const out = textEdits.map((te, i): Diagnostic => {
    const e = shown[i]!;
    return {
      range: te.range,
      severity: DiagnosticSeverity.Hint,
      source: 'editls',
      code: previewId,
      message: `preview ${previewId} (${command}): ${describeChange(text.slice(e.start, e.end), e.newText)}; apply or discard it with a code action`,
      data: { previewId },
    };
  });
  const more = edits.length - shown.length;
  const last = out[out.length - 1];
  if (more > 0 && last) last.message += ` (and ${more} more change${more === 1 ? '' : 's'} in this file)`;
  return out;
}

function describeChange(oldText: string, newText: string): string {
  if (oldText === '') return `insert ${quote(newText)}`;
  if (newText === '') return `delete ${quote(oldText)}`;
  return `replace ${quote(oldText)} with ${quote(newText)}`;
}

/** A short one-line rendering: line breaks as ⏎, long texts cut on a code point boundary. */
function quote(s: string): string {
  const oneLine = s.replace(/\r\n|\r|\n/g, '⏎').replace(/\t/g, '→');
  const cps = [...oneLine];
  return JSON.stringify(cps.length > 40 ? cps.slice(0, 39).join('') + '…' : oneLine);
}

/** One code action editls offers: running `command` with `args` (so it is computed and applied like the command itself). */
export interface ActionOffer {
  title: string;
  kind: string;
  command: string;
  args: Record<string, unknown>;
  isPreferred?: boolean;
}

export function toCodeAction(offer: ActionOffer): CodeAction {
  const action: CodeAction = {
    title: offer.title,
    kind: offer.kind,
    command: { title: offer.title, command: offer.command, arguments: [offer.args] },
  };
  if (offer.isPreferred) action.isPreferred = true;
  return action;
}

/**
 * The 1-based, inclusive lines a code action range selects, or undefined for an empty range (a
 * cursor). A selection ending at column 0 does not include that last line. Columns do not matter
 * here, so the position encoding does not either.
 */
export function selectedLines(range: Range): { start: number; end: number } | undefined {
  const { start, end } = range;
  if (start.line === end.line && start.character === end.character) return undefined;
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  return { start: start.line + 1, end: last + 1 };
}
