// editls replies as MCP tool results, written for the model: every agent's model reads the same text,
// at most MAX_TEXT characters: a failure's kind first (`not_found: …`), else the one-line summary and
// the unified diff, or the tool's text (numbered lines, search layout, symbol list), then the notes.
// A success also carries `structuredContent` (some agents — Claude Code, Codex — show the model that
// JSON instead of the text): compact and bounded (MAX_STRUCTURED characters), opening with the same
// `text`, then a few fields of editls's result, as the tool's outputSchema (tools.ts) says. How a
// result reads follows the tool's rendering (commands/registry.ts), never its name. A failure is
// isError and carries none, so that those agents show the text itself; for a client that hides a
// failure's text in its own error wrapper (clientHabits.ts), a failure goes as a plain result whose
// text starts with the kind, with `{text, success: false, kind, message}` as its structuredContent
// (a result that is not an error must fit the outputSchema; SDK clients check). A large read pages.
import path from 'node:path';
import { ResponseError, type SymbolInformation } from 'vscode-languageserver/node';
import type { CallOutcome } from './sessions.js';
import type { ClientHabits } from './clientHabits.js';
import type { ToolSpec } from './tools.js';
import type { EditLikeResult, ReadFileResult, SearchFilesResult } from '../commands/results.js';

/** The most characters of text a model reads of one result. */
export const MAX_TEXT = 20_000;
/** The most characters of JSON a result's structuredContent takes (its `text` and the small fields around it). */
export const MAX_STRUCTURED = 32_000;
/** Items of a list kept in structuredContent (files, symbols, failed replacements); the rest are counted. */
const MAX_LIST = 50;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const SYMBOL_KINDS = ['', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter'];

/** `render`: the tool's rendering; `root`: the agent's folder, which symbol paths are shown relative to; `habits`: the client's (clientHabits.ts). */
export function toToolResult(render: ToolSpec['render'], outcome: CallOutcome, root: string, habits: ClientHabits = { failuresAsText: false }): ToolResult {
  const { reply, session } = outcome;
  const notes = [...outcome.notes];
  const sessionInfo = { ...session };
  if (reply instanceof ResponseError) {
    const data = (typeof reply.data === 'object' && reply.data !== null ? reply.data : {}) as Record<string, unknown>;
    const kind = typeof data.kind === 'string' ? data.kind : reply.code === -32602 ? 'invalid_args' : reply.code === -32800 ? 'cancelled' : 'io_error';
    return error(kind, reply.message, notes, habits);
  }
  if (typeof reply === 'object' && reply !== null && (reply as { lost?: unknown }).lost === true) {
    return error('io_error', (reply as { message: string }).message, notes, habits);
  }
  if (render === 'symbols') {
    const all = Array.isArray(reply) ? (reply as SymbolInformation[]) : [];
    const symbols = all.map((s) => ({
      name: s.name,
      kind: SYMBOL_KINDS[s.kind] ?? String(s.kind),
      path: shown(s.location.uri, root),
      line: s.location.range.start.line + 1,
      column: s.location.range.start.character + 1,
      ...(s.containerName ? { container: s.containerName } : {}),
    }));
    const lines = symbols.map((s) => `${s.name}  ${s.kind}  ${s.path}:${s.line}:${s.column}${s.container ? `  (in ${s.container})` : ''}`);
    const text = symbols.length === 0 ? 'No symbols found.' : `${symbols.length} symbol${symbols.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
    return ok(cut(text), notes, { count: symbols.length, symbols, session: sessionInfo });
  }
  // The reply is the command's result as editls sent it (in this process, or from the editor's editls
  // over the attach socket): the result type of the tool's rendering (commands/results.ts).
  const value = (typeof reply === 'object' && reply !== null ? reply : { value: reply }) as { notes?: unknown };
  if (Array.isArray(value.notes)) notes.push(...(value.notes as string[]));
  if (render === 'read') return readResult(value as ReadFileResult, notes, sessionInfo);
  if (render === 'search') return searchResult(value as SearchFilesResult, notes, sessionInfo);
  return editResult(value as EditLikeResult, notes, sessionInfo);
}

/** search_files: its text layout is the text; the matches are not repeated in the fields (the notes are, as in its outputSchema). */
function searchResult(value: SearchFilesResult, notes: string[], session: Record<string, unknown>): ToolResult {
  const { matches: _matches, text: layout, message, ...rest } = value;
  return ok(cut(layout ?? message ?? ''), notes, { ...rest, session });
}

/** An edit: the summary and the diff are the text; the fields are what a program would branch on. */
function editResult(value: EditLikeResult, notes: string[], session: Record<string, unknown>): ToolResult {
  // The TextEdits are for an editor (and an agent's changes written to disk get none: editOmitted).
  const { edit: _edit, editOmitted: _editOmitted, unifiedDiff, files, message, notes: _notes, ...rest } = value;
  const diff = typeof unifiedDiff === 'string' ? unifiedDiff : '';
  const text = (message ?? '') + (diff ? `\n\n${cut(diff).trimEnd()}` : '');
  const structured: Record<string, unknown> = { ...rest, session };
  if (Array.isArray(files)) structured.files = files.map(({ diff: _diff, uri: _uri, ...file }) => file);
  if (diff.length > MAX_TEXT) structured.diffTruncated = true;
  return ok(text, notes, structured);
}

/**
 * read_file pages: the lines that fit MAX_TEXT whole, and a note with the offset that reads on. The
 * command's own limit (2,000 lines, 2,000 characters each) can be 4 MB; a model reads 20,000.
 */
function readResult(value: ReadFileResult, notes: string[], session: Record<string, unknown>): ToolResult {
  const content = value.content ?? '';
  // The numbered lines are the text: not repeated in the fields.
  const { content: _content, uri: _uri, message: _message, ...fields } = value;
  if (value.totalLines === 0) return ok(value.message, notes, { ...fields, session });
  let page = content;
  let endLine = value.endLine;
  if (content.length > MAX_TEXT) {
    const at = content.lastIndexOf('\n', MAX_TEXT);
    page = at > 0 ? content.slice(0, at) : content.slice(0, MAX_TEXT);
    endLine = value.startLine + (at > 0 ? countBreaks(page) : 0);
    notes.push(`showing lines ${value.startLine}-${endLine} of ${value.totalLines} in ${value.path} (${MAX_TEXT} characters at most per read); read on with offset ${endLine + 1}`);
  } else if (value.more || value.truncatedLines > 0) notes.push(value.message);
  const more = endLine < value.totalLines;
  return ok(page, notes, { ...fields, endLine, more, ...(more ? { nextOffset: endLine + 1 } : {}), session });
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** A file URI as the agent names files: relative to its folder when inside it. */
function shown(uri: string, root: string): string {
  if (!uri.startsWith('file://')) return uri;
  const abs = decodeURIComponent(uri.slice('file://'.length));
  const rel = path.relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
}

function withNotes(text: string, notes: string[]): string {
  return notes.length === 0 ? text : `${text}\n\n${notes.map((n) => `note: ${n}`).join('\n')}`;
}

function ok(text: string, notes: string[], fields: Record<string, unknown>): ToolResult {
  const full = withNotes(text, notes);
  const { label: _label, ...session } = (fields.session ?? {}) as Record<string, unknown>;
  return { content: [{ type: 'text', text: full }], structuredContent: bounded({ text: full, ...fields, session }) };
}

/** A failure: its text only, kind first (see the header); isError unless the client hides a failure's text. */
function error(kind: string, message: string, notes: string[], habits: ClientHabits): ToolResult {
  const full = withNotes(`${kind}: ${message}`, notes);
  if (!habits.failuresAsText) return { content: [{ type: 'text', text: full }], isError: true };
  return { content: [{ type: 'text', text: full }], structuredContent: bounded({ text: full, success: false, kind, message }) };
}

/**
 * structuredContent within MAX_STRUCTURED characters of JSON: long lists keep their first MAX_LIST
 * items (and say how many there were), long strings are cut, and what still does not fit goes,
 * largest field first, named in `omitted`. `text`, `success`, `kind` and `message` always stay.
 */
export function bounded(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length > MAX_LIST) {
      out[key] = v.slice(0, MAX_LIST);
      out[`${key}Omitted`] = v.length - MAX_LIST;
    } else if (typeof v === 'string' && v.length > MAX_TEXT) out[key] = cut(v);
    else out[key] = v;
  }
  const keep = new Set(['text', 'success', 'kind', 'message', 'session']);
  let size = JSON.stringify(out).length;
  const omitted: string[] = [];
  while (size > MAX_STRUCTURED) {
    const [largest] = Object.keys(out)
      .filter((k) => !keep.has(k))
      .map((k) => [k, JSON.stringify(out[k])?.length ?? 0] as const)
      .sort((a, b) => b[1] - a[1]);
    if (!largest) {
      // Only the kept fields are left: the text (already at most MAX_TEXT) is cut shorter.
      out.text = String(out.text).slice(0, MAX_STRUCTURED / 4);
      out.message = typeof out.message === 'string' ? out.message.slice(0, MAX_STRUCTURED / 4) : out.message;
      break;
    }
    delete out[largest[0]];
    omitted.push(largest[0]);
    size = JSON.stringify({ ...out, omitted }).length;
  }
  if (omitted.length > 0) out.omitted = omitted;
  return out;
}

/** Text within MAX_TEXT characters, cut at a line break with a notice. */
export function cut(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const at = text.lastIndexOf('\n', MAX_TEXT);
  return `${text.slice(0, at > 0 ? at : MAX_TEXT)}\n… cut at ${MAX_TEXT} characters (${text.length} in all)`;
}
