// Neovim 0.7.2 headless: :EditlsSymbols and :EditlsSearch put each label on the line it names (issue
// 26, item 4). Neovim's locations_to_items sorts locations by file and line; the client example used
// to label the sorted items in editls's order, so on a tree where editls ranks a symbol of a later
// file first, "[Function] target" opened another symbol's line.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, editorTest, hasCommand, runDriver, workspace } from './harness.js';

describe('Neovim 0.7 (headless): quickfix lists from editls', () => {
  editorTest('each symbol and search item names the line it opens', hasCommand('nvim') ? [] : ['nvim'], async () => {
    const ws = workspace();
    // editls ranks the exact name (in zzz/) before the prefix matches (in aaa/ and mmm/): not path order.
    ws.write('aaa/first.js', 'const x = 1;\nfunction targetLonger() {}\n// needle one\n');
    ws.write('mmm/middle.js', '// needle two\nfunction targetMiddle() {}\n');
    ws.write('zzz/last.js', 'function target() {}\n// needle three\n');
    try {
      const run = await runDriver('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${path.join(EDITORS_DIR, 'nvim-quickfix-driver.lua')}`], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr}`);
      expect(o.symbols_ready).toBe(true);
      const symbols = o.symbols as { file: string; lnum: number; text: string; line: string }[];
      // editls's ranking, kept: the exact match first.
      expect(symbols.map((s) => s.text)).toEqual(['[Function] target', '[Function] targetLonger', '[Function] targetMiddle']);
      for (const s of symbols) expect(s.line, JSON.stringify(s)).toContain(`function ${s.text.replace('[Function] ', '')}(`);
      const search = o.search as { file: string; lnum: number; text: string; line: string }[];
      expect(search.map((s) => `${s.file}:${s.lnum}: ${s.text}`)).toEqual(['first.js:3: // needle one', 'middle.js:1: // needle two', 'last.js:1: // needle unsaved in the buffer', 'last.js:3: // needle three']);
      for (const s of search) expect(s.line, JSON.stringify(s)).toBe(s.text);
    } finally {
      ws.cleanup();
    }
  });
});
