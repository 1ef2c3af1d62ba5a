// Writing ahead (ApplyPort.writeAhead, editor/applyEdits.ts's DiskWriteAhead over disk/atomicWrite.ts's
// StagingAhead): a command's temp files written while it still computes, on real files through the
// real Context. The temp file written ahead is the one the apply renames into place (same inode);
// a file changed after its temp file was written refuses the whole command, and so does its folder
// swapped for a link (nothing written through it) and a disk that fills up; a command that ends
// without applying, a single change, a preview and a file open in the editor leave nothing behind.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StagingAhead, TEMP_PREFIX, WRITEBACK_BYTES } from '../../server/workspace/disk/atomicWrite.js';
import { syncOutcome } from '../../server/workspace/search/fileSystemSync.js';
import { DiskWriteAhead } from '../../server/workspace/editor/applyEdits.js';
import { OpenDocuments } from '../../server/workspace/editor/openDocuments.js';
import { SETTINGS_DEFAULTS } from '../../server/settings.js';
import type { PlannedChange, WriteAhead } from '../../server/commands/ports/apply.js';
import type { Context } from '../../server/commands/context.js';
import type { TextEdit } from 'vscode-languageserver';
import { toTextEdits } from '../../server/protocol/toProto.js';
import { undoCommand } from '../../server/commands/undo.js';
import { diskContext, plannedReplacements } from '../helpers/inProcessContext.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

function temps(ws: TempWorkspace): string[] {
  return readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((n) => path.basename(n).startsWith(TEMP_PREFIX));
}

/** Waits until `n` temp files are on disk (each written ahead), at most 10 s. */
async function tempsWritten(ws: TempWorkspace, n: number): Promise<string[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    const found = temps(ws);
    if (found.length >= n || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 5));
  }
}

function tree(n: number, line = (i: number) => `old ${i}\r\n`): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`d${i % 3}/f${i}.txt`] = `\uFEFF${line(i)}😀 tail`;
  return files;
}

/** A workspace of `n` files, their changes (old -> new) and a write ahead in `mode` holding them all. */
async function writingAhead(
  n: number,
  mode: 'auto' | 'disk' = 'auto',
  { keepText = true, requester = 'editor' } = {},
): Promise<{ ws: TempWorkspace; files: Record<string, string>; ctx: Context; changes: PlannedChange[]; ahead: WriteAhead; textEdits: TextEdit[][] }> {
  const files = tree(n);
  const ws = tempWorkspace(files);
  const ctx = diskContext(ws.root, requester);
  const changes = await plannedReplacements(ctx, Object.keys(files), 'old', 'new');
  // The TextEdits as built from the texts, before any is let go.
  const textEdits = changes.map((c) => toTextEdits(c.snapshot.text, c.edits, 'utf-16'));
  const ahead = ctx.writeAhead!(mode)!;
  for (const c of changes) ahead.add(c, keepText);
  return { ws, files, ctx, changes, ahead, textEdits };
}

