// writeFilesAtomic (the batch behind multi-file commands) on a real filesystem: modes and owners kept,
// a stale file or a moved folder refuses the whole batch before anything is renamed, a failure among
// the renames (a file changed, swapped for a link or made immutable after its temp file was written)
// rolls every renamed file back to its exact bytes and mode, a rollback that cannot finish names what
// holds the new text, a full disk writes nothing, descriptors stay bounded, no temp file and no
// descriptor left behind, and the event loop keeps turning while its synchronous steps run; a large
// batch made durable by one syncfs asks for it once every temp file is complete, and falls back to
// an fsync each.

import { chmodSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync, mkdirSync, appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PUBLISH_WINDOW, removeStrayTemps, TEMP_PREFIX, writeFilesAtomic, type BatchWrite } from '../../server/workspace/disk/atomicWrite.js';
import { fileStamp } from '../../server/workspace/disk/fileCodec.js';
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
  /** Files of these modes, rewritten in one batch: each holds the new text and its exact mode, no temp file is left. */
  async function keepsModes(modes: Record<string, number>): Promise<void> {
    for (const [rel, mode] of Object.entries(modes)) {
      ws.write(rel, `old ${rel}\n`);
      chmodSync(ws.file(rel), mode);
    }
    const r = await writeFilesAtomic(Object.keys(modes).map((rel) => item(rel, `new ${rel}\n`)));
    expect(r.ok).toBe(true);
    for (const [rel, mode] of Object.entries(modes)) {
      expect(ws.read(rel)).toBe(`new ${rel}\n`);
      expect([rel, (statSync(ws.file(rel)).mode & 0o7777).toString(8)]).toEqual([rel, mode.toString(8)]);
    }
    expect(tempsUnder(ws.root)).toEqual([]);
  }

  it('writes every file, keeps each exact mode (also bits the umask would drop), leaves no temp file', async () => {
    await keepsModes({ 'a.ts': 0o600, 'b/c.ts': 0o664, 'b/d.sh': 0o775, 'e.ts': 0o640, 'f.ts': 0o666, 'g.sh': 0o4755, 'h.sh': 0o2755 });
  });

  it('keeps each exact mode in a batch written through the threadpool too (the mode set only where open() left another)', async () => {
    // 70 files: past the size from which temp files are created in the threadpool (stageInPool).
    const cycle = [0o600, 0o664, 0o775, 0o640, 0o666, 0o644, 0o4755, 0o2755, 0o700];
    const modes: Record<string, number> = {};
    for (let i = 0; i < 70; i++) modes[`m${i % 3}/f${i}.ts`] = cycle[i % cycle.length]!;
    await keepsModes(modes);
  });

  // A new file in a setgid folder takes the folder's group: each replaced file keeps its own.
  it.runIf(process.geteuid?.() === 0).each([3, 70])('keeps the group of each file it replaces in a setgid folder (%i files: written in synchronous calls, and through the threadpool)', async (count) => {
    mkdirSync(ws.file('shared'));
    execFileSync('chown', [':5678', ws.file('shared')]);
    chmodSync(ws.file('shared'), 0o2775);
    const rels = Array.from({ length: count }, (_, i) => `shared/f${i}.ts`);
    for (const rel of rels) ws.write(rel, `old ${rel}\n`);
    execFileSync('chown', [`:${process.getgid!()}`, ...rels.map((rel) => ws.file(rel))]);
    const r = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\n`)));
    expect(r.ok).toBe(true);
    for (const rel of rels) expect([rel, ws.read(rel), statSync(ws.file(rel)).gid]).toEqual([rel, `new ${rel}\n`, process.getgid!()]);
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

  it('a large batch (temp files written and fsynced through the threadpool) runs the caller\'s work once every temp file is written, before any file is replaced', async () => {
    const rels = Array.from({ length: 100 }, (_, i) => `d${i % 7}/f${i}.ts`);
    for (const rel of rels) ws.write(rel, `old ${rel}\n`);
    const seen: { old: number; temps: number }[] = [];
    const r = await writeFilesAtomic(
      rels.map((rel) => item(rel, `new ${rel}\n`)),
      { whileSyncing: () => seen.push({ old: rels.filter((rel) => ws.read(rel) === `old ${rel}\n`).length, temps: tempsUnder(ws.root).length }) },
    );
    expect(r.ok).toBe(true);
    expect(seen).toEqual([{ old: 100, temps: 100 }]);
    for (const rel of rels) expect(ws.read(rel)).toBe(`new ${rel}\n`);
    expect(tempsUnder(ws.root)).toEqual([]);
  });

  it.each([
    ['each fsynced', false],
    ['made durable by one syncfs, never asked for', true],
  ])('a large batch meeting a stale file while the threadpool writes its temp files (%s) writes nothing and leaves no temp file or descriptor', async (_how, withSyncfs) => {
    const rels = Array.from({ length: 200 }, (_, i) => `d${i % 5}/f${i}.ts`);
    for (const rel of rels) ws.write(rel, 'old\n');
    const before = openFds();
    const items = rels.map((rel) => item(rel, 'new\n'));
    writeFileSync(ws.file(rels[150]!), 'changed meanwhile\n');
    let asked = 0;
    const syncFileSystems = async () => {
      asked++;
      return true;
    };
    const r = await writeFilesAtomic(items, withSyncfs ? { syncFileSystems } : {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('stale');
    expect(asked).toBe(0);
    for (const [i, rel] of rels.entries()) expect(ws.read(rel)).toBe(i === 150 ? 'changed meanwhile\n' : 'old\n');
    expect(tempsUnder(ws.root)).toEqual([]);
    const end = Date.now() + 2000;
    while (openFds() > before && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
    expect(openFds()).toBe(before);
  });

  describe('made durable by one syncfs (syncFileSystems)', () => {
    it('is asked for one folder of the one file system when every temp file is complete and closed and no file is replaced yet, then again for the renames', async () => {
      const rels = Array.from({ length: 100 }, (_, i) => `d${i % 7}/f${i}.ts`);
      for (const rel of rels) ws.write(rel, `old ${rel}\n`);
      const before = openFds();
      const calls: { folders: readonly string[]; ownBytes: number; old: number; complete: number; fds: number }[] = [];
      const items = rels.map((rel) => item(rel, `new ${rel}\n`));
      const r = await writeFilesAtomic(items, {
        syncFileSystems: async (folders, ownBytes) => {
          const temps = tempsUnder(ws.root);
          calls.push({
            folders,
            ownBytes,
            old: rels.filter((rel) => ws.read(rel) === `old ${rel}\n`).length,
            complete: temps.filter((t) => /^new d\d\/f\d+\.ts\n$/.test(readFileSync(path.join(ws.root, t), 'utf8'))).length,
            // the batch's folders stay pinned (7 descriptors); no temp file is held open
            fds: openFds() - before,
          });
          return true;
        },
      });
      expect(r.ok).toBe(true);
      // Once for the temp files; once more once the window's files are renamed (all 100 new).
      expect(calls).toHaveLength(2);
      expect(calls[1]).toMatchObject({ folders: calls[0]!.folders, ownBytes: 0, old: 0, complete: 0 });
      expect(calls[0]!.folders).toHaveLength(1);
      expect(rels.some((rel) => path.dirname(ws.file(rel)) === calls[0]!.folders[0])).toBe(true);
      expect(calls[0]!.ownBytes).toBe(rels.reduce((n, rel) => n + Buffer.byteLength(`new ${rel}\n`), 0));
      expect(calls[0]!.old).toBe(100);
      expect(calls[0]!.complete).toBe(100);
      expect(calls[0]!.fds).toBeLessThanOrEqual(7);
      for (const rel of rels) expect(ws.read(rel)).toBe(`new ${rel}\n`);
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    it('not used or failed (false): each temp file is fsynced instead and the batch writes every file', async () => {
      const rels = Array.from({ length: 80 }, (_, i) => `d${i % 3}/f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\r\n');
      let asked = 0;
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\r\n`)), {
        syncFileSystems: async () => {
          asked++;
          return false;
        },
      });
      expect(r.ok).toBe(true);
      expect(asked).toBe(1);
      for (const rel of rels) expect(ws.read(rel)).toBe(`new ${rel}\r\n`);
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    it('asks once for the temp files and once per window of renames (PUBLISH_WINDOW files, then 76), the renames done by then', async () => {
      const rels = Array.from({ length: PUBLISH_WINDOW + 76 }, (_, i) => `d${i % 5}/f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\n');
      const renamed: number[] = [];
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')), {
        syncFileSystems: async () => {
          renamed.push(rels.filter((rel) => ws.read(rel) === 'new\n').length);
          return true;
        },
      });
      expect(r.ok).toBe(true);
      expect(renamed).toEqual([0, PUBLISH_WINDOW, PUBLISH_WINDOW + 76]);
    });

    it('a sync of the renames that is not used or fails: the folders are fsynced instead, every file written', async () => {
      const rels = Array.from({ length: 90 }, (_, i) => `d${i % 4}/f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\n');
      let asked = 0;
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')), { syncFileSystems: async () => ++asked === 1 });
      expect(r.ok).toBe(true);
      expect(asked).toBe(2);
      for (const rel of rels) expect(ws.read(rel)).toBe('new\n');
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    it('a batch of fewer than 64 files fsyncs each and never asks', async () => {
      const rels = Array.from({ length: 10 }, (_, i) => `f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\n');
      let asked = 0;
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')), {
        syncFileSystems: async () => {
          asked++;
          return true;
        },
      });
      expect(r.ok).toBe(true);
      expect(asked).toBe(0);
      for (const rel of rels) expect(ws.read(rel)).toBe('new\n');
    });

    it('a folder swapped for a symbolic link while the sync runs (it may have synced another file system): nothing is written, no temp file is left', async () => {
      const rels = Array.from({ length: 70 }, (_, i) => `d/f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\n');
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'editls-swap-'));
      try {
        const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')), {
          syncFileSystems: async () => {
            renameSync(ws.file('d'), path.join(elsewhere, 'd'));
            symlinkSync(path.join(elsewhere, 'd'), ws.file('d'));
            return true;
          },
        });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.holdingNew).toEqual([]);
        for (const rel of rels) expect(readFileSync(path.join(elsewhere, rel), 'utf8')).toBe('old\n');
        expect(tempsUnder(elsewhere)).toEqual([]);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });
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

  describe('all or nothing when a rename fails', () => {
    /** old-a.ts … with their exact modes; the batch writes new text to each. */
    function files(n: number, folder = 'd'): string[] {
      const rels = Array.from({ length: n }, (_, i) => `${folder}/f${String(i).padStart(3, '0')}.ts`);
      rels.forEach((rel, i) => {
        ws.write(rel, `old ${rel}\r\n`);
        chmodSync(ws.file(rel), i % 2 === 0 ? 0o640 : 0o600);
      });
      return rels;
    }

    function unchanged(rels: string[]): void {
      for (const rel of rels) {
        expect(ws.read(rel)).toBe(`old ${rel}\r\n`);
        expect(statSync(ws.file(rel)).mode & 0o777).toBe(Number(/f(\d+)\.ts$/.exec(rel)![1]) % 2 === 0 ? 0o640 : 0o600);
      }
    }

    it('a file another program changed after the temp files were written: the files renamed before it are restored, exactly', async () => {
      const rels = files(6);
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\n`)), { whileSyncing: () => appendFileSync(ws.file(rels[4]!), 'another program\n') });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.kind).toBe('stale');
      expect(r.message).toMatch(/d\/f004\.ts changed on disk .*; the 4 files already replaced were restored to their exact bytes, so nothing changed/);
      expect(r.holdingNew).toEqual([]);
      unchanged(rels.filter((_, i) => i !== 4));
      expect(ws.read(rels[4]!)).toBe(`old ${rels[4]}\r\nanother program\n`);
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    it('a file swapped for a symbolic link before its rename: nothing is written through the link, the others are restored', async () => {
      const rels = files(4);
      ws.write('outside/target.ts', 'outside\n');
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\n`)), {
        whileSyncing: () => {
          renameSync(ws.file(rels[2]!), ws.file('moved.ts'));
          symlinkSync(ws.file('outside/target.ts'), ws.file(rels[2]!));
        },
      });
      expect(r.ok).toBe(false);
      expect(ws.read('outside/target.ts')).toBe('outside\n');
      unchanged([rels[0]!, rels[1]!, rels[3]!]);
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    const root = process.geteuid?.() === 0;
    const chattr = (flag: string, p: string) => execFileSync('chattr', [flag, p]);

    it.runIf(root)('an immutable file (chattr +i) is refused before anything is renamed; made immutable after its temp file was written, the renamed files are restored', async () => {
      const rels = files(5);
      chattr('+i', ws.file(rels[3]!));
      try {
        const refused = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\n`)));
        expect(refused.ok ? 'ok' : refused.message).toMatch(/d\/f003\.ts: it is immutable or append-only/);
        unchanged(rels);
      } finally {
        chattr('-i', ws.file(rels[3]!));
      }
      // Its folder made immutable after the temp files were written (the file's own attribute would
      // change its ctime, which the last check sees): the rename into it is refused.
      const late = [...rels.slice(0, 3), ...files(1, 'e'), rels[4]!];
      try {
        const r = await writeFilesAtomic(late.map((rel) => item(rel, `new ${rel}\n`)), { whileSyncing: () => chattr('+i', ws.file('e')) });
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.message).toMatch(/cannot write e\/f000\.ts: EPERM.*the 3 files already replaced were restored/);
          expect(r.holdingNew).toEqual([]);
        }
        unchanged(late);
      } finally {
        chattr('-i', ws.file('e'));
      }
      // The temp file in the folder made immutable could not be removed then; the next start's sweep does.
      expect(tempsUnder(ws.root).map((t) => path.dirname(t))).toEqual(['e']);
      expect(await removeStrayTemps(ws.file('e'))).toBe(1);
    });

    it.runIf(root)('a rollback that cannot finish names each file that holds the new text, and keeps a change someone made since', async () => {
      // PUBLISH_WINDOW files are renamed (one window) before the batch waits on the disk; then the test makes
      // the first folder immutable and changes one renamed file; the batch fails on a file in the second folder.
      const first = files(PUBLISH_WINDOW, 'a');
      const second = files(10, 'b');
      const rels = [...first, ...second];
      let spinning = true;
      const watch = () => {
        if (!spinning) return;
        if (ws.read(first.at(-1)!) === `new ${first.at(-1)}\n`) {
          spinning = false;
          writeFileSync(ws.file(first[0]!), 'the user typed this\n');
          chattr('+i', ws.file('a'));
          return;
        }
        setImmediate(watch);
      };
      try {
        const r = await writeFilesAtomic(rels.map((rel) => item(rel, `new ${rel}\n`)), {
          whileSyncing: () => {
            appendFileSync(ws.file(second[5]!), 'another program\n');
            setImmediate(watch);
          },
        });
        expect(spinning).toBe(false);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        // a/ could not be restored (immutable now): its files hold the new text, and say so; a/f000 holds the user's text.
        expect(r.holdingNew).toEqual(first.map((_, i) => i));
        expect(r.message).toMatch(new RegExp(`of the ${PUBLISH_WINDOW + 5} files already replaced, ${PUBLISH_WINDOW} could not be restored and hold the new text: a/f000\\.ts \\(it changed again since editls wrote it\\); a/f001\\.ts \\(`));
        expect(ws.read(first[0]!)).toBe('the user typed this\n');
        expect(ws.read(first[1]!)).toBe(`new ${first[1]}\n`);
        // b/ was restored.
        unchanged(second.filter((_, i) => i !== 5));
      } finally {
        spinning = false;
        chattr('-i', ws.file('a'));
      }
      expect(tempsUnder(ws.root)).toEqual([]);
    });

    it.runIf(root && process.platform === 'linux')('a full disk (a 1 MiB tmpfs) writes nothing and leaves no temp file', async () => {
      const mnt = mkdtempSync(path.join(os.tmpdir(), 'editls-full-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
      try {
        const rels = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
        for (const rel of rels) writeFileSync(path.join(mnt, rel), `old ${rel}\n`);
        const items = rels.map((rel) => {
          const abs = path.join(mnt, rel);
          const before = readFileSync(abs);
          return { absPath: abs, data: Buffer.alloc(300_000, 'n'), displayPath: rel, options: { within: mnt, expect: { stamp: fileStamp(statSync(abs, { bigint: true })), bytes: () => before } } };
        });
        const r = await writeFilesAtomic(items);
        expect(r.ok ? 'ok' : r.message).toMatch(/ENOSPC/);
        for (const rel of rels) expect(readFileSync(path.join(mnt, rel), 'utf8')).toBe(`old ${rel}\n`);
        expect(readdirSync(mnt).sort()).toEqual([...rels].sort());
      } finally {
        execFileSync('umount', [mnt]);
        rmSync(mnt, { recursive: true, force: true });
      }
    });

    it('holds at most one window of replaced files open: PUBLISH_WINDOW + 200 files written with descriptors to spare', async () => {
      const rels = Array.from({ length: PUBLISH_WINDOW + 200 }, (_, i) => `many/f${i}.ts`);
      for (const rel of rels) ws.write(rel, 'old\n');
      const before = openFds();
      let most = 0;
      let spinning = true;
      const spin = () => {
        most = Math.max(most, openFds() - before);
        if (spinning) setImmediate(spin);
      };
      setImmediate(spin);
      const r = await writeFilesAtomic(rels.map((rel) => item(rel, 'new\n')));
      spinning = false;
      expect(r.ok).toBe(true);
      for (const rel of rels) expect(ws.read(rel)).toBe('new\n');
      // One window of replaced files (counted until closed) plus the folder and a few of the threadpool's in flight.
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThan(PUBLISH_WINDOW + 80);
    });
  });
});
