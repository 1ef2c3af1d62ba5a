// Emacs 28 + lsp-mode 8.0.0 headless: the shipped editls.el as a new user meets it (issue 15, "The
// editors"): editls still serves a buffer after revert-buffer, M-x editls-symbols lands on the
// definition's line (lsp-mode 8's own xref-find-apropos is one line early), the preview hint's wording.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, editorTest, hasCommand, hasElpaPackage, runDriver, workspace } from './harness.js';

describe('Emacs + lsp-mode 8 (headless): the client example for a new user', () => {
  const missing = [...(hasCommand('emacs') ? [] : ['emacs']), ...(hasElpaPackage('lsp-mode') ? [] : ['elpa-lsp-mode'])];
  editorTest('revert-buffer, editls-symbols, preview hints', missing, async () => {
    const ws = workspace();
    try {
      const run = await runDriver('emacs', ['--batch', '-Q', '-l', path.join(EDITORS_DIR, 'lspmode-newuser-driver.el')], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);
      expect(o.connected).toBe(true);
      // after revert-buffer lsp-mode (and editls with it) is back
      expect(o['revert.lsp-mode']).toBe(true);
      expect(o['revert.connected']).toBe(true);
      expect(o['revert.edit']).toBe('applied');
      expect(o['revert.buffer']).toBe('hello world\n2nd line\nxé😀 target here\n');
      // the preview hint names the whole word; nothing changed yet
      expect(o['hint.ready']).toBe(true);
      expect((o['hint.texts'] as string[]).join('\n')).toContain('replace "world" with "word"');
      expect(o['hint.buffer']).toBe('hello world\n2nd line\nxé😀 target here\n');
      // lsp-mode 8.0.0's xref for workspace symbols is one line early (its bug: 0-based line to
      // xref-make-file-location); editls-symbols lands on the definition
      expect(o['xref.line']).toBe(1);
      expect(o['symbols.file']).toBe('lib.js');
      expect(o['symbols.line']).toBe(2);
      expect(o['symbols.text']).toBe('function fooBarBaz(a) {');
    } finally {
      ws.cleanup();
    }
  });
});
