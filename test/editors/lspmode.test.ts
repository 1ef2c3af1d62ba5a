// Emacs 28 + lsp-mode 8.0.0 (Debian) headless against dist/editls.js, registered by the shipped
// client-examples/emacs/editls.el: every scenario of issue 5 asserted on buffer and disk text.
// lsp-mode 8 counts columns in code points without saying so; the é/😀 line shows editls answers in utf-32.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, SERVES, editorTest, hasCommand, hasElpaPackage, runDriver, workspace } from './harness.js';

const ORIGINAL_A = FIXTURE['a.txt']!;

describe('Emacs + lsp-mode 8 (headless)', () => {
  const missing = [...(hasCommand('emacs') ? [] : ['emacs']), ...(hasElpaPackage('lsp-mode') ? [] : ['elpa-lsp-mode'])];
  editorTest('every scenario in a real Emacs with lsp-mode', missing, async () => {
    const ws = workspace();
    try {
      const run = await runDriver('emacs', ['--batch', '-Q', '-l', path.join(EDITORS_DIR, 'lspmode-driver.el')], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);
      expect(o.connected).toBe(true);
      expect(o['lsp-mode-version']).toBe('8.0.0');
      expect(o.prompted).toBeUndefined();
      // the example turns off lsp-mode's "run a lone code action without asking"
      expect(o['auto-execute']).toBe(false);

      // 1. edit in an open buffer on the é/😀 line (code-point columns), disk untouched, summary shown
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

      // 4. a preview changes nothing, lsp-mode holds its hint, its code action applies it
      expect(o['s4.status']).toBe('preview');
      expect(o['s4.buffer_after_preview']).toBe('hello world\nsecond line TYPED\nxé😀 TARGET here\n');
      expect(o['s4.disk_after_preview']).toBe(ORIGINAL_A);
      expect(o['s4.diagnostics']).toBe(1);
      expect(o['s4.titles']).toEqual([
        `editls: apply previewed edit ${o['s4.previewId']} (editls.proposeStrReplace, 1 change in a.txt)`,
        `editls: discard previewed edit ${o['s4.previewId']}`,
        // the buffer still holds what the last editls command left, so its undo is offered too
        'editls: undo last editls change (editls.edit a.txt)',
      ]);
      expect(o['s4.buffer']).toBe('HELLO world\nsecond line TYPED\nxé😀 TARGET here\n');
      expect(o['s4.diagnostics_after']).toBe(0);

      // 5. an error reaches the client with its kind (and plain lsp-request shows its message)
      expect(o['s5.error']).toMatchObject({ kind: 'not_found', code: -32803 });
      expect(o['s5.error'].message).toMatch(/old_string not found in a\.txt/);
      expect(o['s5.raw']).toMatch(/old_string not found in a\.txt/);

      // 6. one undo reverts one command
      expect(o['s6.after_command']).toBe('HELLO world\nsEcond linE TYPED\nxé😀 TARGET hErE\n');
      expect(o['s6.after_one_undo']).toBe(o['s6.before']);

      // 7-8. searchAndReplace on the region's lines, replaceRange in UTF-16 columns landing right in code points
      if (SERVES.searchAndReplace) expect(o['s7.buffer']).toBe('HELLO world\nsecond LINE TYPED\nxé😀 TARGET here\n');
      if (SERVES.replaceRange) expect(o['s8.buffer']).toBe('HELLO world\nsecond LINE TYPED\nxé😀 target here\n');

      // 10. the no-input "remove trailing whitespace" code action (offered alone here: the example
      //     makes lsp-mode ask instead of running it straight away)
      expect(o['s10.titles']).toEqual(['editls: remove trailing whitespace in this file (2 lines)']);
      expect(o['s10.buffer']).toBe('trailing\nspaces\nnone\n');

      // 11. a search sees the unsaved buffer
      if (SERVES.searchFiles) {
        expect(o['s11.matches']).toEqual([expect.objectContaining({ path: 'a.txt', line: 4, text: 'unsaved marker line' })]);
        expect(o['s11.disk']).not.toContain('unsaved marker');
      }
      // 12. a workspace symbol: the SymbolInformation (0-based line 1 = line 2), and what xref shows;
      //     lsp-mode 8 passes the 0-based line to xref unchanged, so its xref line is one too small.
      if (SERVES.workspaceSymbol) {
        expect(o['s12.raw']).toEqual([{ name: 'fooBarBaz', file: 'lib.js', line: 1 }]);
        expect(o['s12.items']).toEqual([{ file: 'lib.js', line: 1 }]);
      }

      // 13. normalizeLineEndings on mixed endings (the buffer is -unix, CRs live in it as ^M): the copy
      //     stays exact, the next edit succeeds, the action is gone after saving
      expect(o['s13.coding']).toMatch(/-unix$/);
      expect(o['s13.titles_before']).toContain('editls: normalise line endings to LF (1 line differs)');
      expect(o['s13.normalize']).toMatchObject({ status: 'applied' });
      expect(o['s13.buffer_normalized']).toBe('one\ntwo\nthree\nfour\n');
      expect(o['s13.edit']).toMatchObject({ status: 'applied' });
      expect(o['s13.buffer']).toBe('one\ntwo\nTHREE\nfour\n');
      expect(o['s13.disk']).toBe('one\ntwo\nTHREE\nfour\n');
      expect(o['s13.titles_after_save']).not.toContainEqual(expect.stringMatching(/normalise line endings/));
      // lsp-mode drops \r from edits: normalising to CRLF is refused and changes nothing
      expect(o['s13.crlf_normalize']).toMatchObject({ error: 'apply_rejected' });
      expect(o['s13.crlf_normalize'].message).toMatch(/this editor \(emacs\) drops carriage returns from edits/);
      expect(o['s13.crlf_buffer']).toBe(FIXTURE['crlf.txt']);
      // Not offered where it cannot work, and the advice given makes every line CRLF (no \r\r\n).
      expect((o['s13.crlf_titles'] as string[]).some((t) => /normalise line endings/.test(t))).toBe(false);
      expect(o['s13.crlf_advice']).toMatch(/^\(progn /);
      expect(o['s13.crlf_after_advice']).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');

      // 14. a 5-match searchAndReplace in an open buffer, 5 times: no wrong answer, buffer right each time
      expect(o['s14.answers']).toEqual([]);
      expect(o['s14.wrong']).toBe(0);
      expect(o['s14.bad_buffer']).toBe(0);
      expect(o['s14.notes']).toEqual([]); // lsp-mode reports each change at once

      expect(ws.read('a.txt')).toBe(ORIGINAL_A);
    } finally {
      ws.cleanup();
    }
  });
});
