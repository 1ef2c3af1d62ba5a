// Catastrophic regexes: each must end in `regex_timeout` within 2.5 s (regexTimeoutMs 2000) while
// another request, sent during the runaway match, is answered promptly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const ALL_PATTERNS: [string, string][] = [
  ['(a+)+$', 'a'.repeat(40) + '!'],
  ['(a|aa)+$', 'a'.repeat(60) + '!'],
  ['(x+x+)+y', 'x'.repeat(40)],
  ['^(\\w+\\s?)*$', 'word '.repeat(12) + 'word!'],
  ['(a*)*b', 'a'.repeat(40)],
  ['^(a|a)+$', 'a'.repeat(40) + '!'],
  ['(\\d+)*\\.', '1'.repeat(40) + 'x'],
];
const PATTERNS = ALL_PATTERNS.slice(0, size(ALL_PATTERNS.length, 2));

let ws: TempWorkspace;
let client: TestClient;
beforeAll(async () => {
  const files: Record<string, string> = { 'other.txt': 'ping 0\n' };
  PATTERNS.forEach(([, input], i) => (files[`evil${i}.txt`] = `${input}\n`));
  ws = tempWorkspace(files);
  client = await TestClient.start({ root: ws.root });
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
});

describe('catastrophic regexes', () => {
  it('time out with regex_timeout while the server keeps answering', async () => {
    const served = client.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    if (!served.includes('editls.searchAndReplace')) return;
    let timedOut = 0;
    let slowest = 0;
    let slowestOther = 0;
    for (const [i, [pattern]] of PATTERNS.entries()) {
      const t0 = performance.now();
      const evil = client.execError('editls.searchAndReplace', { path: `evil${i}.txt`, search: pattern, replace: 'x', use_regex: true });
      await new Promise((r) => setTimeout(r, 100));
      const t1 = performance.now();
      await client.exec('editls.edit', { file_path: 'other.txt', old_string: `ping ${i}`, new_string: `ping ${i + 1}` });
      slowestOther = Math.max(slowestOther, performance.now() - t1);
      const err = await evil;
      const ms = performance.now() - t0;
      slowest = Math.max(slowest, ms);
      if (err.data.kind === 'regex_timeout' && ms < 2500) timedOut++;
      expect(ws.read(`evil${i}.txt`)).toBe(`${PATTERNS[i]![1]}\n`);
    }
    report('catastrophic regexes', { patterns: PATTERNS.length, regexTimeoutWithin2500ms: timedOut, slowestMs: Math.round(slowest), otherRequestSlowestMs: Math.round(slowestOther) });
    expect(timedOut).toBe(PATTERNS.length);
    expect(ws.read('other.txt')).toBe(`ping ${PATTERNS.length}\n`);
  }, 60_000);
});