/** Waits until every change but the first (held back: a single change is written whole) has let its texts go, at most 10 s. */
async function released(changes: readonly PlannedChange[]): Promise<boolean> {
  const end = Date.now() + 10_000;
  while (!changes.slice(1).every((c) => c.released !== undefined)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

describe.runIf(process.platform === 'linux')('writing ahead', () => {
  it.each([10, 80])('%i files: the temp files written ahead are the ones renamed into place; nothing visible changes before apply', async (n) => {
    const { ws, files, ctx, changes, ahead } = await writingAhead(n);
    try {
      const written = await tempsWritten(ws, n);
      expect(written).toHaveLength(n);
      for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(files[rel]);
      const inodes = new Map(written.map((t) => [path.join(path.dirname(t), /^\.editls-tmp-\d+-(.*)\.[0-9a-f]{12}$/.exec(path.basename(t))![1]!), statSync(path.join(ws.root, t)).ino]));
      const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(outcome.ok).toBe(true);
      for (const rel of Object.keys(files)) {
        expect(ws.read(rel)).toBe(files[rel]!.replace('old', 'new'));
        expect(statSync(ws.file(rel)).ino).toBe(inodes.get(rel));
      }
      expect(temps(ws)).toEqual([]);
    } finally {
      ws.cleanup();
    }
  });

  it('a file another program changed after its temp file was written ahead refuses the command: nothing changed, no temp file left', async () => {
    const { ws, files, ctx, changes, ahead } = await writingAhead(70);
    try {
      expect(await tempsWritten(ws, 70)).toHaveLength(70);
      appendFileSync(ws.file('d1/f40.txt'), ' another program');
      const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.kind).toBe('stale');
      for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(rel === 'd1/f40.txt' ? `${files[rel]} another program` : files[rel]);
      expect(temps(ws)).toEqual([]);
    } finally {
      ws.cleanup();
    }
  });

  it('a folder swapped for a symbolic link after its temp files were written ahead: nothing is written through the link, nothing changed, no temp file left', async () => {
    const { ws, files, ctx, changes, ahead } = await writingAhead(90);
    const moved = mkdtempSync(path.join(os.tmpdir(), 'editls-moved-'));
    try {
      expect(await tempsWritten(ws, 90)).toHaveLength(90);
      renameSync(ws.file('d1'), path.join(moved, 'd1'));
      symlinkSync(path.join(moved, 'd1'), ws.file('d1'));
      const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(outcome.ok).toBe(false);
      for (const rel of Object.keys(files)) {
        const now = rel.startsWith('d1/') ? readFileSync(path.join(moved, rel), 'utf8') : ws.read(rel);
        expect(now).toBe(files[rel]);
      }
      expect(temps(ws)).toEqual([]);
      expect(readdirSync(path.join(moved, 'd1')).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
    } finally {
      ws.cleanup();
      rmSync(moved, { recursive: true, force: true });
    }
  });

  it.runIf(process.geteuid?.() === 0)('a disk that fills up while the temp files are written ahead (a 1 MiB tmpfs): the command writes nothing, no temp file left', async () => {
    const mnt = mkdtempSync(path.join(os.tmpdir(), 'editls-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
    try {
      const rels = Array.from({ length: 70 }, (_, i) => `f${i}.txt`);
      for (const rel of rels) writeFileSync(path.join(mnt, rel), `old ${rel}\r\n`);
      const ctx = diskContext(mnt);
      const changes = await plannedReplacements(ctx, rels, 'old', 'n'.repeat(30_000));
      const ahead = ctx.writeAhead!('auto')!;
      for (const c of changes) ahead.add(c, true);
      const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(outcome.ok ? 'ok' : outcome.message).toMatch(/ENOSPC/);
      for (const rel of rels) expect(readFileSync(path.join(mnt, rel), 'utf8')).toBe(`old ${rel}\r\n`);
      expect(readdirSync(mnt).sort()).toEqual([...rels].sort());
    } finally {
      execFileSync('umount', [mnt]);
      rmSync(mnt, { recursive: true, force: true });
    }
  });

  it('a command that ends without applying (too_large, cancelled) removes every temp file written ahead, also those still being written', async () => {
    const { ws, files, ahead } = await writingAhead(120, 'disk');
    try {
      await ahead.close();
      expect(temps(ws)).toEqual([]);
      for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(files[rel]);
    } finally {
      ws.cleanup();
    }
  });

  it('writes nothing ahead for a single change, a preview or the editor, nor for a file open in the editor', async () => {
    const files = tree(4);
    const ws = tempWorkspace(files);
    try {
      const ctx = diskContext(ws.root);
      expect(ctx.writeAhead!('preview')).toBeUndefined();
      expect(ctx.writeAhead!('editor')).toBeUndefined();
      const [one] = await plannedReplacements(ctx, ['d0/f0.txt'], 'old', 'new');
      const ahead = ctx.writeAhead!('auto')!;
      ahead.add(one!, false);
      const inEditor = { ...one!, snapshot: { ...one!.snapshot, source: 'editor' as const } };
      ahead.add(inEditor, false);
      expect((ahead as DiskWriteAhead).started(one!)).toBeUndefined();
      expect((ahead as DiskWriteAhead).started(inEditor)).toBeUndefined();
      const outcome = await ctx.apply([one!], 'auto', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(outcome.ok).toBe(true);
      expect(ws.read('d0/f0.txt')).toBe(files['d0/f0.txt']!.replace('old', 'new'));
      expect(temps(ws)).toEqual([]);
    } finally {
      ws.cleanup();
    }
  });

  describe('changes that let their texts go once their temp files are written (WriteAhead.add with keepText false)', () => {
    /** The TextEdits of an outcome's edit (its `changes`: this client takes no documentChanges), by file URI. */
    function editsByUri(edit: unknown): Map<string, TextEdit[]> {
      return new Map(Object.entries((edit as { changes?: Record<string, TextEdit[]> }).changes ?? {}));
    }

    it('the same files, the same TextEdits in the result (BOM, CRLF, emoji), the texts no longer readable, and editls.undo restores every byte', async () => {
      const { ws, files, ctx, changes, ahead, textEdits } = await writingAhead(60, 'auto', { keepText: false });
      try {
        expect(await released(changes)).toBe(true);
        expect(changes[0]!.released).toBeUndefined();
        expect(() => changes[5]!.snapshot.text).toThrow(/let go/);
        expect(() => changes[5]!.newText).toThrow(/let go/);
        expect(changes[5]!.released).toMatchObject({ oldLength: changes[5]!.released!.newLength, inverse: [{ newText: 'old' }] });
        const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
        await ahead.close();
        expect(outcome.ok ? 'ok' : outcome.message).toBe('ok');
        if (!outcome.ok) return;
        const shown = editsByUri(outcome.edit);
        changes.forEach((c, i) => expect(shown.get(c.snapshot.uri)).toEqual(textEdits[i]));
        for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(files[rel]!.replace('old', 'new'));
        expect(temps(ws)).toEqual([]);
        const undone = await undoCommand.execute(ctx, {});
        expect(undone.ok ? 'ok' : undone.message).toBe('ok');
        for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(files[rel]);
      } finally {
        ws.cleanup();
      }
    });

    it("an agent's changes (maxResultEdits 0) keep no TextEdits; a file edited by hand after the command is not undone over", async () => {
      const { ws, files, ctx, changes, ahead } = await writingAhead(30, 'auto', { keepText: false, requester: 'agent:test' });
      try {
        expect(await released(changes)).toBe(true);
        expect(changes.slice(1).every((c) => c.released!.textEdits === undefined)).toBe(true);
        const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead });
        await ahead.close();
        expect(outcome.ok ? 'ok' : outcome.message).toBe('ok');
        const rel = 'd1/f7.txt';
        writeFileSync(ws.file(rel), `${ws.read(rel)} by hand`);
        const undone = await undoCommand.execute(ctx, {});
        expect(undone.ok).toBe(false);
        expect(ws.read(rel)).toBe(`${files[rel]!.replace('old', 'new')} by hand`);
        expect(ws.read('d0/f3.txt')).toBe(files['d0/f3.txt']!.replace('old', 'new'));
      } finally {
        ws.cleanup();
      }
    });

    it('a file changed by another program before its rename: the files already renamed are restored to their exact bytes from what was written', async () => {
      const { ws, files, ctx, changes, ahead } = await writingAhead(70, 'auto', { keepText: false });
      try {
        expect(await released(changes)).toBe(true);
        const outcome = await ctx.apply(changes, 'auto', { confirm: false, label: 'test', ahead, whileWriting: () => appendFileSync(ws.file('d1/f40.txt'), ' another program') });
        await ahead.close();
        expect(outcome.ok ? 'ok' : outcome.message).toMatch(/d1\/f40\.txt changed on disk .*already replaced were restored to their exact bytes, so nothing changed/);
        for (const rel of Object.keys(files)) expect(ws.read(rel)).toBe(rel === 'd1/f40.txt' ? `${files[rel]} another program` : files[rel]);
        expect(temps(ws)).toEqual([]);
      } finally {
        ws.cleanup();
      }
    });
  });
});

describe.runIf(process.platform === 'linux')("StagingAhead's background writeback", () => {
  it('asks the file system to take the data after each WRITEBACK_BYTES written ahead, one at a time, and not once closed', async () => {
    const n = 12;
    const size = 4 * 1024 * 1024;
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`f${i}.bin`] = 'x';
    const ws = tempWorkspace(files);
    try {
      const calls: { folders: readonly string[]; bytes: number; outcome?: string }[] = [];
      let running = 0;
      let most = 0;
      const inFlight: Promise<unknown>[] = [];
      // The real syncfs (search/fileSystemSync.ts), its calls recorded.
      const staging = new StagingAhead((folders, bytes) => {
        const call: (typeof calls)[number] = { folders, bytes };
        calls.push(call);
        most = Math.max(most, ++running);
        const done = syncOutcome(folders, bytes).finally(() => running--);
        inFlight.push(done.then((outcome) => (call.outcome = outcome)));
        return done;
      });
      const stages = Object.keys(files).map((rel, i) => staging.stage({ absPath: ws.file(rel), data: Buffer.alloc(size, 48 + i), displayPath: rel, options: { within: ws.root } }));
      for (const s of stages) expect((await s.done).ok).toBe(true);
      await Promise.all(inFlight);
      // 48 MB written: at least one writeback (after the first 16 MB), at most three, one at a time,
      // each for the bytes written since the last, of the workspace's folder.
      expect(calls.length).toBeGreaterThanOrEqual(1);
      expect(calls.length).toBeLessThanOrEqual(Math.floor((n * size) / WRITEBACK_BYTES));
      expect(most).toBe(1);
      for (const c of calls) {
        expect(c.folders).toEqual([ws.root]);
        expect(c.bytes).toBeGreaterThanOrEqual(WRITEBACK_BYTES);
        expect(['synced', 'skipped']).toContain(c.outcome);
      }
      expect(calls.reduce((sum, c) => sum + c.bytes, 0)).toBeLessThanOrEqual(n * size);
      expect(await staging.settleWriteback()).toBe(false);
      // Closed: the temp files removed, the files untouched, and no writeback asked for after.
      const asked = calls.length;
      await staging.close();
      expect((await staging.stage({ absPath: ws.file('f0.bin'), data: Buffer.alloc(WRITEBACK_BYTES + 1), displayPath: 'f0.bin', options: { within: ws.root } }).done).ok).toBe(false);
      expect(calls.length).toBe(asked);
      expect(temps(ws)).toEqual([]);
      expect(ws.read('f3.bin')).toBe('x');
    } finally {
      ws.cleanup();
    }
  });

  it('after a writeback that failed, the batch fsyncs each temp file (not the file system) and writes every file', async () => {
    const files: Record<string, string> = {};
    // 70 files (a batch that would sync its file system: 64 or more) of 256 KiB: a writeback after the 64th.
    for (let i = 0; i < 70; i++) files[`d${i % 4}/f${i}.txt`] = `old ${i}\n` + 'x'.repeat(256 * 1024);
    const ws = tempWorkspace(files);
    try {
      const ctx = diskContext(ws.root);
      const changes = await plannedReplacements(ctx, Object.keys(files), 'old', 'new');
      let asked = 0;
      // A sync that saw a write-back error: a later sync of the file system would not report it.
      const failing = async () => (asked++, 'failed' as const);
      const logs: string[] = [];
      const ahead = new DiskWriteAhead({ settings: { ...SETTINGS_DEFAULTS }, documents: new OpenDocuments(() => 'utf-16'), encoding: 'utf-16', log: (m) => logs.push(m), writeback: failing }, 'disk');
      for (const c of changes) ahead.add(c, false);
      // The command still computing while its temp files are written (and the writeback fails).
      for (const c of changes) {
        const item = await ahead.started(c);
        expect(item?.ok && (await item.write.ahead?.done)?.ok).toBe(true);
      }
      const outcome = await ctx.apply(changes, 'disk', { confirm: false, label: 'test', ahead });
      await ahead.close();
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(outcome.ok, JSON.stringify(outcome).slice(0, 300)).toBe(true);
      expect(logs).toEqual(['a background writeback (sync -f) of the temporary files failed: each is fsynced instead']);
      for (const [rel, text] of Object.entries(files)) expect(ws.read(rel)).toBe(text.replace('old', 'new'));
      expect(temps(ws)).toEqual([]);
    } finally {
      ws.cleanup();
    }
  });
});
