// Emacs 28 headless with the documented set-up of client-examples/emacs/editls.el (issue 26, item 4):
// (add-hook 'find-file-hook #'editls-eglot-ensure) — or #'editls-lsp-ensure — starts editls in .ts
// (fundamental-mode in Emacs 28) and .js (js-mode) buffers, under Eglot and under lsp-mode; and a
// command's summary reaches the user once (editls's own window/showMessage, not a second echo).
import { describe, expect } from 'vitest';
import path from 'node:path';
import { EDITORS_DIR, editorTest, hasCommand, hasElpaPackage, runDriver, workspace } from './harness.js';

for (const client of ['eglot', 'lsp'] as const) {
  const pkg = client === 'eglot' ? 'eglot' : 'lsp-mode';
  const missing = [...(hasCommand('emacs') ? [] : ['emacs']), ...(hasElpaPackage(pkg) ? [] : [`elpa-${pkg}`])];
  describe(`Emacs 28 + ${pkg} (headless): the documented set-up`, () => {
    editorTest('starts editls for .ts and .js files; a summary shows once', missing, async () => {
      const ws = workspace();
      ws.write('lib.ts', 'export const alpha = 1;\n');
      ws.write('app.js', 'const alpha = 2;\n');
      try {
        const run = await runDriver('emacs', ['--batch', '-Q', '--eval', '(package-initialize)', '-l', path.join(EDITORS_DIR, 'emacs-setup-driver.el')], ws);
        const o = run.out;
        if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);
        expect(o['lib.ts.major-mode']).toBe('fundamental-mode');
        expect(o['app.js.major-mode']).toBe('js-mode');
        expect(o['lib.ts.served']).toBe(true);
        expect(o['app.js.served']).toBe(true);
        expect(o['replace.buffer']).toBe('const beta = 2;\n');
        expect(o['replace.summaries']).toBe(1);
      } finally {
        ws.cleanup();
      }
    });
  });
}
