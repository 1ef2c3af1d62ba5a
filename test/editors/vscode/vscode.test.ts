// VS Code 1.139 (code-server 4.139.1 on Node 24, Debian's Chromium through playwright-core) with the
// editls extension packed from client-examples/vscode (`npm run package`) and installed from its
// .vsix, `editls` on the login shell's PATH. A person's session, step by step: palette commands
// with their input boxes, an edit landing unsaved and one Ctrl+Z, the Refactor Preview read for 30 s
// then applied (and discarded), undo with no arguments, a keybinding with arguments, Ctrl+T,
// search. A failing step leaves a screenshot (its path is in the error).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { editlsOnPath } from '../../agents/agentKit.js';
import { tempWorkspace, type TempWorkspace } from '../../helpers/tempWorkspace.js';
import { editorTest } from '../harness.js';
import { CHROMIUM, missingForVscode, packExtension, playwright, startCodeServer, tempRoot, type CodeServer, type Playwright } from './codeServer.js';
import { Workbench } from './workbench.js';

const SHOTS = process.env.EDITLS_VSCODE_SHOTS ?? path.join(os.tmpdir(), 'editls-vscode-shots');
const A_TS = 'export function alpha() { return 1; }\nconst beta = alpha();\n';
const FILES = {
  'a.ts': A_TS,
  'b.txt': 'Alpha here, alpha there\n',
  'c.txt': 'closed alpha\n',
  'd.txt': 'one 😀 two\r\nthree\r\n',
  'e.txt': 'preview me\n',
  'lib.py': 'def zeta_omega(x):\n    return x\n',
};

const missing = missingForVscode();
let ws: TempWorkspace;
let root: { root: string; cleanup(): void };
let server: CodeServer | undefined;
let browser: Playwright;
let wb: Workbench;

