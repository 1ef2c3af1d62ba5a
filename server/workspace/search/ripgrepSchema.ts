// ripgrep's `--json` messages (crates/printer/src/json.rs) and their reader: begin, match, context,
// end and summary, with paths and lines as `{text}` (valid UTF-8) or `{bytes}` (base64) and
// submatch offsets in bytes. Anything else on the stream is reported, never guessed at.
/** ripgrep's "arbitrary data": UTF-8 text, or base64 bytes when the data is not valid UTF-8. */
export type RgData = { text: string } | { bytes: string };

export interface RgSubmatch {
  match: RgData;
  /** Byte offsets in the line. */
  start: number;
  end: number;
}

export interface RgLineData {
  path: RgData;
  lines: RgData;
  line_number: number | null;
  absolute_offset: number;
  submatches: RgSubmatch[];
}

export type RgMessage =
  | { type: 'begin'; data: { path: RgData | null } }
  | { type: 'match'; data: RgLineData }
  | { type: 'context'; data: RgLineData }
  | { type: 'end'; data: { path: RgData | null; binary_offset: number | null } }
  | { type: 'summary'; data: object };

/**
 * One output line as a message, or undefined when it is not JSON or not of the shapes above (a plain
 * check of each field: a search prints hundreds of these, and a schema library's check cost as much as
 * the JSON parse). Fields ripgrep adds beyond these (`stats`, `elapsed`) are left in place, unread.
 */
export function parseRgMessage(line: string): RgMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(json) || !isObject(json['data'])) return undefined;
  const d = json['data'];
  switch (json['type']) {
    case 'match':
    case 'context':
      return isLineData(d) ? (json as RgMessage) : undefined;
    case 'begin':
      return isDataOrNull(d['path']) ? (json as RgMessage) : undefined;
    case 'end':
      return isDataOrNull(d['path']) && (d['binary_offset'] === null || isCount(d['binary_offset'])) ? (json as RgMessage) : undefined;
    case 'summary':
      return json as RgMessage;
    default:
      return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-negative integer (byte offsets and counts). */
function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function isData(v: unknown): v is RgData {
  return isObject(v) && (typeof v['text'] === 'string' || typeof v['bytes'] === 'string');
}

function isDataOrNull(v: unknown): boolean {
  return v === null || isData(v);
}

function isLineData(d: Record<string, unknown>): boolean {
  const n = d['line_number'];
  if (!isData(d['path']) || !isData(d['lines']) || !isCount(d['absolute_offset'])) return false;
  if (n !== null && !(isCount(n) && n > 0)) return false;
  const subs = d['submatches'];
  if (!Array.isArray(subs)) return false;
  for (const s of subs) {
    if (!isObject(s) || !isData(s['match']) || !isCount(s['start']) || !isCount(s['end'])) return false;
  }
  return true;
}


/** The raw bytes of the data. */
export function dataBytes(d: RgData): Uint8Array {
  return 'text' in d ? Buffer.from(d.text, 'utf8') : Buffer.from(d.bytes, 'base64');
}
