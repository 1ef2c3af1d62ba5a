// A batch whose rollback cannot finish is journalled (issue 24, item 2: "where a rollback itself fails,
// say precisely which files hold what, and journal it so undo works"): Context.apply on real files,
// the real batch writer, the real undo command. PUBLISH_WINDOW + 10 files in two folders: after the
// first PUBLISH_WINDOW are renamed (one window) the first folder is made immutable (root: chattr +i)
// and a file of the second folder was changed by another program, so the batch fails there, restores
// the second folder and cannot restore the first. The failure names those files; once the folder is
// writable again, editls.undo reverts exactly them.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { undoCommand } from '../../server/commands/undo.js';
import { PUBLISH_WINDOW } from '../../server/workspace/disk/atomicWrite.js';
import { diskContext, plannedReplacements } from '../helpers/inProcessContext.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

describe.runIf(process.platform === 'linux' && process.geteuid?.() === 0)('a batch that cannot be rolled back whole', () => {
  it('names the files that hold the new text, journals exactly them, and editls.undo reverts them', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < PUBLISH_WINDOW; i++) files[`a/f${i}.txt`] = `old a ${i}\n`;
    for (let i = 0; i < 10; i++) files[`b/f${i}.txt`] = `old b ${i}\n`;
    const ws = tempWorkspace(files);
    const ctx = diskContext(ws.root);
    const changes = await plannedReplacements(ctx, Object.keys(files), 'old', 'new');
    let spinning = true;
    const watch = () => {
      if (!spinning) return;
      if (ws.read(`a/f${PUBLISH_WINDOW - 1}.txt`) === `new a ${PUBLISH_WINDOW - 1}\n`) {
        spinning = false;
        execFileSync('chattr', ['+i', ws.file('a')]);
        return;
      }
      setImmediate(watch);
    };
    try {
      const outcome = await ctx.apply(changes, 'disk', {
        confirm: false,
        label: 'test batch',
        whileWriting: () => {
          appendFileSync(ws.file('b/f5.txt'), 'another program\n');
          setImmediate(watch);
        },
      });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      const held = Array.from({ length: PUBLISH_WINDOW }, (_, i) => `a/f${i}.txt`);
      expect(outcome.data?.partiallyApplied).toEqual(held);
      expect(outcome.message).toMatch(new RegExp(`b/f5\\.txt changed on disk .*of the ${PUBLISH_WINDOW + 5} files already replaced, ${PUBLISH_WINDOW} could not be restored and hold the new text: a/f0\\.txt \\(`));
      for (let i = 0; i < 10; i++) expect(ws.read(`b/f${i}.txt`)).toBe(i === 5 ? 'old b 5\nanother program\n' : `old b ${i}\n`);
      expect(ws.read('a/f7.txt')).toBe('new a 7\n');
      const entry = ctx.journal.latest();
      expect(entry?.files.map((f) => f.relPath)).toEqual(held);
    } finally {
      spinning = false;
      execFileSync('chattr', ['-i', ws.file('a')]);
    }
    const undone = await undoCommand.execute(ctx, {});
    expect(undone.ok ? 'ok' : undone.message).toBe('ok');
    for (let i = 0; i < PUBLISH_WINDOW; i++) expect(ws.read(`a/f${i}.txt`)).toBe(`old a ${i}\n`);
    ws.cleanup();
  });
});
