// Hostile input as an attack: backtracking-bait `file_pattern` globs, commands whose results would
// be hundreds of megabytes, and searches whose ripgrep command line would pass the kernel's limits
// (thousands of modified buffers, a 200 KiB regex). Each must end in an answer (or a clean refusal)
// within a time bound while the server keeps serving and its memory stays bounded.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

/** Peak resident set of a process (Linux VmHWM), in MiB; undefined elsewhere. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

let ws: TempWorkspace;
let client: TestClient;
const LONG_NAME = `${'a'.repeat(200)}.txt`;
beforeAll(async () => {
  ws = tempWorkspace({ [`src/${LONG_NAME}`]: 'needle\n', 'ping.txt': 'ping 0\n', 'big.txt': 'a'.repeat(100_000), 'tail.txt': `y${'x'.repeat(200_000)}\n` });
  client = await TestClient.start({ root: ws.root });
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
});

let pings = 0;
async function ping(): Promise<number> {
  const t0 = performance.now();
  await client.exec('editls.edit', { file_path: 'ping.txt', old_string: `ping ${pings}`, new_string: `ping ${pings + 1}` });
  pings++;
  return performance.now() - t0;
}

describe('hostile input', () => {
  it('backtracking-bait globs answer in linear time', async () => {
    const stars = [10, 30, 60, 100, 200, 400].slice(0, size(6, 3));
    let slowest = 0;
    let slowestPing = 0;
    let answered = 0;
    for (const n of stars) {
      const pattern = `${'*a'.repeat(n)}*[b]`;
      const t0 = performance.now();
      const search = client.exec('editls.searchFiles', { path: '.', regex: 'needle', file_pattern: pattern });
      slowestPing = Math.max(slowestPing, await ping());
      const r = await search;
      slowest = Math.max(slowest, performance.now() - t0);
      expect(r.matches).toHaveLength(0);
      answered++;
    }
    const tooLong = await client.execError('editls.searchFiles', { path: '.', regex: 'needle', file_pattern: '*a'.repeat(600) });
    expect(tooLong.data.kind).toBe('invalid_args');
    report('hostile file_pattern globs', { globs: stars.length, answered, maxStars: stars[stars.length - 1]!, nameLength: LONG_NAME.length, slowestMs: Math.round(slowest), pingDuringSlowestMs: Math.round(slowestPing) });
    expect(answered).toBe(stars.length);
  }, 120_000);

  it('results of hundreds of megabytes are too_large, built never, memory bounded', async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ['editls.edit', { file_path: 'big.txt', old_string: 'a', new_string: 'b'.repeat(2000), replace_all: true }], // 200 M characters
      ['editls.edit', { file_path: 'big.txt', old_string: 'a', new_string: 'b'.repeat(500), replace_all: true }], // 50 M
      ['editls.strReplace', { path: 'big.txt', replacements: Array.from({ length: 8 }, () => ({ old: 'a', new: 'aaaaaaaa', allowMultiple: true })) }],
      ['editls.searchAndReplace', { path: 'big.txt', search: 'a', replace: 'b'.repeat(1000) }],
      ['editls.searchAndReplace', { path: 'tail.txt', search: '^y', replace: "$'".repeat(5000), use_regex: true }], // 1 G characters
      ['editls.searchAndReplace', { path: 'big.txt', search: '(a)', replace: '$1'.repeat(200), use_regex: true }],
      ['editls.replaceRange', { filePath: 'big.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'a', replacementText: 'x'.repeat(11 * 1024 * 1024) }],
    ];
    const runs = attempts.slice(0, size(attempts.length, 4));
    let held = 0;
    let slowest = 0;
    for (const [command, args] of runs) {
      const t0 = performance.now();
      const err = await client.execError(command, args);
      slowest = Math.max(slowest, performance.now() - t0);
      if (err.data.kind === 'too_large' && !/Invalid string length/.test(err.message)) held++;
      await ping();
    }
    expect(ws.read('big.txt')).toBe('a'.repeat(100_000));
    const rss = peakRssMiB(client.proc.pid!);
    report('results over maxFileSize', { attempts: runs.length, tooLarge: held, slowestMs: Math.round(slowest), serverPeakRssMiB: rss ?? 'n/a', fileUnchanged: 'yes' });
    expect(held).toBe(runs.length);
    if (rss !== undefined) expect(rss).toBeLessThan(1024);
  }, 300_000);

  it('command-line limits: thousands of modified buffers and a 200 KiB regex', async () => {
    const dirty = size(1500, 300);
    const fresh = size(2000, 300);
    const name = (i: number) => `many/${'n'.repeat(100)}${String(i).padStart(4, '0')}.txt`;
    for (let i = 0; i < dirty; i++) ws.write(name(i), 'nothing\n');
    for (let i = 0; i < dirty; i++) await client.open(name(i), `needle ${i}\n`);
    for (let i = 0; i < fresh; i++) await client.open(`new/${String(i).padStart(4, '0')}.txt`, `needle new ${i}\n`);
    const t0 = performance.now();
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle', max_results: 10_000, context_lines: 0 });
    const searchMs = performance.now() - t0;
    expect(r.matches).toHaveLength(dirty + fresh + 1);
    const paths = r.matches.map((m: { path: string }) => m.path);
    expect([...paths].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(paths);
    const capped = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
    expect(capped.matches).toHaveLength(300);
    expect(capped.truncated).toBe(true);
    const t1 = performance.now();
    const err = await client.execError('editls.searchFiles', { path: '.', regex: `(${'abcd|'.repeat(40_000)}x)` });
    const regexMs = performance.now() - t1;
    expect(err.data.kind).toBe('invalid_regex');
    report('ripgrep command-line limits', {
      dirtyBuffers: dirty,
      newBuffers: fresh,
      hitsInPathOrder: r.matches.length,
      searchMs: Math.round(searchMs),
      regexKiB: 195,
      regexAnswer: err.data.kind,
      regexMs: Math.round(regexMs),
    });
  }, 300_000);
});
