// editls replies as MCP tool results: `content` is the one-line summary plus the unified diff (cut
// at MAX_TEXT characters) or the tool's text (numbered lines, search layout, symbol list);
// `structuredContent` is editls's result object (without the LSP WorkspaceEdit); a failure is
// `isError: true` with text starting with its kind (`not_found: …`), never a protocol error.
import { ResponseError } from 'vscode-languageserver/node';
import type { CallOutcome } from './sessions.js';

export const MAX_TEXT = 20_000;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const SYMBOL_KINDS = ['', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter'];

export function toToolResult(toolName: string, outcome: CallOutcome): ToolResult {
  const { reply, session } = outcome;
  const notes = [...outcome.notes];
  const sessionInfo = { ...session };
  if (reply instanceof ResponseError) {
    const data = (typeof reply.data === 'object' && reply.data !== null ? reply.data : {}) as Record<string, unknown>;
    const kind = typeof data.kind === 'string' ? data.kind : reply.code === -32602 ? 'invalid_args' : reply.code === -32800 ? 'cancelled' : 'io_error';
    return error(kind, reply.message, notes, { ...data, kind, session: sessionInfo });
  }
  if (typeof reply === 'object' && reply !== null && (reply as { lost?: unknown }).lost === true) {
    return error('io_error', (reply as { message: string }).message, notes, { kind: 'io_error', session: sessionInfo });
  }
  if (toolName === 'workspace_symbols') {
    const symbols = Array.isArray(reply) ? (reply as SymbolInfo[]) : [];
    const lines = symbols.map((s) => `${s.name}  ${SYMBOL_KINDS[s.kind] ?? s.kind}  ${relative(s.location.uri)}:${s.location.range.start.line + 1}:${s.location.range.start.character + 1}${s.containerName ? `  (in ${s.containerName})` : ''}`);
    const text = symbols.length === 0 ? 'No symbols found.' : `${symbols.length} symbol${symbols.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
    return ok(cut(text), notes, { symbols, session: sessionInfo });
  }
  const value = (typeof reply === 'object' && reply !== null ? reply : { value: reply }) as Record<string, unknown>;
  const structured: Record<string, unknown> = { ...value, session: sessionInfo };
  delete structured.edit;
  if (Array.isArray(value.files)) structured.files = (value.files as Record<string, unknown>[]).map(({ diff: _diff, ...rest }) => rest);
  if (Array.isArray(value.notes)) notes.push(...(value.notes as string[]));
  let text: string;
  if (toolName === 'read_file') {
    text = value.totalLines === 0 ? String(value.message) : cut(String(value.content ?? ''));
    if (value.more === true || (value.truncatedLines as number) > 0) notes.push(String(value.message));
  } else if (toolName === 'search_files') {
    text = cut(String(value.text ?? value.message ?? ''));
  } else {
    const diff = typeof value.unifiedDiff === 'string' ? value.unifiedDiff : '';
    if (diff.length > MAX_TEXT) {
      structured.unifiedDiff = cut(diff);
      structured.diffTruncated = true;
    }
    text = String(value.message ?? '') + (diff ? `\n\n${cut(diff).trimEnd()}` : '');
  }
  return ok(text, notes, structured);
}

interface SymbolInfo {
  name: string;
  kind: number;
  containerName?: string;
  location: { uri: string; range: { start: { line: number; character: number } } };
}

function relative(uri: string): string {
  return uri.startsWith('file://') ? decodeURIComponent(uri.slice('file://'.length)) : uri;
}

function withNotes(text: string, notes: string[]): string {
  return notes.length === 0 ? text : `${text}\n\n${notes.map((n) => `note: ${n}`).join('\n')}`;
}

function ok(text: string, notes: string[], structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: withNotes(text, notes) }], structuredContent: structured };
}

function error(kind: string, message: string, notes: string[], structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: withNotes(`${kind}: ${message}`, notes) }], structuredContent: { success: false, message, ...structured }, isError: true };
}

/** Text within MAX_TEXT characters, cut at a line break with a notice. */
export function cut(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const at = text.lastIndexOf('\n', MAX_TEXT);
  return `${text.slice(0, at > 0 ? at : MAX_TEXT)}\n… cut at ${MAX_TEXT} characters (${text.length} in all); read_file shows the file`;
}
