// writeFilesAtomic (the batch behind multi-file commands) on a real filesystem: modes and owners kept,
// a stale file or a moved folder refuses the whole batch before anything is renamed, no temp file and
// no descriptor left behind, and the event loop keeps turning while its synchronous steps run.

import { chmodSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_PREFIX, writeFilesAtomic, type BatchWrite } from '../../server/workspace/atomicWrite.js';
import { fileStamp } from '../../server/workspace/fileCodec.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

/** The batch write of `rel`'s new text, expecting the file as it is now. */
function item(rel: string, text: string): BatchWrite {
  const abs = ws.file(rel);
  const before = readFileSync(abs);
  return { absPath: abs, data: Buffer.from(text), displayPath: rel, options: { mode: statSync(abs).mode & 0o7777, within: ws.root, expect: { stamp: fileStamp(statSync(abs, { bigint: true })), bytes: () => before } } };
}

function tempsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => path.basename(n).startsWith(TEMP_PREFIX));
}

function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

describe.runIf(process.platform === 'linux')('writeFilesAtomic', () => {
  it('writes every file, keeps each exact mode (also bits the umask would drop), leaves no temp file', async () => {
    const modes: Record<string, number> = { 'a.ts': 0o600, 'b/c.ts': 0o664, 'b/d.sh': 0o775, 'e.ts': 0o640, 'f.ts': 0o666 };
    for (const [rel, mode] of Object.entries(modes)) {
      ws.write(rel, `old ${rel}\n`);
      chmodSync(ws.file(rel), mode);
    }
    const r = await writeFilesAtomic(Object.keys(modes).map((rel) => item(rel, `new ${rel}\n`)));
    expect(r.ok).toBe(true);
    for (const [rel, mode] of Object.entries(modes)) {
      expect(ws.read(rel)).toBe(`new ${rel}\n`);
      expect((statSync(ws.file(rel)).mode & 0o7777).toString(8)).toBe(mode.toString(8));
    }
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it('refuses, as stale, a batch with a file changed since it was read: nothing written anywhere', async () => {
    for (const rel of ['a.ts', 'b.ts', 'c.ts']) ws.write(rel, `old ${rel}\n`);
    const items = ['a.ts', 'b.ts', 'c.ts'].map((rel) => item(rel, 'new\n'));
    appendFileSync(ws.file('c.ts'), 'another program\n');
    const r = await writeFilesAtomic(items);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('stale');
    expect(r.message).toContain('c.ts');
    expect(ws.read('a.ts')).toBe('old a.ts\n');
    expect(ws.read('b.ts')).toBe('old b.ts\n');
    expect(ws.read('c.ts')).toBe('old c.ts\nanother program\n');
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it('refuses a batch whose file was deleted since it was read', async () => {
    for (const rel of ['a.ts', 'b.ts']) ws.write(rel, 'old\n');
    const items = ['a.ts', 'b.ts'].map((rel) => item(rel, 'new\n'));
    renameSync(ws.file('b.ts'), ws.file('b.moved'));
    const r = await writeFilesAtomic(items);
    expect(r.ok ? 'ok' : r.kind).toBe('stale');
    expect(ws.read('a.ts')).toBe('old\n');
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it('never writes through a folder swapped for a symbolic link after the paths were checked', async () => {
    ws.write('src/a.ts', 'old\n');
    ws.write('src/b.ts', 'old\n');
    ws.write('elsewhere/a.ts', 'other\n');
    ws.write('elsewhere/b.ts', 'other\n');
    const items = ['src/a.ts', 'src/b.ts'].map((rel) => item(rel, 'new\n'));
    renameSync(ws.file('src'), ws.file('src.away'));
    symlinkSync(ws.file('elsewhere'), ws.file('src'));
    const r = await writeFilesAtomic(items);
    expect(r.ok).toBe(false);
    expect(ws.read('elsewhere/a.ts')).toBe('other\n');
    expect(ws.read('elsewhere/b.ts')).toBe('other\n');
    expect(ws.read('src.away/a.ts')).toBe('old\n');
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it('closes every descriptor it opened (the replaced files, the temp files, the folders), also after a refusal', async () => {
    const rels = Array.from({ length: 40 }, (_, i) => `d${i % 4}/f${i}.ts`);
    for (const rel of rels) ws.write(rel, 'old\n');
    const before = openFds();
    expect((await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')))).ok).toBe(true);
    const refused = rels.map((rel) => item(rel, 'newer\n'));
    writeFileSync(ws.file(rels[39]!), 'changed meanwhile\n');
    expect((await writeFilesAtomic(refused)).ok).toBe(false);
    // The replaced files are closed through the threadpool, after the batch answered.
    const end = Date.now() + 2000;
    while (openFds() > before && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(openFds()).toBe(before);
  });

  it('runs the caller\'s work once, while the temp files are written but before any file is replaced', async () => {
    const rels = ['a.ts', 'b/c.ts', 'b/d.ts'];
    for (const rel of rels) ws.write(rel, `old ${rel}\n`);
    const seen: { old: string[]; temps: number }[] = [];
    const r = await writeFilesAtomic(
      rels.map((rel) => item(rel, `new ${rel}\n`)),
      { whileSyncing: () => seen.push({ old: rels.filter((rel) => ws.read(rel) === `old ${rel}\n`), temps: tempsUnder(ws.root).length }) },
    );
    expect(r.ok).toBe(true);
    expect(seen).toEqual([{ old: rels, temps: 3 }]);
    for (const rel of rels) expect(ws.read(rel)).toBe(`new ${rel}\n`);
  });

  it('a failing piece of the caller\'s work does not stop the batch', async () => {
    for (const rel of ['a.ts', 'b.ts']) ws.write(rel, 'old\n');
    const r = await writeFilesAtomic(['a.ts', 'b.ts'].map((rel) => item(rel, 'new\n')), {
      whileSyncing: () => {
        throw new Error('boom');
      },
    });
    expect(r.ok).toBe(true);
    expect(ws.read('b.ts')).toBe('new\n');
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it('lets the event loop turn while it writes a large batch', async () => {
    const rels = Array.from({ length: 300 }, (_, i) => `big/f${i}.ts`);
    mkdirSync(ws.file('big'));
    for (const rel of rels) ws.write(rel, 'x'.repeat(100_000));
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'y'.repeat(100_000))));
    running = false;
    expect(r.ok).toBe(true);
    expect(turns).toBeGreaterThan(3);
  });
});
