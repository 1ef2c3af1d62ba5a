// Discovery records and who may remove them (issue 24, item 5): a record is removed only when its
// editls is proven gone — its socket refuses connections — never because a pid check says so (across
// pid namespaces a live editor's pid looks dead). Real Unix sockets in a temp folder; a listener
// killed with -9 leaves its socket file behind, refusing connections, as a crashed editls does.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { liveRecords, probeEndpoint, writeRecord, type DiscoveryRecord } from '../../server/attach/records.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-records-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function record(dir: string, pid: number, startedAt: number): DiscoveryRecord {
  return { pid, folders: ['/w'], clientName: 'Test', startedAt, endpoint: path.join(dir, `${pid}.sock`), token: 'a'.repeat(32), version: '0' };
}

/** A socket that accepts connections in this process. */
async function listening(socketPath: string): Promise<void> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(socketPath, r));
  cleanups.push(() => new Promise((r) => server.close(r)));
}

/** A socket file left by a process killed with -9: it refuses connections. */
async function leftBehind(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.stdout.write('up'))`], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((r) => child.stdout.once('data', r));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

describe('discovery records', () => {
  it('a record whose pid looks dead but whose socket listens is kept and found (a sandboxed agent)', async () => {
    const dir = folder();
    const live = record(dir, 4_000_001, 2);
    writeRecord(dir, live);
    await listening(live.endpoint);
    expect(await probeEndpoint(live.endpoint)).toBe('alive');
    expect(await liveRecords(dir, () => false)).toEqual([live]);
    expect(readdirSync(dir).sort()).toEqual(['4000001.json', '4000001.sock']);
  });

  it('a record whose socket refuses connections is removed with it, even while its pid is alive (reused)', async () => {
    const dir = folder();
    const gone = record(dir, 4_000_002, 1);
    writeRecord(dir, gone);
    await leftBehind(gone.endpoint);
    expect(await probeEndpoint(gone.endpoint)).toBe('gone');
    expect(await liveRecords(dir, () => true)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('with no socket to ask, a record is removed only when its pid is dead too; otherwise kept, not offered', async () => {
    const dir = folder();
    writeRecord(dir, record(dir, 4_000_003, 1));
    writeRecord(dir, record(dir, 4_000_004, 1));
    const found = await liveRecords(dir, (pid) => pid === 4_000_004);
    expect(found).toEqual([]);
    expect(readdirSync(dir)).toEqual(['4000004.json']);
  });

  it('a socket without a record goes once it refuses connections; one that listens stays; newest record first', async () => {
    const dir = folder();
    await leftBehind(path.join(dir, '4000005.sock'));
    await listening(path.join(dir, '4000006.sock'));
    const older = record(dir, 4_000_007, 1);
    const newer = record(dir, 4_000_008, 5);
    for (const r of [older, newer]) {
      writeRecord(dir, r);
      await listening(r.endpoint);
    }
    writeFileSync(path.join(dir, '4000009.json'), '{ not json');
    expect(await liveRecords(dir, () => false)).toEqual([newer, older]);
    expect(existsSync(path.join(dir, '4000005.sock'))).toBe(false);
    expect(existsSync(path.join(dir, '4000006.sock'))).toBe(true);
    expect(existsSync(path.join(dir, '4000009.json'))).toBe(true);
  });
});
