// ripgrep's `--heading --null --line-number` output read as byte chunks (workspace/search/rgHeading.ts):
// real ripgrep runs on temp folders, re-fed cut at every byte, give the same files and lines as one
// piece: CRLF, BOM, UTF-8 (also cut inside a character), non-ASCII paths, a last line without
// `\n`, lines past `--max-columns`.
import { afterAll, describe, expect, it } from 'vitest';
import { HeadingReader } from '../../server/workspace/search/rgHeading.js';
import { runRipgrep } from '../../server/workspace/search/ripgrep.js';
import { indexFlags } from '../../server/workspace/symbols/symbolIndex.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

/** Every `file`/`line` call as text, in order. */
function parse(chunks: readonly Buffer[], skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const reader = new HeadingReader({
    file: (p) => {
      out.push(`file ${p}`);
      return !skip(p);
    },
    line: (n, s, from, to) => void out.push(`${n}: ${JSON.stringify(s.slice(from, to))}`),
  });
  for (const c of chunks) reader.push(c);
  reader.end();
  return out;
}

/** The output cut into pieces of `size` bytes (and the single pieces around every position for small outputs). */
function cuts(bytes: Buffer): Buffer[][] {
  const out: Buffer[][] = [];
  for (const size of [1, 2, 3, 7, 64, 4096]) {
    const pieces: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
    out.push(pieces);
  }
  if (bytes.length <= 2000) for (let at = 1; at < bytes.length; at++) out.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return out;
}

async function ripgrepOutput(w: TempWorkspace, regex: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await runRipgrep({
    args: [...indexFlags(10 * 1024 * 1024), '--sort', 'path', '-e', regex, '--', w.root],
    cwd: w.root,
    onChunk: (chunk) => {
      chunks.push(Buffer.from(chunk));
      return 'continue';
    },
  });
  return Buffer.concat(chunks);
}

describe('HeadingReader on real ripgrep output', () => {
  it('gives the same files and lines however the output is cut (CRLF, BOM, UTF-8, emoji, CJK, non-ASCII paths)', async () => {
    const w = tempWorkspace(
      {
        'a.ts': 'export function plain() {}\nconst x = 1;\nexport class Été {}\n',
        'crlf.ts': 'export function one() {}\r\n\r\nexport function two() {}\r\n',
        'bom.ts': '\uFEFFexport function afterBom() {}\n',
        'wide.ts': 'export function 日本語() {} // 😀 astral\nexport const e = "é\tx";\n',
        'dossier-é/ü.ts': 'export function inAccentedFolder() {}\n',
        'no-newline.ts': 'export function last() {}',
      },
      'editls-rgh-',
    );
    workspaces.push(w);
    const bytes = await ripgrepOutput(w, '^export ');
    const whole = parse([bytes]);
    expect(whole).toEqual([
      `file ${w.file('a.ts')}`,
      '1: "export function plain() {}"',
      '3: "export class Été {}"',
      `file ${w.file('bom.ts')}`,
      '1: "export function afterBom() {}"',
      `file ${w.file('crlf.ts')}`,
      '1: "export function one() {}"',
      '3: "export function two() {}"',
      `file ${w.file('dossier-é/ü.ts')}`,
      '1: "export function inAccentedFolder() {}"',
      `file ${w.file('no-newline.ts')}`,
      '1: "export function last() {}"',
      `file ${w.file('wide.ts')}`,
      '1: "export function 日本語() {} // 😀 astral"',
      '2: "export const e = \\"é\\tx\\";"',
    ]);
    for (const pieces of cuts(bytes)) expect(parse(pieces)).toEqual(whole);
  });

  it('hands over ripgrep\'s notice for a line past --max-columns, and skips the lines of refused files', async () => {
    const w = tempWorkspace({ 'a.ts': `export const long = "${'x'.repeat(2000)}";\nexport function short() {}\n`, 'b.ts': 'export function skipped() {}\n' }, 'editls-rgh-');
    workspaces.push(w);
    const bytes = await ripgrepOutput(w, '^export ');
    const got = parse([bytes], (p) => p.endsWith('b.ts'));
    expect(got).toEqual([`file ${w.file('a.ts')}`, '1: "[Omitted long matching line]"', '2: "export function short() {}"', `file ${w.file('b.ts')}`]);
  });
});

describe('HeadingReader on hand-made output', () => {
  const enc = (s: string) => Buffer.from(s, 'utf8');

  it('decodes UTF-8 only where a line needs it, also when a character is cut between chunks', () => {
    const text = '/w/a.ts\u00001:ascii only\n2:caf\u00e9 \ud83d\ude00\n3:back to ascii\n\n/w/\u00e9.ts\u00007:x\n';
    const bytes = enc(text);
    const want = ['file /w/a.ts', '1: "ascii only"', '2: "café 😀"', '3: "back to ascii"', 'file /w/é.ts', '7: "x"'];
    for (const pieces of cuts(bytes)) expect(parse(pieces)).toEqual(want);
  });

  it('takes a last line without a line break, and an empty output', () => {
    expect(parse([enc('/w/a.ts\u000012:tail')])).toEqual(['file /w/a.ts', '12: "tail"']);
    expect(parse([])).toEqual([]);
    expect(parse([enc('')])).toEqual([]);
  });

  it('takes a long path and a thousand lines in one chunk', () => {
    const long = `/w/${'d/'.repeat(50)}f.ts`;
    const bytes = enc(`${long}\u00001:x\n${'9:y\n'.repeat(1000)}`);
    const got = parse([bytes]);
    expect(got[0]).toBe(`file ${long}`);
    expect(got.length).toBe(1002);
  });
});
