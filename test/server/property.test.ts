// Property over the real server: for random texts (CRLF, lone CR, BOM, emoji, CJK, combining
// marks) and random edits, the WorkspaceEdit editls returns, applied by a client in utf-8, utf-16
// or utf-32, equals the text editls then writes to disk — endings and BOM preserved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_VSCODE, TestClient, toOffset, type Encoding } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const token = fc.constantFrom('a', 'b', 'x', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '中', '𠀀', 'e\u0301', '👨‍👩‍👧', '$&', '$1');
const text = fc.array(token, { minLength: 1, maxLength: 40 }).map((t) => t.join(''));

let ws: TempWorkspace;
const clients: Record<Encoding, TestClient> = {} as never;

beforeAll(async () => {
  ws = tempWorkspace({});
  clients['utf-8'] = await TestClient.start({ root: ws.root, capabilities: CAPS_HELIX });
  clients['utf-16'] = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE });
  clients['utf-32'] = await TestClient.start({ root: ws.root, capabilities: CAPS_LSPMODE_8, clientName: 'emacs' });
});
afterAll(async () => {
  for (const c of Object.values(clients)) await c.shutdown();
  ws.cleanup();
});

function applyWorkspaceEdit(before: string, edit: any, encoding: Encoding): string {
  const edits = edit.documentChanges.flatMap((c: any) => c.edits ?? []);
  const spans = edits
    .map((e: any) => ({ start: toOffset(before, e.range.start, encoding), end: toOffset(before, e.range.end, encoding), text: e.newText }))
    .sort((a: any, b: any) => b.start - a.start);
  let out = before;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

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
          writeFileSync(ws.file(rel), bytes);
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
          const disk = readFileSync(ws.file(rel));
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
