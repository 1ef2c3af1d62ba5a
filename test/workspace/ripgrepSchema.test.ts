// parseRgMessage against ripgrep's real `--json` output (text, bytes, binary, context, CRLF, BOM, emoji)
// and against a zod statement of the message shapes (the reader the server used before, kept here as
// the oracle): every real line and every mutation of one is accepted or refused alike.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { z } from 'zod';
import { ripgrepPath } from '../../server/workspace/search/ripgrep.js';
import { parseRgMessage } from '../../server/workspace/search/ripgrepSchema.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const data = z.union([z.object({ text: z.string() }), z.object({ bytes: z.string() })]);
const count = z.number().int().nonnegative();
const lineData = z.object({
  path: data,
  lines: data,
  line_number: z.number().int().positive().nullable(),
  absolute_offset: count,
  submatches: z.array(z.object({ match: data, start: count, end: count })),
});
const oracle = z.discriminatedUnion('type', [
  z.object({ type: z.literal('begin'), data: z.object({ path: data.nullable() }) }),
  z.object({ type: z.literal('match'), data: lineData }),
  z.object({ type: z.literal('context'), data: lineData }),
  z.object({ type: z.literal('end'), data: z.object({ path: data.nullable(), binary_offset: count.nullable() }) }),
  z.object({ type: z.literal('summary'), data: z.object({}) }),
]);

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

async function realLines(): Promise<string[]> {
  const w = tempWorkspace(
    {
      'crlf.txt': 'one\r\nneedle two\r\nthree\r\n',
      'bom.ts': '\uFEFFneedle first\nsecond\n',
      'emoji.txt': 'a 😀 needle 漢字\nno newline at the end needle',
      'latin1.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a, 0x78, 0x0a]),
      'binary.bin': Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(64), Buffer.from('needle\n')]),
      'tabs.py': '\tneedle\tneedle\n\t\tdef f(): pass\n',
    },
    'editls-rgjson-',
  );
  workspaces.push(w);
  const out = execFileSync(await ripgrepPath(), ['--json', '--no-config', '--binary', '--context', '1', '-e', 'needle', '--', '.'], { cwd: w.root, encoding: 'utf8' });
  return out.split('\n').filter((l) => l !== '');
}

/** Every way of breaking one field of a message: removed, null, of another type, negative, fractional. */
function mutations(message: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, set: (v: unknown) => void, remove: () => void) => {
    for (const bad of [undefined, null, 'x', -1, 1.5, 0, true, [], {}]) {
      set(bad);
      out.push(structuredClone(message));
    }
    remove();
    out.push(structuredClone(message));
    set(value);
    if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        walk(
          v,
          (x) => ((value as Record<string, unknown>)[key] = x),
          () => delete (value as Record<string, unknown>)[key],
        );
        (value as Record<string, unknown>)[key] = v;
      }
    }
  };
  for (const key of Object.keys(message)) {
    const v = message[key];
    walk(
      v,
      (x) => (message[key] = x),
      () => delete message[key],
    );
    message[key] = v;
  }
  return out;
}

describe('parseRgMessage', () => {
  it('reads every line ripgrep prints, with the fields the oracle reads', async () => {
    const lines = await realLines();
    const types = new Set<string>();
    let bytes = 0;
    for (const line of lines) {
      const parsed = parseRgMessage(line);
      const expected = oracle.safeParse(JSON.parse(line));
      expect(expected.success, line).toBe(true);
      expect(parsed, line).toBeDefined();
      // The oracle strips fields it does not know; what it keeps must be there, equal.
      expect(parsed).toMatchObject(expected.data as object);
      types.add(parsed!.type);
      if (parsed!.type === 'match' && 'bytes' in parsed!.data.lines) bytes++;
    }
    expect([...types].sort()).toEqual(['begin', 'context', 'end', 'match', 'summary']);
    expect(bytes).toBeGreaterThan(0);
  });

  it('refuses what the oracle refuses, field by field', async () => {
    let refused = 0;
    let checked = 0;
    for (const line of await realLines()) {
      for (const m of mutations(JSON.parse(line) as Record<string, unknown>)) {
        const text = JSON.stringify(m);
        if (text === undefined) continue;
        const expected = oracle.safeParse(m).success;
        expect(parseRgMessage(text) !== undefined, text).toBe(expected);
        checked++;
        if (!expected) refused++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(300);
  });

  it.each([
    ['not JSON', '{"type":"match",'],
    ['an array', '[1,2]'],
    ['a string', '"match"'],
    ['null', 'null'],
    ['an unknown type', '{"type":"stats","data":{}}'],
    ['no data', '{"type":"summary"}'],
    ['data as an array', '{"type":"summary","data":[]}'],
    ['line_number 0', '{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x\\n"},"line_number":0,"absolute_offset":0,"submatches":[]}}'],
    ['a fractional offset', '{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x\\n"},"line_number":1,"absolute_offset":0.5,"submatches":[]}}'],
    ['a submatch without end', '{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"x"},"start":0}]}}'],
    ['bytes as a number', '{"type":"begin","data":{"path":{"bytes":5}}}'],
  ])('refuses %s', (_, line) => {
    expect(parseRgMessage(line)).toBeUndefined();
  });

  it('takes a null path and line number, and a path given as bytes', () => {
    expect(parseRgMessage('{"type":"begin","data":{"path":null}}')).toEqual({ type: 'begin', data: { path: null } });
    expect(parseRgMessage('{"type":"end","data":{"path":{"bytes":"/w=="},"binary_offset":12,"stats":{}}}')?.type).toBe('end');
    const m = parseRgMessage('{"type":"context","data":{"path":{"text":"-"},"lines":{"bytes":"/wo="},"line_number":null,"absolute_offset":3,"submatches":[]}}');
    expect(m?.type === 'context' && m.data.line_number).toBe(null);
  });
});
