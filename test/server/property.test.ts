// Property over the real server: for random texts (CRLF, lone CR, BOM, emoji, CJK, combining
// marks) and random edits, the WorkspaceEdit editls returns, applied by a client in utf-8, utf-16
// or utf-32, equals the text editls then writes to disk — endings and BOM preserved.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { applyWorkspaceEdit, toOffset } from '../helpers/lspClient.js';
import { clientsPerEncoding } from '../helpers/serverFixture.js';

const token = fc.constantFrom('a', 'b', 'x', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '中', '𠀀', 'e\u0301', '👨‍👩‍👧', '$&', '$1');
const text = fc.array(token, { minLength: 1, maxLength: 40 }).map((t) => t.join(''));

const { clients, workspace } = clientsPerEncoding();


describe('property: WorkspaceEdit applied by the client == text written to disk', () => {
  for (const encoding of ['utf-8', 'utf-16', 'utf-32'] as const) {
    it(`editls.edit and editls.strReplace in a ${encoding} session`, async () => {
      const client = clients[encoding];
      let run = 0;
      let executed = 0;
      await fc.assert(
        fc.asyncProperty(text, fc.boolean(), fc.nat(), fc.nat(8), text, fc.boolean(), async (body, bom, startSeed, lenSeed, replacement, useStrReplace) => {
          const rel = `p-${encoding}-${run++}.txt`;
          const bytes = Buffer.from((bom ? '\uFEFF' : '') + body, 'utf8');
          writeFileSync(workspace().file(rel), bytes);
          // pick an old_string: a slice of the normalised text that occurs exactly once
          const norm = body.replace(/\r\n?/g, '\n');
          const chars = [...norm];
          const start = startSeed % chars.length;
          const old = chars.slice(start, start + 1 + lenSeed).join('');
          const once = norm.indexOf(old) >= 0 && norm.indexOf(old) === norm.lastIndexOf(old);
          const newNorm = replacement.replace(/\r\n?/g, '\n');
          if (!once || old.trim() === '' || old === newNorm) return;
          executed++;
          const command = useStrReplace ? 'editls.strReplace' : 'editls.edit';
          const args = useStrReplace
            ? { path: rel, replacements: [{ old, new: replacement }] }
            : { file_path: rel, old_string: old, new_string: replacement };
          const preview = await client.exec(command, { ...args, apply: 'preview' });
          const viaClient = applyWorkspaceEdit(body, preview.edit, encoding);
          await client.exec(command, args);
          const disk = readFileSync(workspace().file(rel));
          expect(disk.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(bom);
          const diskText = disk.toString('utf8').replace(/^\uFEFF/, '');
          expect(diskText).toBe(viaClient);
          // the edit means what was asked: normalised after-text == normalised before with old -> new
          if (preview.matchedBy === undefined || preview.matchedBy === 'exact') {
            expect(diskText.replace(/\r\n?/g, '\n')).toBe(norm.replace(old, () => newNorm));
          }
          // untouched line endings survive: every CRLF outside the edited region is still there
          const firstChange = Math.min(...preview.edit.documentChanges[0].edits.map((e: any) => toOffset(body, e.range.start, encoding)));
          expect(diskText.slice(0, firstChange)).toBe(body.slice(0, firstChange));
        }),
        { numRuns: 150, seed: 20261130 },
      );
      // guard against a generator that silently skips everything
      expect(executed).toBeGreaterThan(40);
    });
  }
});
