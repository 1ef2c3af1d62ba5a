// Neovim 0.7.2 headless: the shipped client example as a new user meets it (issue 15, "The editors"):
// :luafile + require, selections replaced by their range (one of five equal words; V lines through a
// scratch buffer, not joined), :EditlsReplace! previews, errors shown once with their kind on a line
// that fits, :EditlsSymbols from the quickfix window, :'<,'>EditlsCodeAction on 0.7.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, editorTest, hasCommand, runDriver, workspace } from './harness.js';

describe('Neovim 0.7 (headless): the client example for a new user', () => {
  editorTest('selections, previews, messages, symbols and range code actions', hasCommand('nvim') ? [] : ['nvim'], async () => {
    const ws = workspace();
    ws.write('words.txt', 'w w w w w\n');
    ws.write('lines.txt', 'one\ntwo\nthree\nfour\n');
    ws.write('dos.txt', 'a\r\nb\r\nc\r\n');
    ws.write('emoji.txt', 'x😀 é w w\n');
    try {
      const run = await runDriver('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${path.join(EDITORS_DIR, 'nvim-newuser-driver.lua')}`], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr}`);
      expect(o.cmd_errors).toEqual([]);
      expect(o.luafile_require).toBe(true);
      expect(o.attached).toBe(true);
      // the third of five equal words, by its range
      expect(o['word.buffer']).toBe('w w THIRD w w\n');
      // V over lines 2-3: a scratch buffer with those lines; :w replaces them, lines stay lines
      expect(o['scratch.opened']).toBe(true);
      expect(o['scratch.text']).toEqual(['two', 'three']);
      expect(o['lines.buffer']).toBe('one\nTWO\ntwo and a half\nTHREE\nfour\n');
      expect(o['scratch.closed']).toBe(true);
      expect(o['dos.fileformat']).toBe('dos');
      expect(ws.read('dos.txt')).toBe('A\r\nB\r\nc\r\n');
      expect(o['emoji.buffer']).toBe('x😀 é w LAST\n');
      // :EditlsReplace! is a preview
      expect(o['preview.id']).toEqual(expect.any(String));
      expect(o['preview.buffer']).toBe('hello world\nsecond line\nxé😀 target here\n');
      expect(o['preview.hints'].join('\n')).toContain('replace "hello" with "howdy"');
      expect(o['preview.applied']).toBe('howdy world\nsecond line\nxé😀 target here\n');
      // one message per error, with its kind, fitting the command line; the full text is kept
      const errorNotes = (o['error.notes'] as string[]).filter((n) => n.includes('not_found') || n.includes('-32'));
      expect(errorNotes).toHaveLength(1);
      expect(o['error.notes'].filter((n: string) => n.startsWith('default-handler'))).toEqual([]);
      for (const w of o['error.widths'] as number[]) expect(w).toBeLessThan(o['error.echospace']);
      expect(o['error.full']).toContain('not_found');
      expect(o['error.full'].length).toBeGreaterThan(o['error.echospace']);
      // a code action's command: its kind, not "-32803"
      expect(o['action_error.notes']).toHaveLength(1);
      expect(o['action_error.notes'][0]).toContain('(not_found)');
      expect(o['action_error.notes'][0]).not.toContain('-32803');
      // symbols from the quickfix window
      expect(o['symbols.from_buftype']).toBe('quickfix');
      expect(o['symbols.items']).toEqual([{ file: 'lib.js', lnum: 2, text: expect.stringContaining('fooBarBaz') }]);
      // range code actions for the selected lines
      expect(o['code_action.titles']).toEqual(expect.arrayContaining([expect.stringContaining('trailing whitespace')]));
    } finally {
      ws.cleanup();
    }
  });
});
