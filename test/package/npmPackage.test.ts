// The npm package as a user gets it: `npm pack` from a copy of the checkout without dist/ (as in a
// fresh clone; `prepare` must build it), the tarball installed into an empty project (only
// @vscode/ripgrep comes from the registry or npm's cache), and the installed bin run for real:
// `npx editls --version`, one edit over stdio, and `editls mcp` answering an MCP initialize.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; repository?: unknown };

let tmp: string;
let project: string;
let bin: string;
let tarballFiles: string[];

function run(cmd: string, args: string[], cwd: string, timeout = 90_000): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Only the registry is reachable; npm's cache answers first when it can.
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true' },
  });
}

/** The files a fresh clone has: tracked and untracked-but-not-ignored ones (no dist/, no node_modules). */
function cloneLikeCopy(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && f !== 'node_modules' && existsSync(path.join(REPO, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    cpSync(path.join(REPO, f), path.join(to, f));
  }
  // The dev dependencies of the build (esbuild) as `npm install` in the clone would provide them.
  symlinkSync(path.join(REPO, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'editls-pack-'));
  const clone = path.join(tmp, 'clone');
  mkdirSync(clone);
  cloneLikeCopy(clone);
  expect(existsSync(path.join(clone, 'dist'))).toBe(false);
  const packed = JSON.parse(run(NPM, ['pack', '--json', '--pack-destination', tmp], clone)) as { filename: string; files: { path: string }[] }[];
  tarballFiles = packed[0]!.files.map((f) => f.path);
  project = path.join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'editls-user', version: '1.0.0', private: true }));
  run(NPM, ['install', '--no-package-lock', path.join(tmp, packed[0]!.filename)], project);
  bin = path.join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'editls.cmd' : 'editls');
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships the built bundle and needs no bundled package at run time', () => {
    for (const f of ['dist/editls.js', 'dist/editls-server.js', 'dist/editls-server.cache', 'dist/editls-session.js', 'dist/editls-session.cache', 'dist/package.json', 'package.json']) expect(tarballFiles).toContain(f);
    // What a start of this clone noted about its own files (server/launch.ts) holds only here.
    expect(tarballFiles.filter((f) => f.endsWith('.checked'))).toEqual([]);
    expect(Object.keys(pkg.dependencies)).toEqual(['@vscode/ripgrep']);
    const installed = readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed.sort()).toEqual(['@vscode', 'editls']);
  });

  it('carries the client examples, the docs, a LICENSE and a repository field', () => {
    for (const f of ['LICENSE', 'CHANGELOG.md', 'docs/agents.md', 'docs/editors.md', 'client-examples/agents/codex-config.toml', 'client-examples/agents/claude-settings.json', 'client-examples/neovim/editls.lua']) expect(tarballFiles).toContain(f);
    expect(pkg.repository).toMatchObject({ type: 'git' });
  });

  it('`npx editls --version` and `--help` print on stdout; a wrong command line prints the usage on stderr and exits 2', () => {
    const run = (args: string[]) => spawnSync(NPX, ['--no-install', 'editls', ...args], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    const version = run(['--version']);
    expect([version.status, version.stdout.trim(), version.stderr]).toEqual([0, `editls ${pkg.version}`, '']);
    // The code cache `prepare` wrote is the installed bundle's, and this Node uses it; the start above
    // checked its hashes and noted the installed files, so this one skips them.
    const logged = spawnSync(NPX, ['--no-install', 'editls', '--version'], { cwd: project, encoding: 'utf8', timeout: 30_000, env: { ...process.env, EDITLS_LOG_CODE_CACHE: '1' } });
    expect([logged.stdout, logged.stderr]).toEqual([`editls ${pkg.version}\n`, 'editls: code cache used (its files unchanged since a start checked them)\n']);
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: editls \[--stdio\]\n[\s\S]*usage: editls mcp \[--root DIR\]/);
    const wrong = run(['--bogus']);
    expect([wrong.status, wrong.stdout]).toEqual([2, '']);
    expect(wrong.stderr).toMatch(/^editls: unknown option --bogus\nusage: editls/);
    const missing = run(['mcp', '--root', path.join(tmp, 'no-such-folder')]);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([2, '', `editls mcp: --root ${path.join(tmp, 'no-such-folder')}: no such folder\n`]);
  });

  it('edits a file over stdio through the installed bin (ripgrep included)', async () => {
    const ws = path.join(tmp, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'Hello world\n');
    const proc = spawn(bin, ['--stdio'], { stdio: 'pipe' });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    conn.onRequest('workspace/applyEdit', () => ({ applied: false }));
    conn.listen();
    try {
      await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(ws).href,
        workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'ws' }],
        capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } },
      });
      await conn.sendNotification('initialized', {});
      const edited = (await conn.sendRequest('workspace/executeCommand', {
        command: 'editls.edit',
        arguments: [{ file_path: 'a.txt', old_string: 'world', new_string: 'there' }],
      })) as { filesChanged: number };
      expect(edited.filesChanged).toBe(1);
      expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('Hello there\n');
      // searchFiles runs the @vscode/ripgrep binary the install brought.
      const found = (await conn.sendRequest('workspace/executeCommand', {
        command: 'editls.searchFiles',
        arguments: [{ path: '.', regex: 'there' }],
      })) as { matches: unknown[] };
      expect(found.matches).toHaveLength(1);
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
    } finally {
      conn.dispose();
      proc.kill();
    }
  });

  it('`editls mcp` answers an MCP initialize through the installed bin', async () => {
    const xdg = mkdtempSync(path.join(tmp, 'xdg-'));
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp', '--root', project],
      env: { ...(process.env as Record<string, string>), XDG_RUNTIME_DIR: xdg },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('editls');
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('edit');
    } finally {
      await client.close();
    }
  });
});
