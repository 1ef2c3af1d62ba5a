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
      message: `preview ${previewId} (${command}): ${describeChange(text, e)}; apply or discard it with a code action`,
      data: { previewId },
    };
  });
  const more = edits.length - shown.length;
  const last = out[out.length - 1];
  if (more > 0 && last) last.message += ` (and ${more} more change${more === 1 ? '' : 's'} in this file)`;
  return out;
}

/**
 * What an edit does, in words a reader recognises: the minimal span widened to whole words (Hello ->
 * Hey, not "llo" -> "y"), or to the whole line when the change touches no word (spaces, punctuation);
 * a change that adds or removes line breaks is shown as it is.
 */
export function describeChange(text: string, edit: SpanEdit): string {
  let start = edit.start;
  let end = edit.end;
  const oldSpan = text.slice(edit.start, edit.end);
  const changed = [oldSpan, edit.newText].filter((t) => t !== '');
  // Lines added or removed read best as they are; a word is widened on a side where the change is glued to it.
  if (/[\r\n]/.test(oldSpan + edit.newText)) return describeSpan(oldSpan, edit.newText);
  if (changed.some((t) => isWordUnit(t, 0))) {
    while (start > 0 && edit.start - start < WIDEN_LIMIT && isWordUnit(text, start - 1)) start--;
  }
  if (changed.some((t) => isWordUnit(t, t.length - 1))) {
    while (end < text.length && end - edit.end < WIDEN_LIMIT && isWordUnit(text, end)) end++;
  }
  if (!WORD.test(text.slice(start, end)) && !WORD.test(edit.newText)) {
    // Nothing word-like changed: show the changed line(s) instead.
    start = text.lastIndexOf('\n', edit.start - 1) + 1;
    const nl = text.indexOf('\n', edit.end);
    end = nl < 0 ? text.length : nl;
    if (end > edit.end && text[end - 1] === '\r') end--;
  }
  return describeSpan(text.slice(start, end), text.slice(start, edit.start) + edit.newText + text.slice(edit.end, end));
}

function describeSpan(oldText: string, newText: string): string {
  if (oldText === '') return `insert ${quote(newText)}`;
  if (newText === '') return `delete ${quote(oldText)}`;
  return `replace ${quote(oldText)} with ${quote(newText)}`;
}

const WORD = /[\p{L}\p{N}_]/u;
/** How far a span is widened to each side (a hint is cut at 40 characters anyway). */
const WIDEN_LIMIT = 40;

/** Whether the UTF-16 unit at `i` belongs to a word character (both halves of a surrogate pair count as their code point). */
function isWordUnit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return WORD.test(String.fromCodePoint(text.codePointAt(i - 1)!));
  return WORD.test(String.fromCodePoint(text.codePointAt(i)!));
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
