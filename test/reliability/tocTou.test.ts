// Time of check, time of use: a folder on the path swapped for a symlink to a folder outside the
// workspace, (1) while a command waits behind a slow regex on the same file, and (2) over and over
// by a real child process while edits and creates run. Nothing may be written outside.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));
function fresh(files: Record<string, string>): TempWorkspace {
  const w = tempWorkspace(files);
  workspaces.push(w);
  return w;
}

const SLOW_LINE = `${'a'.repeat(27)}!`;

/** Outside files changed or added, compared with what was put there. */
function outsideChanges(outside: string, expected: Record<string, string>): number {
  let changes = 0;
  const names = readdirSync(outside);
  for (const n of names) if (!(n in expected) || readFileSync(path.join(outside, n), 'utf8') !== expected[n]) changes++;
  return changes + Object.keys(expected).filter((n) => !names.includes(n)).length;
}

describe('time of check, time of use', () => {
  it('a folder swapped for a link while a command waits behind a slow regex: nothing written outside', async () => {
    const trials = size(20, 3);
    let writesOutside = 0;
    const kinds: Record<string, number> = {};
    for (let t = 0; t < trials; t++) {
      const body = `alpha ${t}\n${SLOW_LINE}\n`;
      const ws = fresh({ 'sub/f.txt': body });
      const outside = fresh({ 'f.txt': body }).root;
      const client = await TestClient.start({ root: ws.root, initializationOptions: { regexTimeoutMs: 300 } });
      try {
        const slow = client.exec('editls.searchAndReplace', { path: 'sub/f.txt', search: '(a+)+$', replace: 'x', use_regex: true }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
        const queued = [
          client.exec('editls.edit', { file_path: 'sub/f.txt', old_string: `alpha ${t}`, new_string: 'BETA' }),
          client.exec('editls.strReplace', { path: 'sub/f.txt', replacements: [{ old: `alpha ${t}`, new: 'GAMMA' }] }),
          client.exec('editls.replaceRange', { filePath: 'sub/f.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 6, expectedText: 'alpha', replacementText: 'DELTA' }),
        ].map((p) => p.then(() => 'applied', (e) => String(e?.data?.kind)));
        await new Promise((r) => setTimeout(r, 30));
        renameSync(ws.file('sub'), ws.file('sub.moved'));
        symlinkSync(outside, ws.file('sub'));
        await slow;
        for (const k of await Promise.all(queued)) kinds[k] = (kinds[k] ?? 0) + 1;
        writesOutside += outsideChanges(outside, { 'f.txt': body });
      } finally {
        await client.shutdown();
      }
    }
    report('TOCTOU: folder swapped for a link while 3 commands wait behind a slow regex', { trials, commands: trials * 3, writesOutside, ...kinds });
    expect(writesOutside).toBe(0);
    expect(kinds.applied ?? 0).toBe(0);
  });

  it('a folder flipped between a real folder and a link by another process while edits and creates run: nothing written outside', async () => {
    const attempts = size(1500, 150);
    const ws = fresh({ 'a/f.txt': 'count 0\n' });
    const outside = fresh({ 'f.txt': 'count 0\n' }).root;
    const client = await TestClient.start({ root: ws.root });
    // The attacker: a <-> link to outside, about every millisecond, until its stdin closes.
    const attacker = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const [a, real, out] = process.argv.slice(1); let stop = false; let flips = 0;
         process.stdin.on('data', () => {}); process.stdin.on('end', () => (stop = true));
         const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
         (function loop() {
           for (let i = 0; i < 20 && !stop; i++) {
             try { fs.renameSync(a, real); fs.symlinkSync(out, a); nap(1); fs.unlinkSync(a); fs.renameSync(real, a); flips++; nap(1); } catch {}
           }
           if (stop) { process.stdout.write(String(flips)); process.exit(0); }
           setImmediate(loop);
         })();`,
        ws.file('a'),
        ws.file('a.real'),
        outside,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let flips = '';
    attacker.stdout!.on('data', (d) => (flips += d));
    const attackerDone = new Promise((resolve) => attacker.on('close', resolve));
    const kinds: Record<string, number> = {};
    let count = 0;
    const started = Date.now();
    try {
      for (let i = 0; i < attempts; i++) {
        const job =
          i % 2 === 0
            ? client.exec('editls.edit', { file_path: 'a/f.txt', old_string: `count ${count}\n`, new_string: `count ${count + 1}\n` })
            : client.exec('editls.edit', { file_path: `a/new${i}/x.ts`, old_string: '', new_string: `created ${i}\n` });
        const kind = await job.then(
          () => 'applied',
          (e) => String(e?.data?.kind),
        );
        if (kind === 'applied' && i % 2 === 0) count++;
        kinds[kind] = (kinds[kind] ?? 0) + 1;
      }
    } finally {
      attacker.stdin!.end();
      await attackerDone;
      await client.shutdown();
    }
    const writesOutside = outsideChanges(outside, { 'f.txt': 'count 0\n' });
    report('TOCTOU: folder flipped to a link and back about every ms by another process during edits and creates', {
      attempts,
      flips,
      writesOutside,
      seconds: ((Date.now() - started) / 1000).toFixed(1),
      ...kinds,
    });
    expect(writesOutside).toBe(0);
    // A create that ran while `a` was renamed away made a new folder `a` (creates make missing
    // folders), after which the attacker's flips fail and the real folder stays `a.real`.
    const real = !lstatSync(ws.file('a')).isSymbolicLink() && existsSync(ws.file('a/f.txt')) ? ws.file('a/f.txt') : ws.file('a.real/f.txt');
    expect(readFileSync(real, 'utf8')).toBe(`count ${count}\n`);
  });
});
