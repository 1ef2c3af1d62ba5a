// Copies of unsaved buffers (searchFiles over open documents) never stay in the temp folder: removed
// after the run, at exit (removeBufferCopies), and — after a kill -9 — by the next start's sweep,
// which takes only folders of dead pids older than a search takes, owned by this user.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeBufferCopies, removeBufferCopies, sweepBufferCopies } from '../../server/workspace/search/bufferCopies.js';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A pid that was just used and has exited (and is not reused this soon). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

function copyFolder(tmp: string, pid: number, ageMs: number): string {
  const dir = path.join(tmp, `editls-buffers-${pid}-${Math.random().toString(36).slice(2, 8).padEnd(6, 'x')}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'b0'), 'unsaved text\n');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(dir, t, t);
  return dir;
}

describe('copies of unsaved buffers', () => {
  it('the sweep removes old folders of dead pids only', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'editls-sweep-'));
    cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
    const dead = deadPid();
    const litter = copyFolder(tmp, dead, 120_000);
    const fresh = copyFolder(tmp, dead, 0);
    const live = copyFolder(tmp, process.pid === 1 ? 2 : 1, 120_000);
    const mine = copyFolder(tmp, process.pid, 120_000);
    mkdirSync(path.join(tmp, 'editls-buffers-notapid'));
    const alive = (pid: number) => pid !== dead;
    expect(await sweepBufferCopies(alive, tmp)).toBe(1);
    expect([litter, fresh, live, mine].map(existsSync)).toEqual([false, true, true, true]);
    expect(existsSync(path.join(tmp, 'editls-buffers-notapid'))).toBe(true);
  });

  it('a run\'s folder goes when it is done, or at exit', async () => {
    const a = await makeBufferCopies();
    expect(path.basename(a.dir)).toMatch(new RegExp(`^editls-buffers-${process.pid}-`));
    await a.done();
    expect(existsSync(a.dir)).toBe(false);
    const b = await makeBufferCopies();
    writeFileSync(path.join(b.dir, 'b0'), 'x');
    removeBufferCopies();
    expect(existsSync(b.dir)).toBe(false);
  });

  it('editls sweeps a killed editls\'s copies at start, in the OS temp folder', async () => {
    const litter = copyFolder(os.tmpdir(), deadPid(), 120_000);
    cleanups.push(() => rmSync(litter, { recursive: true, force: true }));
    const ws = tempWorkspace({});
    cleanups.push(ws.cleanup);
    const client = await TestClient.start({ root: ws.root });
    cleanups.push(() => client.shutdown());
    expect(await waitFor(() => !existsSync(litter))).toBe(true);
    expect(await waitFor(() => client.logs.some((l) => /copy folders? of unsaved buffers left in the temp folder/.test(l)))).toBe(true);
  });
});
