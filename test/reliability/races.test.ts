// Races: many concurrent commands over 20 files, half open in the editor and half closed, must
// not lose an update; an editor edit arriving between compute and apply must be refused, never
// overwritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, CAPS_HELIX } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

let ws: TempWorkspace;
let client: TestClient;
const FILES = 20;
const PER_FILE = 10;

function body(f: number): string {
  return Array.from({ length: PER_FILE }, (_, i) => `line ${i}: token-${f}-${i} é😀\r\n`).join('');
}

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < FILES; f++) files[`f${f}.txt`] = body(f);
  ws = tempWorkspace(files);
  client = await TestClient.start({ root: ws.root, capabilities: CAPS_HELIX });
  for (let f = 0; f < FILES / 2; f++) await client.open(`f${f}.txt`);
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
});

describe('races', () => {
  it('200 concurrent commands over 20 files (10 open, 10 closed): no lost update', async () => {
    const served = client.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    const jobs: Promise<unknown>[] = [];
    let failed = 0;
    for (let i = 0; i < PER_FILE; i++) {
      for (let f = 0; f < FILES; f++) {
        const rel = `f${f}.txt`;
        const token = `token-${f}-${i}`;
        const kind = (f + i) % 3;
        const job =
          kind === 0
            ? client.exec('editls.edit', { file_path: rel, old_string: token, new_string: token.toUpperCase() })
            : kind === 1 || !served.includes('editls.searchAndReplace')
              ? client.exec('editls.strReplace', { path: rel, replacements: [{ old: `${token} `, new: `${token.toUpperCase()} ` }] })
              : client.exec('editls.searchAndReplace', { path: rel, search: token, replace: token.toUpperCase() });
        jobs.push(job.catch(() => failed++));
      }
    }
    await Promise.all(jobs);
    let lost = 0;
    for (let f = 0; f < FILES; f++) {
      const rel = `f${f}.txt`;
      const text = f < FILES / 2 ? client.bufferText(rel)! : ws.read(rel);
      const expected = body(f).replace(/token-\d+-\d+/g, (t) => t.toUpperCase());
      for (let i = 0; i < PER_FILE; i++) if (!text.includes(`TOKEN-${f}-${i}`)) lost++;
      expect(text).toBe(expected);
      if (f >= FILES / 2) expect(client.bufferText(rel)).toBeUndefined();
      else expect(ws.read(rel)).toBe(body(f)); // open documents are never written to disk
    }
    report('races (200 concurrent commands, 20 files, 10 open + 10 closed)', { commands: jobs.length, failedCommands: failed, lostUpdates: lost });
    expect(failed).toBe(0);
    expect(lost).toBe(0);
  });

  it('an editor edit arriving between compute and apply is refused, not overwritten', async () => {
    const trials = size(50, 10);
    let refused = 0;
    let overwritten = 0;
    for (let t = 0; t < trials; t++) {
      const rel = `race${t}.txt`;
      ws.write(rel, `alpha ${t}\nbeta ${t}\n`);
      await client.open(rel);
      client.applyBehavior = async (params) => {
        client.applyBehavior = 'apply';
        await client.type(rel, `beta ${t}`, `USER ${t}`); // the user's keystroke lands first
        return client.applyStrict(params);
      };
      const outcome = await client.exec('editls.edit', { file_path: rel, old_string: `alpha ${t}`, new_string: `SERVER ${t}` }).then(
        () => 'applied',
        (e) => e?.data?.kind,
      );
      const text = client.bufferText(rel)!;
      if (outcome === 'stale' && text === `alpha ${t}\nUSER ${t}\n`) refused++;
      if (!text.includes(`USER ${t}`)) overwritten++;
      await client.close(rel);
    }
    report('races (editor edit between compute and apply)', { trials, refusedAsStale: refused, userEditOverwritten: overwritten });
    expect(refused).toBe(trials);
    expect(overwritten).toBe(0);
  });
});