/** Runs a step; on failure keeps a screenshot and names it in the error. */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, `${name.replace(/[^a-z0-9]+/giu, '-')}.png`);
    await wb?.page.screenshot({ path: file }).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${name}: ${message}\n(screenshot: ${file})`);
  }
}

describe('VS Code 1.139 (code-server, headless Chromium): the editls extension', () => {
  beforeAll(async () => {
    if (missing.length > 0) return;
    ws = tempWorkspace(FILES, 'editls-vscode-ws-');
    execFileSync('git', ['init', '-q', '.'], { cwd: ws.root });
    root = tempRoot();
    const vsix = packExtension(root.root);
    server = await startCodeServer({
      root: root.root,
      vsix,
      binDir: editlsOnPath(),
      settings: {
        // Unsaved edits stay unsaved (VS Code for the Web saves after 1 s by default).
        'files.autoSave': 'off',
        'workbench.startupEditor': 'none',
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
      },
      // A keybinding with arguments (what the README shows for scripted use): a preview of e.txt.
      keybindings: [{ key: 'ctrl+alt+p', command: 'editls.searchAndReplace', args: { path: 'e.txt', search: 'preview', replace: 'applied', apply: 'preview' } }],
    });
    browser = await playwright().chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    wb = new Workbench(await context.newPage());
    await wb.open(server.url, ws.root);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    ws?.cleanup();
    root?.cleanup();
  });

  editorTest('an edit from the palette lands unsaved; one Ctrl+Z reverts it', missing, async () => {
    await step('open a.ts', () => wb.openFile('a.ts'));
    await step('editls: Edit', async () => {
      await wb.palette('editls: Edit: Replace an Exact Text in This File');
      await wb.answer('the exact text to replace', 'return 1');
      await wb.answer('replace it with', 'return 2');
    });
    const edited = await step('the edit lands', () => wb.waitForText((t) => t.includes('return 2')));
    expect(edited).toBe(A_TS.replace('return 1', 'return 2'));
    expect(await wb.isDirty('a.ts')).toBe(true);
    expect(ws.read('a.ts')).toBe(A_TS);
    await step('Ctrl+Z', async () => {
      await wb.focusEditor();
      await wb.page.keyboard.press('Control+Z');
    });
    expect(await step('one undo reverts it', () => wb.waitForText((t) => t.includes('return 1')))).toBe(A_TS);
  });

  editorTest('a failure shows as one readable line with its kind', missing, async () => {
    await step('editls: Edit of a text that is not there', async () => {
      await wb.palette('editls: Edit: Replace an Exact Text in This File');
      await wb.answer('the exact text to replace', 'no such text');
      await wb.answer('replace it with', 'x');
    });
    const shown = await step('the failure', () => wb.notification('editls.edit'));
    expect(shown).toMatch(/editls\.edit failed \(not_found\)/u);
    expect(shown).not.toContain('[object Object]');
    await wb.clearNotifications();
  });

  editorTest('str_replace on the selection: exactly the selected word, after an emoji, in a CRLF file', missing, async () => {
    await step('open d.txt', () => wb.openFile('d.txt'));
    await step('select "two"', async () => {
      await wb.focusEditor();
      await wb.page.keyboard.press('Control+Home');
      await wb.page.keyboard.press('End');
      await wb.page.keyboard.press('Shift+Control+ArrowLeft');
    });
    await step('editls: Str Replace on the Selection', async () => {
      await wb.palette('editls: Str Replace on the Selection');
      await wb.answer('replace the selection with', 'TWO');
    });
    expect(await step('it lands', () => wb.waitForText((t) => t.includes('TWO')))).toBe('one 😀 TWO\r\nthree\r\n');
  });

  editorTest('search and replace in the file, ignoring case; insert after the cursor line', missing, async () => {
    await step('open b.txt', () => wb.openFile('b.txt'));
    await step('editls: Search and Replace in This File', async () => {
      await wb.palette('editls: Search and Replace in This File');
      await wb.answer('search in this file', 'ALPHA');
      await wb.answer('with', 'omega');
      await wb.pick('Ignore case', ['Ignore case']);
    });
    expect(await step('both replaced', () => wb.waitForText((t) => t.startsWith('omega here')))).toBe('omega here, omega there\n');
    await step("editls: Insert Lines After the Cursor's Line", async () => {
      await wb.focusEditor();
      await wb.page.keyboard.press('Control+Home');
      await wb.palette("editls: Insert Lines After the Cursor's Line");
      await wb.answer('insert a line after line 1', 'inserted');
    });
    expect(await step('inserted', () => wb.waitForText((t) => t.includes('inserted')))).toBe('omega here, omega there\ninserted\n');
  });

  editorTest('replace in files: the Refactor Preview read for 30 s, then Apply; undo with no arguments reverts it all', missing, async () => {
    await step('open a.ts', () => wb.openFile('a.ts'));
    await wb.clearNotifications();
    await step('editls: Replace in Files', async () => {
      await wb.palette('editls: Replace in Files (Refactor Preview)');
      await wb.answer('search for', 'alpha');
      await wb.answer('everywhere with', 'omega');
      await wb.pick('Preserve case', []);
    });
    await step('the Refactor Preview opens', () => wb.refactorPreview().locator('.monaco-list-row', { hasText: 'c.txt' }).first().waitFor({ timeout: 30_000 }));
    // A person reads it (longer than editls's applyTimeoutMs of 10 s, which does not apply to a review).
    await wb.page.waitForTimeout(30_000);
    await step('tick every file, Apply', async () => {
      await wb.tickInPreview('a.ts');
      await wb.tickInPreview('c.txt');
      await wb.previewButton('Apply');
    });
    const summary = await step('the summary', () => wb.notification('editls.replaceInFiles'));
    expect(summary).toContain('3 replacements in 2 files');
    expect(await step('a.ts changed', () => wb.waitForText((t) => t.includes('omega')))).toBe(A_TS.replaceAll('alpha', 'omega'));
    expect(await wb.isDirty('c.txt')).toBe(true);
    expect(ws.read('c.txt')).toBe('closed alpha\n');
    await wb.clearNotifications();
    await step('editls: Undo the Last editls Change (no arguments)', () => wb.palette('editls: Undo the Last editls Change'));
    expect(await step('a.ts reverted', () => wb.waitForText((t) => t.includes('alpha')))).toBe(A_TS);
    await step('open c.txt', () => wb.openFile('c.txt'));
    expect(await step('c.txt reverted', () => wb.waitForText((t) => t === 'closed alpha\n'))).toBe('closed alpha\n');
  });

  editorTest('replace in files, then Discard in the Refactor Preview: nothing changes, and editls says so', missing, async () => {
    await step('open a.ts', () => wb.openFile('a.ts'));
    await wb.clearNotifications();
    await step('editls: Replace in Files', async () => {
      await wb.palette('editls: Replace in Files (Refactor Preview)');
      await wb.answer('search for', 'alpha');
      await wb.answer('everywhere with', 'omega');
      await wb.pick('Preserve case', []);
    });
    await step('Discard', async () => {
      await wb.refactorPreview().locator('.monaco-list-row', { hasText: 'a.ts' }).first().waitFor({ timeout: 30_000 });
      await wb.previewButton('Discard');
    });
    expect(await step('the answer', () => wb.notification("not applied in the editor's review"))).toContain('apply_rejected');
    expect(await wb.text()).toBe(A_TS);
    await wb.clearNotifications();
  });

  editorTest('a keybinding with arguments makes a preview; Apply Preview from the palette applies it', missing, async () => {
    await step('Ctrl+Alt+P', async () => {
      await wb.focusEditor();
      await wb.page.keyboard.press('Control+Alt+P');
    });
    await step('the preview summary', () => wb.notification('preview'));
    expect(ws.read('e.txt')).toBe('preview me\n');
    // The preview's summary names editls.applyPreview too ("apply with editls.applyPreview"): it goes
    // first, and the wait below is for the apply's own summary ("editls.applyPreview: ...").
    await wb.clearNotifications();
    await step('editls: Apply Preview', () => wb.palette('editls: Apply Preview'));
    await step('applied to e.txt (closed: on disk)', async () => {
      await wb.notification('editls.applyPreview:');
    });
    expect(readFileSync(path.join(ws.root, 'e.txt'), 'utf8')).toBe('applied me\n');
    await wb.clearNotifications();
  });

  editorTest("Ctrl+T lists editls's workspace symbols; Search Files opens a match", missing, async () => {
    await step('Ctrl+T zeta_omega', async () => {
      await wb.quickInput('Control+T');
      // Typed again until editls answers (right after start-up its server may still be starting,
      // and VS Code asks the providers it has when the text changes).
      const row = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'lib.py' }).first();
      const input = wb.page.locator('.quick-input-widget input');
      for (let attempt = 1; ; attempt++) {
        await input.fill(attempt % 2 === 1 ? '#zeta_omega' : '#zeta_omeg');
        try {
          await row.waitFor({ timeout: 3000 });
          break;
        } catch (error) {
          if (attempt === 10) throw error;
        }
      }
      await wb.choose('zeta_omega');
    });
    await step('lib.py opens', () => wb.activeTab('lib.py').waitFor({ timeout: 30_000 }));
    await step('open a.ts', () => wb.openFile('a.ts'));
    await step('editls: Search Files', async () => {
      await wb.palette('editls: Search Files');
      await wb.answer('search the workspace for', 'zeta_\\w+');
      await wb.choose('def zeta_omega(x):');
    });
    await step('lib.py opens at the match', () => wb.activeTab('lib.py').waitFor({ timeout: 30_000 }));
    // editls.serverPath is the extension's own setting, never sent to the server (which would warn).
    expect(await wb.page.locator('.notifications-toasts', { hasText: 'serverPath' }).count()).toBe(0);
  });
});
