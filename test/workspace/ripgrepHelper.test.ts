// ripgrep through the helper process (workspace/ripgrepHelper.ts) against ripgrep run directly, on
// real files: the same output bytes and exit codes, no output lost on fast runs, stops and aborts
// that end ripgrep, a helper that dies or goes silent (before or after handing the pipes over), after
// which ripgrep is spawned directly, and the helper of a real `editls --stdio` going when editls is killed.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { ripgrepPath, runRipgrep, RipgrepUnavailable } from '../../server/workspace/ripgrep.js';
import { ripgrepHelperState, startRipgrepHelper, stopRipgrepHelper } from '../../server/workspace/ripgrepHelper.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';
import { childrenOf, commandLine, isGone } from '../helpers/processes.js';
import { SERVER_JS } from '../helpers/lspClient.js';
import { spawn } from 'node:child_process';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));
afterEach(() => stopRipgrepHelper());

function corpus(): TempWorkspace {
  const files: Record<string, string | Buffer> = {
    'a.ts': 'const needle = 1;\r\nno\r\n',
    'b/emoji.txt': 'x 😀 needle 漢字\nneedle again',
    'b/latin1.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
    'c/bin.dat': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
  };
  for (let i = 0; i < 300; i++) files[`many/f${String(i).padStart(3, '0')}.txt`] = `line\nneedle ${i}\n${'filler\n'.repeat(i % 7)}`;
  const w = tempWorkspace(files, 'editls-rghelper-');
  workspaces.push(w);
  return w;
}

/** A JSON line without the timings of `end` and `summary` (they differ from run to run); other lines as they are. */
function timeless(line: string): string {
  if (!line.startsWith('{')) return line;
  const m = JSON.parse(line) as { data: { stats?: unknown; elapsed_total?: unknown } };
  delete m.data.stats;
  delete m.data.elapsed_total;
  return JSON.stringify(m);
}

/** Every stdout line of a run through runRipgrep (one run: the helper's when there is one). */
async function lines(args: string[], cwd: string) {
  const out: string[] = [];
  const exit = await runRipgrep({ args, cwd, onLine: (l) => (out.push(timeless(l)), 'continue') });
  return { out, exit };
}

