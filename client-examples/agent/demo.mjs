#!/usr/bin/env node
// `npm run demo`: builds dist/editls.js if it is missing or older than the sources, copies the
// sample workspace to a temporary folder and runs the agent example (editls-agent.mjs) over
// demo.jsonl, printing each command with its diff and result. The copy is removed afterwards
// unless --keep is given. Exit status: the agent's (0 when every step did what it expected).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const BUNDLE = path.join(REPO, 'dist/editls.js');
const keep = process.argv.includes('--keep');

function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : s.mtimeMs);
  }
  return newest;
}

if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < Math.max(newestSource(path.join(REPO, 'server')), statSync(path.join(REPO, 'package.json')).mtimeMs)) {
  process.stdout.write('Building dist/editls.js ...\n');
  const built = spawnSync(process.execPath, [path.join(REPO, 'esbuild.mjs')], { cwd: REPO, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const ws = mkdtempSync(path.join(os.tmpdir(), 'editls-demo-'));
cpSync(path.join(HERE, 'sample-workspace'), ws, { recursive: true });
// What a build would leave behind; .gitignore excludes it, so searchFiles never shows it.
mkdirSync(path.join(ws, 'build'));
writeFileSync(path.join(ws, 'build/out.js'), '// generated\n// TODO: this line is ignored\n');

process.stdout.write(`editls demo: the sample workspace is copied to ${ws}\n`);
process.stdout.write(`Each step is one request from ${path.relative(process.cwd(), path.join(HERE, 'demo.jsonl'))}, sent by client-examples/agent/editls-agent.mjs.\n`);
const run = spawnSync(process.execPath, [path.join(HERE, 'editls-agent.mjs'), '--root', ws, '--server', BUNDLE, path.join(HERE, 'demo.jsonl')], { stdio: 'inherit' });
if (keep) process.stdout.write(`\nThe workspace is kept at ${ws}\n`);
else rmSync(ws, { recursive: true, force: true });
process.exit(run.status ?? 1);
