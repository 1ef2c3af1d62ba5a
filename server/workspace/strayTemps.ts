// Sweeps the workspace for temporary files a crashed editls left behind (atomic writes put them
// beside their target, anywhere in the tree): found with one `rg --files` pass, removed unless
// their writer (pid in the name) is still alive.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { removeStrayTemps, TEMP_PREFIX } from './atomicWrite.js';

export async function sweepStrayTemps(folders: readonly string[], isAlive: (pid: number) => boolean): Promise<number> {
  if (folders.length === 0) return 0;
  const found = await listTemps(folders);
  let removed = 0;
  for (const dir of new Set(found.map((f) => path.dirname(f)))) removed += await removeStrayTemps(dir, isAlive);
  return removed;
}

function listTemps(folders: readonly string[]): Promise<string[]> {
  return new Promise((resolve) => {
    const rg = spawn(rgPath, ['--files', '--hidden', '--no-ignore', '--no-messages', '--glob', `${TEMP_PREFIX}*`, '--', ...folders], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    rg.stdout.setEncoding('utf8');
    rg.stdout.on('data', (d: string) => (out += d));
    rg.on('error', () => resolve([]));
    rg.on('close', () => resolve(out.split('\n').filter((l) => l !== '')));
  });
}
