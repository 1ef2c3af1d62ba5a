// Applies editls diffs with the real tools: each case's `before` is written byte for byte into two
// temp folders, all patches go through `git apply` in one and `patch -p1 -F0` in the other (one
// process each for the whole batch), and every resulting file must equal `after`; a failing batch is
// re-run case by case to name the culprit.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempWorkspace } from './tempWorkspace.js';

export interface PatchCase {
  /** File name the patch refers to (a/NAME, b/NAME). */
  name: string;
  /** File bytes before (null: the patch creates the file). */
  before: Buffer | null;
  after: Buffer;
  patch: string;
}

export interface PatchFailure {
  name: string;
  tool: 'git apply' | 'patch';
  error: string;
}

export function hasPatchTools(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    execFileSync('patch', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const TOOLS = {
  'git apply': (dir: string, file: string) => execFileSync('git', ['apply', '--whitespace=nowarn', file], { cwd: dir, stdio: 'pipe' }),
  patch: (dir: string, file: string) => execFileSync('patch', ['-p1', '-F0', '-s', '--no-backup-if-mismatch', '-i', file], { cwd: dir, stdio: 'pipe' }),
} as const;

/** Runs every case through git apply and patch; returns the failures (empty when all apply exactly). */
export function applyWithTools(cases: readonly PatchCase[]): PatchFailure[] {
  const failures: PatchFailure[] = [];
  for (const tool of Object.keys(TOOLS) as (keyof typeof TOOLS)[]) {
    if (run(tool, cases) === undefined) continue;
    for (const c of cases) {
      const error = run(tool, [c]);
      if (error !== undefined) failures.push({ name: c.name, tool, error });
    }
  }
  return failures;
}

/** One batch through one tool: undefined when every file ends up as `after`, else the error. */
function run(tool: keyof typeof TOOLS, cases: readonly PatchCase[]): string | undefined {
  const ws = tempWorkspace({}, 'editls-patch-');
  try {
    for (const c of cases) if (c.before !== null) writeFileSync(path.join(ws.root, c.name), c.before);
    const patchFile = path.join(ws.root, '..', `${path.basename(ws.root)}.patch`);
    writeFileSync(patchFile, cases.map((c) => c.patch).join(''));
    try {
      TOOLS[tool](ws.root, patchFile);
    } catch (error) {
      const e = error as { stderr?: Buffer; stdout?: Buffer; message: string };
      return `${e.stderr?.toString() ?? ''}${e.stdout?.toString() ?? ''}`.trim() || e.message;
    } finally {
      rmSync(patchFile, { force: true });
    }
    for (const c of cases) {
      const file = path.join(ws.root, c.name);
      const got = existsSync(file) ? readFileSync(file) : null;
      if (got === null || !got.equals(c.after)) return `${c.name}: result differs (${JSON.stringify(got?.toString('utf8'))} vs ${JSON.stringify(c.after.toString('utf8'))})`;
    }
    return undefined;
  } finally {
    ws.cleanup();
  }
}