function direct(args: string[], cwd: string, rg: string): { out: string[]; code: number } {
  try {
    const stdout = execFileSync(rg, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
    return { out: stdout.split('\n').filter((l) => l !== '').map(timeless), code: 0 };
  } catch (error) {
    const e = error as { status: number; stdout: string };
    return { out: e.stdout.split('\n').filter((l) => l !== '').map(timeless), code: e.status };
  }
}

describe.skipIf(process.platform === 'win32')('ripgrep through the helper process', () => {
  it('prints what ripgrep run directly prints, with the same exit codes and stderr', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const before = ripgrepHelperState()!.runs;
    for (const args of [
      ['--json', '--sort', 'path', '-e', 'needle', '.'],
      ['--json', '--sort', 'path', '--context', '1', '-e', 'needle', '.'],
      ['--sort', 'path', '-n', '-e', 'no such text', '.'],
    ]) {
      const got = await lines(args, w.root);
      const want = direct(args, w.root, rg);
      expect(got.out).toEqual(want.out);
      expect(got.exit.code).toBe(want.code);
    }
    const bad = await runRipgrep({ args: ['-e', '(unclosed', '.'], cwd: w.root, onLine: () => 'continue' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/regex parse error/);
    // All four went through the helper, none was spawned here.
    expect(ripgrepHelperState()!.runs - before).toBe(4);
  });

  it('loses no output on 200 fast runs (the helper never reads the pipes it hands over)', async () => {
    const w = corpus();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const args = ['--json', '-e', 'needle', 'b/emoji.txt'];
    const want = direct(args, w.root, await ripgrepPath()).out;
    expect(want.length).toBeGreaterThan(3);
    const runs = await Promise.all(Array.from({ length: 200 }, () => lines(args, w.root)));
    for (const r of runs) {
      expect(r.out).toEqual(want);
      expect(r.exit.code).toBe(0);
    }
  });

  it('a run stopped by its consumer or aborted ends ripgrep, and the helper is left with no child', async () => {
    const w = corpus();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const { pid } = ripgrepHelperState()!;
    let seen = 0;
    const stopped = await runRipgrep({ args: ['--json', '-j1', '-e', 'needle', '.'], cwd: w.root, onLine: () => (++seen === 2 ? 'stop' : 'continue') });
    expect(stopped.stopped).toBe(true);
    const controller = new AbortController();
    const aborted = runRipgrep({ args: ['-e', 'line', '.'], cwd: w.root, signal: controller.signal, onLine: () => 'continue' });
    controller.abort();
    expect((await aborted).cancelled).toBe(true);
    expect(await waitFor(() => childrenOf(pid).length === 0, 2000)).toBe(true);
  });

  it('when the helper dies, ripgrep is spawned directly from then on', async () => {
    const w = corpus();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const { pid } = ripgrepHelperState()!;
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => ripgrepHelperState() === undefined, 2000)).toBe(true);
    const r = await lines(['--sort', 'path', '-l', '-e', 'needle', '.'], w.root);
    expect(r.exit.code).toBe(0);
    expect(r.out).toContain('./a.ts');
  });

  it('a helper that stops answering fails the waiting run within its deadline, and the next run is spawned directly', async () => {
    const w = corpus();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const { pid } = ripgrepHelperState()!;
    process.kill(pid, 'SIGSTOP');
    try {
      const t0 = Date.now();
      await expect(lines(['-e', 'needle', '.'], w.root)).rejects.toThrow(RipgrepUnavailable);
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(ripgrepHelperState()).toBeUndefined();
      const r = await lines(['--sort', 'path', '-l', '-e', 'needle', '.'], w.root);
      expect(r.out).toContain('./a.ts');
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already killed
      }
    }
    // The stopped helper was killed: it is gone.
    expect(await waitFor(() => isGone(pid), 3000)).toBe(true);
  }, 15_000);

  it('a helper that stops after handing the pipes over, before reporting the exit, ends the run within its deadline with the output kept', async () => {
    const w = corpus();
    const fifo = w.file('fifo');
    execFileSync('mkfifo', [fifo]);
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    const { pid } = ripgrepHelperState()!;
    // ripgrep waits on the FIFO for a writer: the pipes are handed over, then the helper is stopped.
    const run = lines(['-n', '-e', 'needle', 'fifo'], w.root);
    expect(await waitFor(() => childrenOf(pid).length === 1, 3000)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, 'SIGSTOP');
    try {
      const t0 = Date.now();
      writeFileSync(fifo, 'a\nneedle here\n');
      const r = await run;
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(r.out).toEqual(['2:needle here']);
      expect(r.exit.code).toBeNull();
      expect(ripgrepHelperState()).toBeUndefined();
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already killed
      }
    }
  }, 15_000);

  it('a server busy past the deadline does not give a helper that did answer up', async () => {
    const w = corpus();
    expect(startRipgrepHelper(process.execPath)).toBe(true);
    await ripgrepPath();
    const sent = ripgrepHelperState()!.runs;
    const run = lines(['--sort', 'path', '-l', '-e', 'needle', '.'], w.root);
    // A few microtask turns, no event-loop turn: the request is sent, the answer not yet read.
    for (let i = 0; i < 20 && ripgrepHelperState()!.runs === sent; i++) await null;
    expect(ripgrepHelperState()!.runs).toBe(sent + 1);
    // The helper answers while this event loop is blocked for longer than the 5 s deadline.
    const until = Date.now() + 5600;
    while (Date.now() < until) {
      // busy
    }
    const r = await run;
    expect(r.out).toContain('./a.ts');
    expect(ripgrepHelperState()).toBeDefined();
  }, 15_000);

  it('editls --stdio starts one helper, and the helper exits when editls is killed', async () => {
    const server = spawn(process.execPath, [SERVER_JS, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      expect(await waitFor(() => childrenOf(server.pid!).length === 1, 5000)).toBe(true);
      const [helperPid] = childrenOf(server.pid!);
      expect(commandLine(helperPid!)[1]).toBe('-e');
      server.kill('SIGKILL');
      expect(await waitFor(() => isGone(helperPid!), 2000)).toBe(true);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
