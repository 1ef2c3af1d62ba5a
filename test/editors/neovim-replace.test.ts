// Neovim 0.7.2 headless: editls.replaceInFiles through the shipped :EditlsReplaceAll (preview in the
// quickfix list, an unsaved buffer included, nothing changed), :EditlsApplyPreview (open buffers
// changed unsaved, the closed file written to disk) and one `u` per buffer reverting its part.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, editorTest, hasCommand, runDriver, workspace } from './harness.js';

describe('Neovim 0.7 (headless): replace in files', () => {
  editorTest(':EditlsReplaceAll, :EditlsApplyPreview and undo', hasCommand('nvim') ? [] : ['nvim'], async () => {
    const ws = workspace();
    ws.write('b.txt', 'World one, world two\n');
    ws.write('c.txt', 'closed World\n');
    try {
      const run = await runDriver('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${path.join(EDITORS_DIR, 'nvim-replace-driver.lua')}`], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr}`);
      expect(o.attached).toBe(true);
      const aBefore = 'hello world\nsecond line world\nxé😀 target here\n';
      expect(o['a.before']).toBe(aBefore);
      // 0. -m 2 with three files to change: refused, nothing changed; -m lots: refused by the command
      expect(o['limited.refused']).toBe(true);
      expect(o['limited.preview']).toBeNull();
      expect(o['limited.a']).toBe(aBefore);
      expect(o['limited.bad']).toContain('-m takes a whole number');
      // 1. preview: every match in the quickfix list (the unsaved line of a.txt included), nothing changed
      expect(o['preview.ready']).toBe(true);
      expect(o['preview.items']).toEqual([
        { file: 'a.txt', lnum: 1, col: 7 },
        { file: 'a.txt', lnum: 2, col: 13 },
        { file: 'b.txt', lnum: 1, col: 1 },
        { file: 'b.txt', lnum: 1, col: 12 },
        { file: 'c.txt', lnum: 1, col: 8 },
      ]);
      expect(o['preview.id']).toEqual(expect.any(String));
      expect(o['preview.a']).toBe(aBefore);
      expect(o['preview.disk_c']).toBe('closed World\n');
      // 2. applied: buffers unsaved, the closed file on disk, with the case of each match preserved
      expect(o.applied).toBe(true);
      expect(o['apply.a']).toBe('hello planet\nsecond line planet\nxé😀 target here\n');
      expect(o['apply.b']).toBe('Planet one, planet two\n');
      expect(o['apply.disk_a']).toBe(FIXTURE['a.txt']);
      expect(o['apply.disk_c']).toBe('closed Planet\n');
      expect(o['apply.a_modified']).toBe(true);
      // 3. one undo per buffer
      expect(o['undo.a']).toBe(aBefore);
      expect(o['undo.b_equals_before']).toBe(true);
      expect(ws.read('b.txt')).toBe('World one, world two\n');
    } finally {
      ws.cleanup();
    }
  });
});
