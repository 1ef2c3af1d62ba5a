// Emacs 28 + Eglot 1.9 headless: editls.replaceInFiles through the shipped M-x editls-replace-in-files
// (a preview shown as a diff, an unsaved buffer included, nothing changed), editls-apply-preview (the
// open buffer through Eglot, closed files on disk) and one undo reverting the buffer's part.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, editorTest, hasCommand, hasElpaPackage, runDriver, workspace } from './harness.js';

describe('Emacs + Eglot 1.9 (headless): replace in files', () => {
  const missing = [...(hasCommand('emacs') ? [] : ['emacs']), ...(hasElpaPackage('eglot') ? [] : ['elpa-eglot'])];
  editorTest('editls-replace-in-files, editls-apply-preview and undo', missing, async () => {
    const ws = workspace();
    ws.write('b.txt', 'World one, world two\n');
    ws.write('c.txt', 'closed WORLD\n');
    try {
      // The answers to C-u M-x editls-replace-in-files's prompts: search, replace, flags, max files.
      const typed = 'world\nplanet\nim\n2\n';
      const run = await runDriver('emacs', ['--batch', '-Q', '-l', path.join(EDITORS_DIR, 'eglot-replace-driver.el')], ws, undefined, typed);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);
      expect(o.connected).toBe(true);
      const aBefore = 'hello world\nsecond line world\nxé😀 target here\n';
      expect(o['a.before']).toBe(aBefore);
      // 0. the interactive command with flags i and m 2: 3 files would change, refused, nothing changed
      expect(o['limited.message']).toContain('more than max_files (2)');
      expect(o['limited.preview']).toBe(false);
      expect(o['limited.a']).toBe(aBefore);
      // 1. preview: the diff names every file (the unsaved line of a.txt included); nothing changed
      expect(o['preview.id']).toEqual(expect.any(String));
      for (const line of ['+hello planet', '+second line planet', '+Planet one, planet two', '+closed PLANET']) expect(o['preview.diff']).toContain(line);
      expect(o['preview.a']).toBe(aBefore);
      expect(o['preview.disk_c']).toBe('closed WORLD\n');
      // 2. applied: the buffer unsaved, closed files on disk, each match's case kept
      expect(o['apply.a']).toBe('hello planet\nsecond line planet\nxé😀 target here\n');
      expect(o['apply.a_modified']).toBe(true);
      expect(o['apply.disk_a']).toBe(FIXTURE['a.txt']);
      expect(o['apply.disk_b']).toBe('Planet one, planet two\n');
      expect(o['apply.disk_c']).toBe('closed PLANET\n');
      // 3. one undo reverts the buffer's part
      expect(o['undo.a']).toBe(aBefore);
    } finally {
      ws.cleanup();
    }
  });
});
