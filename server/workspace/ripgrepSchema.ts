// The zod schema of ripgrep's `--json` messages (crates/printer/src/json.rs): begin, match, context,
// end and summary, with paths and lines as `{text}` (valid UTF-8) or `{bytes}` (base64) and
// submatch offsets in bytes. Anything else on the stream is reported, never guessed at.
import { z } from 'zod';

/** ripgrep's "arbitrary data": UTF-8 text, or base64 bytes when the data is not valid UTF-8. */
const data = z.union([z.object({ text: z.string() }), z.object({ bytes: z.string() })]);
export type RgData = z.infer<typeof data>;

const submatch = z.object({
  match: data,
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});

const lineData = z.object({
  path: data,
  lines: data,
  line_number: z.number().int().positive().nullable(),
  absolute_offset: z.number().int().nonnegative(),
  submatches: z.array(submatch),
});

export const rgMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('begin'), data: z.object({ path: data.nullable() }) }),
  z.object({ type: z.literal('match'), data: lineData }),
  z.object({ type: z.literal('context'), data: lineData }),
  z.object({
    type: z.literal('end'),
    data: z.object({ path: data.nullable(), binary_offset: z.number().int().nonnegative().nullable() }),
  }),
  z.object({ type: z.literal('summary'), data: z.object({}) }),
]);

export type RgMessage = z.infer<typeof rgMessage>;
export type RgLineData = z.infer<typeof lineData>;

/** The data as a string (bytes decoded with replacement characters). */
export function dataText(d: RgData): string {
  return 'text' in d ? d.text : Buffer.from(d.bytes, 'base64').toString('utf8');
}

/** The raw bytes of the data. */
export function dataBytes(d: RgData): Uint8Array {
  return 'text' in d ? Buffer.from(d.text, 'utf8') : Buffer.from(d.bytes, 'base64');
}
