// Emacs 28 + Eglot 1.9 headless: the shipped editls.el as a new user meets it (issue 15, "The
// editors"): the default command (editls on PATH), M-x eglot in a .ts file (fundamental-mode),
// editls-eglot-modes set after loading, M-x editls-symbols, and the preview hint's wording.
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, editorTest, hasCommand, hasElpaPackage, runDriver, workspace } from './harness.js';

describe('Emacs + Eglot 1.9 (headless): the client example for a new user', () => {
  const missing = [...(hasCommand('emacs') ? [] : ['emacs']), ...(hasElpaPackage('eglot') ? [] : ['elpa-eglot'])];
  editorTest('.ts files, modes set after loading, editls-symbols, preview hints', missing, async () => {
    const ws = workspace();
    ws.write('lib.ts', 'export function fooBarBaz() {}\nconst world = 1;\n');
    ws.write('x.el', ';; old\n');
    try {
      const run = await runDriver('emacs', ['--batch', '-Q', '-l', path.join(EDITORS_DIR, 'eglot-newuser-driver.el')], ws);
      const o = run.out;
      if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);
      expect(o.prompted).toBeUndefined();
      expect(o['default-command']).toEqual(['editls', '--stdio']);
      // a .ts file opens in fundamental-mode and M-x eglot connects it to editls
      expect(o['ts.major-mode']).toBe('fundamental-mode');
      expect(o['ts.error']).toBeUndefined();
      expect(o['ts.connected']).toBe(true);
      expect(o['ts.edit']).toBe('applied');
      expect(o['ts.buffer']).toBe('export function fooBarQux() {}\nconst world = 1;\n');
      // the preview hint names the whole word
      expect(o['hint.ready']).toBe(true);
      expect((o['hint.texts'] as string[]).join('\n')).toContain('replace "world" with "word"');
      expect(o['hint.buffer']).toBe('export function fooBarQux() {}\nconst world = 1;\n');
      // editls-symbols lands on the definition
      expect(o['symbols.file']).toBe('lib.js');
      expect(o['symbols.line']).toBe(2);
      expect(o['symbols.text']).toBe('function fooBarBaz(a) {');
      // editls-eglot-modes set with setq after loading is honoured
      expect(o['el.major-mode']).toBe('emacs-lisp-mode');
      expect(o['el.error']).toBeUndefined();
      expect(o['el.connected']).toBe(true);
      expect(o['el.edit']).toBe('applied');
      expect(o['el.buffer']).toBe(';; new\n');
    } finally {
      ws.cleanup();
    }
  });
});
