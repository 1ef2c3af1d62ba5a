// Shared set-up for the real-editor tests: finds the editor binaries, builds the fixture workspace
// (a git repository, as Eglot and lsp-mode find project roots through VCS), runs a headless driver
// against dist/editls.js and reads back the JSON it wrote. A missing editor skips its test locally
// and fails it when CI=true.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { COMMAND_IDS } from '../../server/commands/index.js';
import { serverCapabilities } from '../../server/capabilities.js';
import { SERVER_JS } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EDITORS_DIR = path.join(REPO, 'test/editors');
export const ELPA = '/usr/share/emacs/site-lisp/elpa';

/** The fixture every driver starts from. Line 3 holds é (2 UTF-8 bytes) and 😀 (2 UTF-16 units, 1 code point). */
export const FIXTURE: Record<string, string> = {
  'a.txt': 'hello world\nsecond line\nxé😀 target here\n',
  'b.txt': 'b line one\n',
  'lib.js': '// symbols for workspace/symbol\nfunction fooBarBaz(a) {\n  return a;\n}\n',
  'ws.txt': 'trailing  \nspaces\t\nnone\n',
  // issue 10 item 13: mixed endings, mostly LF (normalised to LF) and mostly CRLF (normalised to CRLF)
  'mixed.txt': 'one\r\ntwo\nthree\nfour\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\nfour\n',
  // issue 10 item 12: a 5-match searchAndReplace in an open buffer, run again and again
  'five.txt': 'one q\ntwo q\nthree q\nfour q\nfive q\nend\n',
};

/** The two texts the repeated 5-match searchAndReplace alternates between (q -> Y, then Y -> q). */
export const FIVE_BEFORE = 'one q\ntwo q\nthree q\nfour q\nfive q\nend\n';
export const FIVE_AFTER = 'one Y\ntwo Y\nthree Y\nfour Y\nfive Y\nend\n';

/** Whether editls serves these features in this tree (searchFiles and workspace/symbol come from another issue). */
export const SERVES = {
  searchFiles: COMMAND_IDS.includes('editls.searchFiles'),
  workspaceSymbol: Boolean((serverCapabilities('utf-16') as { workspaceSymbolProvider?: unknown }).workspaceSymbolProvider),
  searchAndReplace: COMMAND_IDS.includes('editls.searchAndReplace'),
  replaceRange: COMMAND_IDS.includes('editls.replaceRange'),
};

export function hasCommand(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
}

export function hasElpaPackage(name: string): boolean {
  return existsSync(ELPA) && spawnSync('sh', ['-c', `ls -d ${ELPA}/${name}-[0-9]*`], { encoding: 'utf8' }).status === 0;
}

export function workspace(): TempWorkspace {
  const ws = tempWorkspace(FIXTURE, 'editls-editor-');
  execFileSync('git', ['init', '-q', '.'], { cwd: ws.root });
  return ws;
}

export interface DriverRun {
  out: Record<string, any>;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd args` with WS, SERVER, OUT, REPO in the environment and parses the JSON it writes to OUT. */
/** `input`: what the user types, one answer per line (batch Emacs reads its minibuffer from stdin). */
export function runDriver(cmd: string, args: string[], ws: TempWorkspace, timeoutMs = 180_000, input?: string): Promise<DriverRun> {
  if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run npm run build first`);
  // Hidden, so editls's searches and symbol index skip it.
  const outFile = path.join(ws.root, '.driver-out.json');
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ws.root,
      env: { ...process.env, WS: ws.root, SERVER: SERVER_JS, OUT: outFile, REPO, HOME: path.join(ws.root, '.home'), TERM: 'dumb' },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (status) => {
      clearTimeout(timer);
      let out: Record<string, any> = {};
      try {
        out = JSON.parse(readFileSync(outFile, 'utf8'));
      } catch (error) {
        out = { driverOutputMissing: String(error) };
      }
      resolve({ out, status, stdout, stderr });
    });
  });
}

/** `it` for an editor test, or a skip (locally) / a failure (CI=true) naming what is missing. */
export function editorTest(name: string, missing: string[], body: () => Promise<void>, timeoutMs = 240_000): void {
  if (missing.length === 0) {
    it(name, body, timeoutMs);
  } else if (process.env.CI === 'true') {
    it(`${name}: required in CI`, () => {
      throw new Error(`${missing.join(', ')} missing; CI must install them (.ci/run installs neovim emacs-nox elpa-eglot elpa-lsp-mode vim vim-ale)`);
    });
  } else {
    const why = `${missing.join(', ')} not installed; apt-get install neovim emacs-nox elpa-eglot elpa-lsp-mode vim vim-ale`;
    console.warn(`editls editor tests: skipping "${name}": ${why} (with CI=true this fails)`);
    it.skip(`${name} (skipped: ${why})`, body);
  }
}
