// Neovim 0.7.2 (Debian) headless against dist/editls.js, with the shipped client-examples/neovim
// config: every scenario of issue 5 asserted on buffer and disk text (never on `applied` alone),
// plus the example's user commands (:EditlsReplace, :EditlsStrReplace, :EditlsSearch, :EditlsSymbols).
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, SERVES, editorTest, hasCommand, runDriver, workspace } from './harness.js';

const ORIGINAL_A = FIXTURE['a.txt']!;

describe('Neovim 0.7 (headless)', () => {
  editorTest('every scenario in a real Neovim', hasCommand('nvim') ? [] : ['nvim'], async () => {
    const ws = workspace();
    try {
      const run = await runDriver('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${path.join(EDITORS_DIR, 'nvim-driver.lua')}`], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr}`);
      expect(o.attached).toBe(true);
      expect(o.root_dir).toBe(ws.root);

      // 1. edit in an open buffer on the é/😀 line (utf-16 columns), disk untouched, summary shown
      expect(o['s1.status']).toBe('applied');
      expect(o['s1.via']).toBe('editor');
      expect(o['s1.buffer']).toBe('hello world\nsecond line\nxé😀 TARGET here\n');
      expect(o['s1.disk']).toBe(ORIGINAL_A);
      expect(o['s1.notified']).toBe(true);

      // 2. a user edit, then a command computed on it
      expect(o['s2.buffer']).toBe('hello world\nsecond line TYPED\nxé😀 TARGET here\n');

      // 3. a closed file is written to disk and leaves no buffer
      expect(o['s3.via']).toBe('disk');
      expect(o['s3.disk']).toBe('b line ONE\n');
      expect(o['s3.buffer']).toBeNull();
      expect(o['s3.modified']).toBe(false);

      // 4. a preview changes nothing, shows hints, then its code action applies it
      expect(o['s4.status']).toBe('preview');
      expect(o['s4.previewId']).toEqual(expect.any(String));
      expect(o['s4.buffer_after_preview']).toBe('hello world\nsecond line TYPED\nxé😀 TARGET here\n');
      expect(o['s4.disk_after_preview']).toBe(ORIGINAL_A);
      expect(o['s4.diagnostics']).toBe(1);
      expect(o['s4.titles']).toContain(`editls: discard previewed edit ${o['s4.previewId']}`);
      expect(o['s4.code_action_applied']).toBe(true);
      expect(o['s4.buffer']).toBe('HELLO world\nsecond line TYPED\nxé😀 TARGET here\n');
      expect(o['s4.diagnostics_after']).toBe(0);

      // 5. an error reaches the client with its kind and a readable message
      expect(o['s5.error']).toMatchObject({ code: -32803, kind: 'not_found' });
      expect(o['s5.error'].message).toMatch(/old_string not found in a\.txt/);

      // 6. one undo reverts one command
      expect(o['s6.after_command']).toBe('HELLO world\nsEcond linE TYPED\nxé😀 TARGET hErE\n');
      expect(o['s6.after_one_undo']).toBe(o['s6.before']);

      // 7. searchAndReplace in a line range via :EditlsReplace
      if (SERVES.searchAndReplace) expect(o['s7.buffer']).toBe('HELLO world\nsecond LINE TYPED\nxé😀 TARGET here\n');
      // 8. replaceRange with UTF-16 columns on the emoji line
      if (SERVES.replaceRange) expect(o['s8.buffer']).toBe('HELLO world\nsecond LINE TYPED\nxé😀 target here\n');

      // 9. :'<,'>EditlsStrReplace on a visual selection
      expect(o['s9.default']).toBe('world');
      expect(o['s9.buffer']).toBe('HELLO World\nsecond LINE TYPED\nxé😀 target here\n');

      // 9b. :EditlsDiscardPreview, then :EditlsApplyPreview, on the latest preview
      expect(o['s9b.preview']).toEqual(expect.any(String));
      expect(o['s9b.diagnostics']).toBe(1);
      expect(o['s9b.discarded']).toBe(true);
      expect(o['s9b.buffer_after_discard']).toBe('HELLO World\nsecond LINE TYPED\nxé😀 target here\n');
      expect(o['s9b.applied']).toBe(true);
      expect(o['s9b.buffer']).toBe('HELLO Earth\nsecond LINE TYPED\nxé😀 target here\n');

      // 10. the no-input "remove trailing whitespace" code action
      expect(o['s10.applied']).toBe(true);
      expect(o['s10.buffer']).toBe('trailing\nspaces\nnone\n');

      // 11. a search sees the unsaved buffer (quickfix list from :EditlsSearch)
      if (SERVES.searchFiles) {
        expect(o['s11.items']).toEqual([expect.objectContaining({ file: 'a.txt', lnum: 4, text: 'unsaved marker line' })]);
        expect(o['s11.disk']).not.toContain('unsaved marker');
      }
      // 12. a workspace symbol through :EditlsSymbols
      if (SERVES.workspaceSymbol) expect(o['s12.items']).toEqual([expect.objectContaining({ file: 'lib.js', lnum: 2 })]);

      // 13. normalizeLineEndings on mixed endings (fileformat=unix: the CRs live in the lines): the
      //     copy stays exact, the next edit succeeds, the action is gone after saving; to CRLF is
      //     refused (Neovim turns a \r in an edit into a line break) and changes nothing
      expect(o['s13.fileformat']).toBe('unix');
      expect(o['s13.titles_before']).toContain('editls: normalise line endings to LF (1 line differs)');
      expect(o['s13.normalize']).toEqual({ status: 'applied', notes: null });
      expect(o['s13.buffer_normalized']).toBe('one\ntwo\nthree\nfour\n');
      expect(o['s13.edit']).toEqual({ status: 'applied', notes: null });
      expect(o['s13.buffer']).toBe('one\ntwo\nTHREE\nfour\n');
      expect(o['s13.disk']).toBe('one\ntwo\nTHREE\nfour\n');
      expect(o['s13.titles_after_save']).not.toContainEqual(expect.stringMatching(/normalise line endings/));
      expect(o['s13.crlf_normalize']).toMatchObject({ error: 'apply_rejected' });
      expect(o['s13.crlf_normalize'].message).toMatch(/this editor \(Neovim\) turns carriage returns in edits into line breaks/);
      expect(o['s13.crlf_buffer']).toBe(FIXTURE['crlf.txt']);
      // Not offered where it cannot work, and the advice given makes every line CRLF (no \r\r\n).
      expect((o['s13.crlf_titles'] as string[]).some((t) => /normalise line endings/.test(t))).toBe(false);
      expect(o['s13.crlf_advice']).toBe(':%s/\\r$//e | set fileformat=dos | write');
      expect(o['s13.crlf_after_advice']).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');

      // 14. a 5-match searchAndReplace in an open buffer, 20 times: no wrong answer, buffer right each time
      expect(o['s14.runs']).toBe(20);
      expect(o['s14.answers']).toEqual([]);
      expect(o['s14.wrong']).toBe(0);
      expect(o['s14.bad_buffer']).toBe(0);

      // every buffer left modified is the user's to save; nothing else was written
      expect(ws.read('a.txt')).toBe(ORIGINAL_A);
    } finally {
      ws.cleanup();
    }
  });
});
