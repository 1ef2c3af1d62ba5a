// Vim 9 + ALE (Debian's vim and vim-ale) headless with the shipped client-examples/vim/editls-ale.vim:
// editls starts for a .ts and a .txt file, :ALESymbolSearch lists a symbol, :ALECodeAction removes
// trailing whitespace and applies a previewed edit, :EditlsExecute runs editls.edit with arguments.
// Each edit's workspace/applyEdit is answered (ALE alone never answers it: editls would wait 10 s and
// fail), and its UTF-16 columns land right on the é/😀 line (ALE alone counts bytes and mangles it).
import { describe, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, editorTest, hasCommand, runDriver, workspace } from './harness.js';

const ALE = '/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale';

function missing(): string[] {
  const out: string[] = [];
  // vim-tiny has no channels or jobs, which ALE needs
  const version = hasCommand('vim') ? spawnSync('vim', ['--version'], { encoding: 'utf8' }).stdout : '';
  if (!version.includes('+job')) out.push('vim');
  if (!existsSync(ALE)) out.push('vim-ale');
  return out;
}

/** The executeCommand responses a step recorded: each one's summary, or its error kind and message. */
function summaries(responses: any[]): string[] {
  return responses.map((r) => (r.error ? `error ${r.error.data?.kind}: ${r.error.message}` : r.result.message));
}

describe('Vim 9 + ALE (headless): the client example', () => {
  editorTest(
    'starts editls for .ts and .txt, symbols, code actions, commands with arguments',
    missing(),
    async () => {
      const ws = workspace();
      ws.write('lib.ts', 'export const alpha = 1;\n');
      try {
        // one answer per :ALECodeAction menu: 1 = "remove trailing whitespace in line 1", then "apply previewed edit"
        const run = await runDriver('vim', ['-N', '-u', path.join(EDITORS_DIR, 'vim-ale-driver.vim'), '-i', 'NONE', '-es'], ws, 60_000, '1\n1\n');
        const o = run.out;
        if (o.ok !== true) throw new Error(`driver failed: ${o.error ?? JSON.stringify(o)}\n${run.stderr.slice(-3000)}`);

        // editls starts for .ts and .txt (ALE runs no linter for text unless listed), one per workspace
        expect(o['ts.started']).toBe(true);
        expect(o['ts.filetype']).toBe('typescript');
        expect(o['txt.started']).toBe(true);
        expect(o['txt.filetype']).toBe('text');
        expect(o.root).toBe(ws.root);
        expect(o.connections).toBe(1);

        // :ALESymbolSearch
        expect(o['symbols.shown']).toBe(true);
        expect(o['symbols.lines']).toEqual([`${ws.root}/lib.js:2:10 fooBarBaz`]);

        // :ALECodeAction "remove trailing whitespace": applied in the buffer, answered at once
        expect(o['trim.buffer']).toBe('trailing\nspaces\t\nnone\n');
        expect(summaries(o['trim.responses'])).toEqual([expect.stringMatching(/^editls\.trimTrailingWhitespace: 1 line trimmed in ws\.txt/)]);
        expect(o['trim.seconds']).toBeLessThan(5);
        expect(o['trim.disk']).toBe(FIXTURE['ws.txt']);

        // :EditlsExecute with arguments, on the é/😀 line (UTF-16 columns converted to bytes)
        expect(summaries(o['edit.responses'])).toEqual([expect.stringMatching(/^editls\.edit: 1 replacement in a\.txt/)]);
        expect(o['edit.buffer']).toBe('hello world\nsecond line\nxé😀 TARGET here\n');
        // text typed but not yet sent to editls is sent first
        expect(summaries(o['typed.responses'])).toEqual([expect.stringMatching(/^editls\.edit: 1 replacement/)]);
        expect(o['typed.buffer']).toBe('hello world\nsecond line TYPED\nxé😀 TARGET here\n');
        expect(o['disk.a']).toBe(FIXTURE['a.txt']);

        // a preview changes nothing; :ALECodeAction "apply previewed edit" applies it
        expect(summaries(o['preview.responses'])).toEqual([expect.stringMatching(/^editls\.edit: preview p\d+/)]);
        expect(o['preview.buffer']).toBe('hello world\nsecond line TYPED\nxé😀 TARGET here\n');
        expect(summaries(o['apply.responses'])).toEqual([expect.stringMatching(/^editls\.applyPreview: 1 replacement in a\.txt/)]);
        expect(o['apply.buffer']).toBe('HELLO world\nsecond line TYPED\nxé😀 TARGET here\n');

        // no workspace/applyEdit went unanswered
        expect(o.unanswered).toBe(0);
      } finally {
        ws.cleanup();
      }
    },
    60_000,
  );
});
