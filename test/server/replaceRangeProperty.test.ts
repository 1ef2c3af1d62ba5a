// Property over the real server: for random texts (CRLF, lone CR, BOM, emoji, ZWJ, astral CJK) and
// random valid ranges, the WorkspaceEdit editls.replaceRange and editls.searchAndReplace return in a
// preview, applied by a client in utf-8, utf-16 or utf-32, reproduces what they report (ranges, the
// meaning on the \n view) and what they then write to disk.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { applyWorkspaceEdit } from '../helpers/lspClient.js';
import { clientsPerEncoding } from '../helpers/serverFixture.js';

const token = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '中', '𠀀', '👨‍👩‍👧', 'e\u0301');
const bodyArb = fc.array(token, { minLength: 1, maxLength: 30 }).map((t) => t.join(''));
const patternArb = fc.constantFrom('a', 'b+', '(a)(\\s)', '^\\S', '\\S$', '😀|中', '\\n', '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])');
const replacementArb = fc.array(fc.constantFrom('x', '\n', '\r\n', '😀', '$&', '$1', ''), { maxLength: 3 }).map((t) => t.join(''));

const { clients, workspace } = clientsPerEncoding();


/** 1-based line and UTF-16 column of `offset` in a BOM-less text. */
function lineCol(text: string, offset: number): [number, number] {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  return [line, offset - start + 1];
}

/** Offsets where a range may start or end: not inside a CRLF or a surrogate pair. */
function boundaries(text: string): number[] {
  const out: number[] = [];
  for (let o = 0; o <= text.length; o++) {
    const crlf = text.charCodeAt(o - 1) === 13 && text.charCodeAt(o) === 10;
    const pair = /[\uD800-\uDBFF]/.test(text.charAt(o - 1)) && /[\uDC00-\uDFFF]/.test(text.charAt(o));
    if (!crlf && !pair) out.push(o);
  }
  return out;
}

function diskText(rel: string, bom: boolean): string {
  const disk = readFileSync(workspace().file(rel));
  expect(disk.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(bom);
  return disk.toString('utf8').replace(/^\uFEFF/, '');
}

describe('property: the WorkspaceEdit reproduces the reported result in every encoding', () => {
  for (const encoding of ['utf-8', 'utf-16', 'utf-32'] as const) {
    it(`editls.replaceRange in a ${encoding} session`, async () => {
      const client = clients[encoding];
      let run = 0;
      let executed = 0;
      await fc.assert(
        fc.asyncProperty(bodyArb, fc.boolean(), fc.nat(), fc.nat(), replacementArb, async (body, bom, a, b, replacement) => {
          const valid = boundaries(body);
          const s = valid[a % valid.length]!;
          const e = valid[b % valid.length]!;
          if (s >= e) return;
          executed++;
          const rel = `rr-${encoding}-${run++}.txt`;
          writeFileSync(workspace().file(rel), (bom ? '\uFEFF' : '') + body);
          const [startLine, startColumn] = lineCol(body, s);
          const [endLine, endColumn] = lineCol(body, e);
          const args = { filePath: rel, startLine, startColumn, endLine, endColumn, expectedText: body.slice(s, e), replacementText: replacement };
          const n = (t: string) => t.replace(/\r\n?/g, '\n');
          const preview = await client.exec('editls.replaceRange', { ...args, applyChanges: false });
          const viaClient = applyWorkspaceEdit(body, preview.edit, encoding);
          // What it reports: the range's text replaced, new breaks in the dominant ending, everything around it untouched.
          expect(n(viaClient)).toBe(n(body.slice(0, s)) + n(replacement) + n(body.slice(e)));
          expect(viaClient.slice(0, s)).toBe(body.slice(0, s));
          expect(viaClient.endsWith(body.slice(e))).toBe(true);
          expect(preview.oldRange).toEqual({ startLine, startColumn, endLine, endColumn });
          const [nsl, nsc] = lineCol(viaClient, s);
          const [nel, nec] = lineCol(viaClient, viaClient.length - (body.length - e));
          expect(preview.newRange).toEqual({ startLine: nsl, startColumn: nsc, endLine: nel, endColumn: nec });
          const applied = await client.exec('editls.replaceRange', args);
          expect(applied.wouldChange).toBe(viaClient !== body);
          expect(diskText(rel, bom)).toBe(viaClient);
        }),
        { numRuns: 60, seed: 20261201 },
      );
      expect(executed).toBeGreaterThan(20);
    });

    it(`editls.searchAndReplace with line ranges in a ${encoding} session`, async () => {
      const client = clients[encoding];
      let run = 0;
      let executed = 0;
      await fc.assert(
        fc.asyncProperty(bodyArb, fc.boolean(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), patternArb, replacementArb, async (body, bom, start, end, pattern, replacement) => {
          const norm = body.replace(/\r\n?/g, '\n');
          const lines = norm.split('\n');
          if (norm.endsWith('\n')) lines.pop();
          if (start > end || start > lines.length) return;
          executed++;
          const rel = `sar-${encoding}-${run++}.txt`;
          writeFileSync(workspace().file(rel), (bom ? '\uFEFF' : '') + body);
          const args = { path: rel, search: pattern, replace: replacement, use_regex: true, start_line: start, end_line: end };
          // What it means: String.replace on the scope of the normalised text.
          const from = lines.slice(0, start - 1).reduce((n, l) => n + l.length + 1, 0);
          const to = from + lines.slice(start - 1, Math.min(end, lines.length)).join('\n').length;
          const scope = norm.slice(from, to).replace(new RegExp(pattern, 'g'), replacement.replace(/\r\n?/g, '\n'));
          if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(scope)) {
            // Without the u flag a pattern can match half an emoji: refused rather than corrupting the file.
            expect((await client.execError('editls.searchAndReplace', args)).data.kind).toBe('invalid_regex');
            return;
          }
          const preview = await client.exec('editls.searchAndReplace', { ...args, apply: 'preview' });
          const viaClient = applyWorkspaceEdit(body, preview.edit, encoding);
          expect(viaClient.replace(/\r\n?/g, '\n')).toBe(norm.slice(0, from) + scope + norm.slice(to));
          await client.exec('editls.searchAndReplace', args);
          expect(diskText(rel, bom)).toBe(viaClient);
        }),
        { numRuns: 60, seed: 424243 },
      );
      expect(executed).toBeGreaterThan(20);
    });
  }
});
