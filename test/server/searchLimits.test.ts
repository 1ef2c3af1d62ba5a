// searchFiles at the edges of the command line, through the real server over stdio: thousands of
// modified buffers (their names once went on ripgrep's command line, and each got its own ripgrep
// process) and a regex too long for a command-line argument (E2BIG before; now invalid_regex).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverFixture } from '../helpers/serverFixture.js';
import { MAX_SEARCH_REGEX_BYTES } from '../../server/workspace/search/ripgrepSearch.js';

const { setup, start } = serverFixture();

const LONG = 'n'.repeat(100);

describe('searchFiles with many modified buffers', () => {
  it('1,500 dirty buffers with long names: searched as seen, in path order, capped', async () => {
    const count = 1500;
    const files: Record<string, string> = { 'z_disk.txt': 'needle on disk\n' };
    const name = (i: number) => `d/${LONG}${String(i).padStart(4, '0')}.txt`;
    for (let i = 0; i < count; i++) files[name(i)] = 'nothing\n';
    const ws = setup(files);
    const client = await start(ws);
    for (let i = 0; i < count; i++) await client.open(name(i), `needle in buffer ${i}\n`);
    const all = await client.exec('editls.searchFiles', { path: '.', regex: 'needle', max_results: 5000 });
    expect(all.matches).toHaveLength(count + 1);
    expect(all.matches.slice(0, 3).map((m: { path: string; text: string }) => [m.path, m.text])).toEqual([
      [name(0), 'needle in buffer 0'],
      [name(1), 'needle in buffer 1'],
      [name(2), 'needle in buffer 2'],
    ]);
    expect(all.matches[count].path).toBe('z_disk.txt');
    const capped = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
    expect(capped.truncated).toBe(true);
    expect(capped.matches).toHaveLength(300);
    expect(capped.matches[299].path).toBe(name(299));
    // The disk copies are not reported: none of them holds "nothing" as far as the search can see.
    const hidden = await client.exec('editls.searchFiles', { path: '.', regex: 'nothing' });
    expect(hidden.matches).toHaveLength(0);
  }, 120_000);

  it('2,000 unsaved new buffers (no file on disk) are searched in one batch', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws);
    const count = 2000;
    for (let i = 0; i < count; i++) await client.open(`new/${String(i).padStart(4, '0')}.txt`, `line\nfresh needle ${i}\n`);
    const t0 = performance.now();
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'fresh needle \\d+$', max_results: 5000, context_lines: 0 });
    // One ripgrep per buffer took ~50 s here on a loaded 2-core machine; one batch takes a few.
    expect(performance.now() - t0).toBeLessThan(30_000);
    expect(r.matches).toHaveLength(count);
    expect(r.matches[1999]).toMatchObject({ path: 'new/1999.txt', line: 2, text: 'fresh needle 1999' });
  }, 120_000);
});

describe('the buffers\' private copies', () => {
  it('live in a temporary folder that is gone after the search, also after a bad regex', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'editls-tmpdir-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp; // inherited by the server process started next
    try {
      const client = await start(ws);
      await client.open('a.txt', 'needle\n');
      await client.open('b.txt', 'needle too\n');
      const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
      expect(r.matches.map((m: { path: string }) => m.path)).toEqual(['a.txt', 'b.txt']);
      // (editls-<uid>/ is the folder of the discovery record's copy for agents, gemini/ that of
      // Gemini CLI's IDE companion file (docs/agents.md), neither a search's.)
      const copies = () => readdirSync(tmp).filter((n) => n !== `editls-${os.userInfo().uid}` && n !== 'gemini');
      expect(copies()).toEqual([]);
      const bad = await client.execError('editls.searchFiles', { path: '.', regex: '(' });
      expect(bad.data.kind).toBe('invalid_regex');
      expect(copies()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('a regex too long for a command line', () => {
  it(`over ${MAX_SEARCH_REGEX_BYTES / 1024} KiB is invalid_regex with the limit in the message`, async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws);
    const err = await client.execError('editls.searchFiles', { path: '.', regex: `(${'abc|'.repeat(50_000)}x)` });
    expect(err.data.kind).toBe('invalid_regex');
    expect(err.message).toContain('64 KiB');
    const ok = await client.exec('editls.searchFiles', { path: '.', regex: `(${'abc|'.repeat(10_000)}x)` });
    expect(ok.matches).toHaveLength(1);
  });
});
