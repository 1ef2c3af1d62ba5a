// ripgrep through the helper process (workspace/search/ripgrepHelper.ts) against ripgrep run directly, on
// real files: the same output bytes, exit codes and stderr, no output lost on fast runs or on a large
// one, stops and aborts that end ripgrep, a helper that dies or goes silent
// (before or after handing the pipe over), after which ripgrep is spawned directly, the ripgrep
// started ahead for the next run (same output for patterns `-f -` reads as `-e` does, not used for a
// pattern with a line break or once its folder was replaced, gone with the helper), and the helper
// of a real `editls --stdio` going, with its ripgreps, when editls is killed; its warm-up run; the
// ripgrep started ahead for a session's first search of the whole folder (searchFolderAhead).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { mkdirSync, readdirSync, readlinkSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ripgrepPath, runRipgrep } from '../../server/workspace/search/ripgrep.js';
import { startRipgrepHelper, withPattern, type RipgrepHelperHandle } from '../../server/workspace/search/ripgrepHelper.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';
import { childrenOf, commandLine, isGone } from '../helpers/processes.js';
import { SERVER_JS, TestClient } from '../helpers/lspClient.js';
import { spawn } from 'node:child_process';
import { searchFiles, searchFolderAhead } from '../../server/workspace/search/ripgrepSearch.js';
import { resolveWorkspacePath } from '../../server/workspace/disk/paths.js';
import type { SearchRequest } from '../../server/commands/ports/search.js';
import { listReplaceCandidates } from '../../server/workspace/search/replaceCandidates.js';

const workspaces: TempWorkspace[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));
/** The helper the running test started, stopped after it. */
let current: RipgrepHelperHandle | undefined;
afterEach(() => {
  current?.stop();
  current = undefined;
});

/** Starts the helper (or takes the one working) for this test. */
function startHelper(): RipgrepHelperHandle {
  current = startRipgrepHelper(process.execPath);
  expect(current).toBeDefined();
  return current!;
}

function ripgrepHelperState() {
  return current?.state();
}

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
async function lines(args: string[], cwd: string, patternAt?: number) {
  const out: string[] = [];
  const exit = await runRipgrep({ ...apart(args, patternAt), cwd, onLine: (l) => (out.push(timeless(l)), 'continue') });
  return { out, exit };
}

/** `args` whose pattern sits at `patternAt` (after `-e`), as a run that names its pattern apart (RipgrepRun.pattern). */
function apart(args: string[], patternAt?: number): { args: string[]; pattern?: string } {
  if (patternAt === undefined) return { args };
  expect(args[patternAt - 1]).toBe('-e');
  return { args: [...args.slice(0, patternAt - 1), ...args.slice(patternAt + 1)], pattern: args[patternAt]! };
}

function readlinkOr(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return '';
  }
}

/** A helper, one run through it, and the ripgrep it then started ahead (its only child). */
async function withSpare() {
  const w = corpus();
  startHelper();
  const { pid } = ripgrepHelperState()!;
  const args = patternArgs('needle');
  await lines(args, w.root, args.length - 3);
  expect(await waitFor(() => childrenOf(pid).length === 1)).toBe(true);
  return { w, pid, args, spare: childrenOf(pid)[0]! };
}

/** searchFiles' arguments around `pattern` (its index is args.length - 3). */
function patternArgs(pattern: string, target = '.'): string[] {
  return ['--json', '--no-config', '--sort', 'path', '--line-number', '-e', pattern, '--', target];
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

describe('withPattern', () => {
  it('puts the pattern right before the `--` that ends the options, or at the end', () => {
    expect(withPattern(['--json', '--max-count', '301', '--', '.'], ['-e', 'a b'])).toEqual(['--json', '--max-count', '301', '-e', 'a b', '--', '.']);
    expect(withPattern(['--json', '--', 'a', '--'], ['-f', '-'])).toEqual(['--json', '-f', '-', '--', 'a', '--']);
    expect(withPattern(['--json', '.'], ['-e', '--'])).toEqual(['--json', '.', '-e', '--']);
  });
});

describe.skipIf(process.platform === 'win32')('ripgrep through the helper process', () => {
  it('prints what ripgrep run directly prints, with the same exit codes and stderr', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
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

  it('warm: one rg --version through the helper, not counted, gone once done; the helper serves on', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    const handle = startHelper();
    const pid = handle.state()!.pid;
    // Its ripgrep starts under the helper and ends, its output read and dropped here.
    await handle.warm(rg);
    expect(handle.state()!.runs).toBe(0);
    expect(await waitFor(() => childrenOf(pid).length === 0)).toBe(true);
    const args = ['--json', '--sort', 'path', '-e', 'needle', '.'];
    const got = await lines(args, w.root);
    expect(got.out).toEqual(direct(args, w.root, rg).out);
    expect(handle.state()).toMatchObject({ pid, runs: 1 });
  });

  it('loses no output on 200 fast runs (the helper never reads the pipes it hands over)', async () => {
    const w = corpus();
    startHelper();
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
    startHelper();
    const { pid } = ripgrepHelperState()!;
    let seen = 0;
    const stopped = await runRipgrep({ args: ['--json', '-j1', '-e', 'needle', '.'], cwd: w.root, onLine: () => (++seen === 2 ? 'stop' : 'continue') });
    expect(stopped.stopped).toBe(true);
    const controller = new AbortController();
    const aborted = runRipgrep({ args: ['-e', 'line', '.'], cwd: w.root, signal: controller.signal, onLine: () => 'continue' });
    controller.abort();
    expect((await aborted).cancelled).toBe(true);
    expect(await waitFor(() => childrenOf(pid).length === 0)).toBe(true);
  });

  it('when the helper dies, ripgrep is spawned directly from then on', async () => {
    const w = corpus();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => ripgrepHelperState() === undefined)).toBe(true);
    const r = await lines(['--sort', 'path', '-l', '-e', 'needle', '.'], w.root);
    expect(r.exit.code).toBe(0);
    expect(r.out).toContain('./a.ts');
  });

  it('a helper that stops answering is given up: the runs waiting on it spawn ripgrep themselves and answer whole, and so does the next run', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    const args = ['--json', '--sort', 'path', '-e', 'needle', '.'];
    const want = direct(args, w.root, rg).out;
    process.kill(pid, 'SIGSTOP');
    try {
      const t0 = Date.now();
      const runs = await Promise.all(Array.from({ length: 20 }, () => lines(args, w.root)));
      // Given up only once it had been silent for its deadline (5 s), not before.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(5000);
      for (const r of runs) {
        expect(r.out).toEqual(want);
        expect(r.exit.code).toBe(0);
      }
      expect(ripgrepHelperState()).toBeUndefined();
      const r = await lines(args, w.root);
      expect(r.out).toEqual(want);
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already killed
      }
    }
    // The stopped helper was killed: it is gone.
    expect(await waitFor(() => isGone(pid))).toBe(true);
  });

  it('a helper that stops after handing the pipes over, before reporting the exit, ends the run after its deadline with the output kept', async () => {
    const w = corpus();
    const fifo = w.file('fifo');
    execFileSync('mkfifo', [fifo]);
    startHelper();
    const { pid } = ripgrepHelperState()!;
    // ripgrep prints a.ts's line first, then waits on the FIFO: that line reaching this process shows
    // the pipe was handed over; then the helper is stopped and ripgrep finishes.
    const out: string[] = [];
    let firstLine: () => void = () => undefined;
    const sawFirst = new Promise<void>((r) => (firstLine = r));
    const run = runRipgrep({ args: ['-n', '--line-buffered', '-j1', '-e', 'needle', 'a.ts', 'fifo'], cwd: w.root, onLine: (l) => (out.push(l), firstLine(), 'continue') });
    const writer = await open(fifo, 'w');
    await sawFirst;
    process.kill(pid, 'SIGSTOP');
    try {
      await writer.write('a\nneedle here\n');
      await writer.close();
      const exit = await run;
      expect(out).toEqual(['a.ts:1:const needle = 1;', 'fifo:2:needle here']);
      expect(exit.code).toBeNull();
      expect(ripgrepHelperState()).toBeUndefined();
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already killed
      }
    }
  });

  it('a search that comes while the ripgrep started ahead is still on its way takes it: one ripgrep, not two', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    const args = patternArgs('needle');
    await lines(args, w.root, args.length - 3);
    // Held before it starts the ripgrep ahead, which the server asks for on the next timer turn.
    process.kill(pid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 0));
    const before = ripgrepHelperState()!;
    let second: ReturnType<typeof lines>;
    try {
      const next = patternArgs('needle \\d+');
      second = lines(next, w.root, next.length - 3);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const got = await second;
    const next = patternArgs('needle \\d+');
    expect(got.out).toEqual(direct(next, w.root, rg).out);
    expect(ripgrepHelperState()!.spareRuns - before.spareRuns).toBe(1);
    // The helper started the one ripgrep ahead and, after the search, the next one: no other.
    expect(await waitFor(() => childrenOf(pid).length === 1)).toBe(true);
    expect(commandLine(childrenOf(pid)[0]!)).toContain('-f');
  });

  it('a search that took the ripgrep started ahead before it came over, whose folder was swapped before its spawn, gets a ripgrep of its own', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    const dir = w.file('scope');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'inside.txt'), 'needle inside\n');
    const elsewhere = w.file('elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'outside.txt'), 'needle outside\n');
    const args = patternArgs('needle');
    await lines(args, dir, args.length - 3);
    process.kill(pid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 0)); // the server has asked for the ripgrep ahead
    const spares = ripgrepHelperState()!.spareRuns;
    let second: ReturnType<typeof lines>;
    try {
      // The search takes the ripgrep ahead for the folder at `dir` now; then `dir` becomes a link,
      // so the helper starts that ripgrep in the other folder.
      second = lines(args, dir, args.length - 3);
      await new Promise((r) => setImmediate(r));
      renameSync(dir, w.file('scope.bak'));
      symlinkSync(elsewhere, dir, 'dir');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Not searched by the ripgrep started in the other folder: by one of its own, run after the swap.
    expect((await second).out).toEqual(direct(args, dir, rg).out);
    expect(ripgrepHelperState()!.spareRuns).toBe(spares);
  });

  it('a server busy past the deadline does not give a helper that did answer up', async () => {
    const w = corpus();
    startHelper();
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

  it('a run with its pattern position takes the ripgrep started ahead after it: the same output and exit as -e, pattern after pattern', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    // Patterns -f reads one per line, as -e takes them: a leading dash, backslashes, Unicode, a tab.
    const patterns = ['needle', 'needle \\d+', '-needle', '\\bneedle\\b', '😀 needle 漢字', 'x\tneedle', '[\\p{L}&&[^\\x00-\\x7f]]', '(unclosed', 'no such text'];
    for (const [i, pattern] of patterns.entries()) {
      const args = patternArgs(pattern);
      const before = ripgrepHelperState()!.spareRuns;
      const got = await lines(args, w.root, args.length - 3);
      const want = direct(args, w.root, rg);
      expect(got.out, pattern).toEqual(want.out);
      expect(got.exit.code, pattern).toBe(want.code);
      if (pattern === '(unclosed') expect(got.exit.stderr).toMatch(/regex parse error/);
      // From the second run on, each took the ripgrep started after the one before it.
      expect(ripgrepHelperState()!.spareRuns - before, pattern).toBe(i === 0 ? 0 : 1);
      // The next one is started once this run has ended (after this turn of the event loop).
      expect(await waitFor(() => childrenOf(ripgrepHelperState()!.pid).length === 1)).toBe(true);
    }
    const [spare] = childrenOf(ripgrepHelperState()!.pid);
    expect(commandLine(spare!).slice(-5, -1)).toEqual(['-f', '-', '--', '.']);
  });

  it('a pattern with a line break, other arguments or another folder do not take the ripgrep started ahead', async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    const args = patternArgs('needle');
    await lines(args, w.root, args.length - 3);
    expect(await waitFor(() => childrenOf(ripgrepHelperState()!.pid).length === 1)).toBe(true);
    const spares = ripgrepHelperState()!.spareRuns;
    // -f - would read two patterns here; -e takes the line break as ripgrep decides.
    const broken = patternArgs('needle\nline');
    const got = await lines(broken, w.root, broken.length - 3);
    expect(got.out).toEqual(direct(broken, w.root, rg).out);
    const other = patternArgs('needle', 'b');
    expect((await lines(other, w.root, other.length - 3)).out).toEqual(direct(other, w.root, rg).out);
    expect(ripgrepHelperState()!.spareRuns).toBe(spares);
  });

  it("searches and replaceInFiles' listings in turn: each takes the ripgrep started after the last of its kind, and lists what ripgrep -l does", async () => {
    const w = corpus();
    const rg = await ripgrepPath();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    const scope = await resolveWorkspacePath('.', [w.root], { directories: true });
    if (!scope.ok) throw new Error(scope.message);
    const steps: [string, string][] = [
      ['search', 'needle'],
      ['listing', 'needle'],
      ['search', 'needle \\d+'],
      ['listing', 'needle 1'],
      ['search', 'a'],
      ['listing', '😀 needle'],
      ['listing', 'needle 2'],
    ];
    for (const [i, [kind, pattern]] of steps.entries()) {
      const before = ripgrepHelperState()!.spareRuns;
      if (kind === 'search') {
        const args = patternArgs(pattern);
        expect((await lines(args, w.root, args.length - 3)).out, `${kind} ${i}`).toEqual(direct(args, w.root, rg).out);
      } else {
        const listed = await listReplaceCandidates({ documents: { all: () => [] } }, { scope, respectIgnore: true, prefilter: { text: pattern, ignoreCase: false }, signal: new AbortController().signal });
        if (!listed.ok) throw new Error(listed.message);
        const want = direct(['-l', '--fixed-strings', '--case-sensitive', '--no-config', '--no-require-git', '-e', pattern, '--', '.'], w.root, rg).out;
        expect(listed.files.map((f) => path.relative(w.root, f)).sort(), `${kind} ${i}`).toEqual(want.map((l) => l.replace(/^\.\//, '')).sort());
        expect(listed.files.length, `${kind} ${i}`).toBeGreaterThan(0);
      }
      // The first of each kind spawns its own; every later one takes the one started after the last of its kind.
      expect(ripgrepHelperState()!.spareRuns - before, `${kind} ${i}`).toBe(i < 2 ? 0 : 1);
      expect(await waitFor(() => childrenOf(pid).length === Math.min(i + 1, 2))).toBe(true);
    }
  });

  it('a ripgrep started ahead is not used once its folder was replaced: the new folder is searched', async () => {
    const w = corpus();
    startHelper();
    const dir = w.file('scope');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'old.txt'), 'needle in the old folder\n');
    const args = patternArgs('needle');
    expect((await lines(args, dir, args.length - 3)).out.join('\n')).toContain('old folder');
    expect(await waitFor(() => childrenOf(ripgrepHelperState()!.pid).length === 1)).toBe(true);
    const spares = ripgrepHelperState()!.spareRuns;
    // The folder at that path is another one now (the spare's working folder is the old one, moved).
    renameSync(dir, w.file('scope-moved'));
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'new.txt'), 'needle in the new folder\n');
    const got = (await lines(args, dir, args.length - 3)).out.join('\n');
    expect(got).toContain('new folder');
    expect(got).not.toContain('old folder');
    expect(ripgrepHelperState()!.spareRuns).toBe(spares);
  });

  it('a ripgrep started ahead in a folder swapped in just before its spawn is not used once the first folder is back', async () => {
    const w = corpus();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    const dir = w.file('scope');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'inside.txt'), 'needle inside\n');
    const elsewhere = w.file('elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'outside.txt'), 'needle outside\n');
    const args = patternArgs('needle');
    expect((await lines(args, dir, args.length - 3)).out.join('\n')).toContain('inside');
    // The helper is held while the server asks for the next ripgrep; the folder is swapped for a
    // link before the helper spawns it, so that ripgrep starts in the other folder.
    process.kill(pid, 'SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, 50)); // the server has asked for the spare by now
      renameSync(dir, w.file('scope.bak'));
      symlinkSync(elsewhere, dir, 'dir');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(await waitFor(() => childrenOf(pid).length === 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 100)); // its hand-over read
    unlinkSync(dir);
    renameSync(w.file('scope.bak'), dir);
    const spares = ripgrepHelperState()!.spareRuns;
    const got = (await lines(args, dir, args.length - 3)).out.join('\n');
    expect(got).toContain('inside');
    expect(got).not.toContain('outside');
    expect(ripgrepHelperState()!.spareRuns).toBe(spares);
  });

  it('a large output (4 MB, the pipe full many times over) is read whole', async () => {
    const big: Record<string, string> = {};
    for (let i = 0; i < 40; i++) big[`f${String(i).padStart(2, '0')}.txt`] = `needle ${'x'.repeat(100)} ${i}\n`.repeat(400);
    const w = tempWorkspace(big, 'editls-rghelper-big-');
    workspaces.push(w);
    startHelper();
    const args = ['--json', '--no-config', '-e', 'needle', '.'];
    const want = direct(args, w.root, await ripgrepPath()).out;
    expect(want.join('\n').length).toBeGreaterThan(4_000_000);
    const got = await lines(args, w.root, args.length - 2);
    expect(got.exit.code).toBe(0);
    // The parallel walk's file order varies: the same lines, in any order of files.
    expect([...got.out].sort()).toEqual([...want].sort());
  });

  it('a stopped run that had taken the ripgrep started ahead ends it; the helper keeps only the next one', async () => {
    const { w, pid, args, spare: first } = await withSpare();
    let seen = 0;
    const stopped = await runRipgrep({ ...apart(args, args.length - 3), cwd: w.root, onLine: () => (++seen === 2 ? 'stop' : 'continue') });
    expect(stopped.stopped).toBe(true);
    expect(ripgrepHelperState()!.spareRuns).toBe(1);
    expect(await waitFor(() => isGone(first!))).toBe(true);
    expect(await waitFor(() => childrenOf(pid).length === 1 && childrenOf(pid)[0] !== first)).toBe(true);
  });

  it('the ripgrep started ahead goes when the helper is killed (its stdin closes)', async () => {
    const { pid, spare } = await withSpare();
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => ripgrepHelperState() === undefined)).toBe(true);
    expect(await waitFor(() => isGone(spare!))).toBe(true);
  });

  it('editls --stdio starts one helper once initialize is answered (not before: it would delay the answer), and the helper exits when editls is killed', async () => {
    const server = spawn(process.execPath, [SERVER_JS, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const answered = new Promise<void>((resolve) => server.stdout.once('data', () => resolve()));
      // The helper comes on the turn after the answer.
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
      server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await answered;
      // No folder: no index build, so the helper is the only child.
      expect(await waitFor(() => childrenOf(server.pid!).length === 1)).toBe(true);
      const [helperPid] = childrenOf(server.pid!);
      expect(commandLine(helperPid!)[1]).toBe('-e');
      server.kill('SIGKILL');
      expect(await waitFor(() => isGone(helperPid!))).toBe(true);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('a helper whose editls dies while it hands a ripgrep started ahead over still exits, with that ripgrep', async () => {
    const w = corpus();
    for (let trial = 0; trial < 3; trial++) {
      const client = await TestClient.start({ root: w.root });
      try {
        await client.exec('editls.searchFiles', { path: '.', regex: 'needle 1' });
        const helperPid = await helperOf(client.proc.pid!);
        expect(await waitFor(() => childrenOf(helperPid!).length === 1)).toBe(true);
        // The next search's answer, then editls gone while the helper (held) has the request for the
        // next ripgrep ahead unread: it starts that ripgrep and hands it over to a closed channel.
        process.kill(helperPid!, 'SIGSTOP');
        const search = client.exec('editls.searchFiles', { path: '.', regex: 'needle 2' });
        await new Promise((r) => setTimeout(r, 100));
        process.kill(helperPid!, 'SIGCONT');
        await search;
        process.kill(helperPid!, 'SIGSTOP');
        await new Promise((r) => setTimeout(r, 100)); // editls has asked for the next one by now
        client.proc.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 100));
        process.kill(helperPid!, 'SIGCONT');
        expect(await waitFor(() => isGone(helperPid!))).toBe(true);
        // No ripgrep is left waiting for a pattern that will never come.
        const orphans = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && commandLine(Number(p)).join(' ').includes(`-f - -- .`) && readlinkOr(`/proc/${p}/cwd`) === w.root);
        expect(await waitFor(() => orphans.every((p) => isGone(Number(p))))).toBe(true);
      } finally {
        client.proc.kill('SIGKILL');
      }
    }
  }, 30_000);

  it('after a search, editls --stdio keeps one ripgrep started ahead; it goes with editls', async () => {
    const w = corpus();
    const client = await TestClient.start({ root: w.root });
    try {
      const first = await client.exec('editls.searchFiles', { path: '.', regex: 'needle \\d' });
      expect(first.count).toBe(300);
      const helperPid = await helperOf(client.proc.pid!);
      // A child seen between its fork and its exec still shows the helper's own command line: wait for the exec.
      expect(await waitFor(() => childrenOf(helperPid!).length === 1 && commandLine(childrenOf(helperPid!)[0]!).includes('-f'))).toBe(true);
      const [spare] = childrenOf(helperPid!);
      expect(commandLine(spare!)).toContain('-f');
      // The next search takes it and answers as a first search would.
      const second = await client.exec('editls.searchFiles', { path: '.', regex: 'needle 29\\d' });
      expect(second.matches.map((m: { path: string }) => m.path)).toEqual(['many/f290.txt', 'many/f291.txt', 'many/f292.txt', 'many/f293.txt', 'many/f294.txt', 'many/f295.txt', 'many/f296.txt', 'many/f297.txt', 'many/f298.txt', 'many/f299.txt']);
      expect(await waitFor(() => isGone(spare!))).toBe(true);
      expect(await waitFor(() => childrenOf(helperPid!).length === 1)).toBe(true);
      const [next] = childrenOf(helperPid!);
      client.proc.kill('SIGKILL');
      expect(await waitFor(() => isGone(helperPid!) && isGone(next!))).toBe(true);
      // The helper shares editls's stderr: it went without a word (no report sent to a closed channel).
      await new Promise((r) => setTimeout(r, 200));
      expect(client.stderr).toBe('');
    } finally {
      client.proc.kill('SIGKILL');
    }
  });
});

/** searchFiles over the whole of `root` (no file_pattern), as editls.searchFiles runs it. */
async function searchWhole(root: string, regex: string, o: { maxResults: number; respectIgnore?: boolean; contextLines?: number }) {
  const scope = await resolveWorkspacePath('.', [root], { directories: true });
  if (!scope.ok) throw new Error(scope.message);
  const req: SearchRequest = { scope, regex, respectIgnore: o.respectIgnore ?? true, contextLines: o.contextLines ?? 2, maxResults: o.maxResults, signal: new AbortController().signal };
  const r = await searchFiles({ folders: [root], documents: { all: () => [] }, maxFileSize: 10 * 1024 * 1024, log: () => undefined }, req);
  if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
  return { count: r.matchCount, truncated: r.truncated, hits: r.files.flatMap((f) => f.lines.filter((l) => l.match).map((l) => `${f.path}:${l.line}`)) };
}

/** The helper's one child once it is a ripgrep waiting for its pattern (a child between fork and exec still shows the helper's command line). */
/**
 * editls's ripgrep helper (`node -e`), once it runs: editls has other children beside it (the
 * symbol index build's ripgrep, started once `initialize` is answered).
 */
async function helperOf(editlsPid: number): Promise<number> {
  const helper = () => childrenOf(editlsPid).find((c) => commandLine(c)[1] === '-e');
  expect(await waitFor(() => helper() !== undefined)).toBe(true);
  return helper()!;
}

async function waitingRipgrep(helperPid: number): Promise<number> {
  expect(await waitFor(() => childrenOf(helperPid).length === 1 && commandLine(childrenOf(helperPid)[0]!).includes('-f'))).toBe(true);
  return childrenOf(helperPid)[0]!;
}

describe("a session's first search of a whole folder takes a ripgrep started ahead", () => {
  const expectedHits = Array.from({ length: 300 }, (_, i) => `many/f${String(i).padStart(3, '0')}.txt:2`);

  it('searchFolderAhead starts the ripgrep a whole-folder search with these options runs; that search takes it and answers as without it', async () => {
    const w = corpus();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    searchFolderAhead(w.root, { respectIgnore: true, maxResults: 500 });
    const ahead = await waitingRipgrep(pid);
    expect(commandLine(ahead).slice(1, -1)).toEqual(['--json', '--no-config', '--no-require-git', '--crlf', '--line-number', '--max-count', '501', '-f', '-', '--', '.']);
    expect(readlinkOr(`/proc/${ahead}/cwd`)).toBe(w.root);
    const before = ripgrepHelperState()!.spareRuns;
    // Context lines are read here, not by ripgrep: any context_lines takes it.
    const first = await searchWhole(w.root, 'needle \\d+', { maxResults: 500, contextLines: 3 });
    expect(ripgrepHelperState()!.spareRuns - before).toBe(1);
    expect(first.count).toBe(300);
    expect([...first.hits].sort()).toEqual(expectedHits);
    expect(await waitFor(() => isGone(ahead))).toBe(true);
  });

  it('a first search with other options does not take it and answers the same; it goes once two other kinds of search were started ahead', async () => {
    const w = corpus();
    startHelper();
    const { pid } = ripgrepHelperState()!;
    searchFolderAhead(w.root, { respectIgnore: true, maxResults: 500 });
    const ahead = await waitingRipgrep(pid);
    for (const [label, o, want] of [
      ['another max_results', { maxResults: 299 }, { count: 299, truncated: true }],
      ['respect_gitignore false', { maxResults: 500, respectIgnore: false }, { count: 300, truncated: false }],
    ] as const) {
      const before = ripgrepHelperState()!.spareRuns;
      const r = await searchWhole(w.root, 'needle \\d+', o);
      expect(ripgrepHelperState()!.spareRuns - before, label).toBe(0);
      expect({ count: r.count, truncated: r.truncated }, label).toEqual(want);
    }
    // Each of those started one ahead for the next search like it: two are kept, the oldest went.
    expect(await waitFor(() => isGone(ahead))).toBe(true);
    const kinds = () => childrenOf(pid).map((c) => commandLine(c).join(' '));
    const firstKind = (k: string) => / --max-count 501 -f - /.test(k) && !k.includes('--no-ignore');
    expect(await waitFor(() => kinds().length === 2 && kinds().every((k) => / -f - /.test(k) && !firstKind(k)))).toBe(true);
    // The ignored files are left out when .gitignore is honoured, with the ripgrep started ahead as without.
    w.write('.gitignore', 'many/f0*\n');
    searchFolderAhead(w.root, { respectIgnore: true, maxResults: 500 });
    expect(await waitFor(() => kinds().length === 2 && kinds().some(firstKind))).toBe(true);
    const before = ripgrepHelperState()!.spareRuns;
    const r = await searchWhole(w.root, 'needle \\d+', { maxResults: 500 });
    expect(ripgrepHelperState()!.spareRuns - before).toBe(1);
    expect(r.count).toBe(200);
    expect(r.hits.some((h) => h.startsWith('many/f0'))).toBe(false);
  });

  it('editls --stdio starts it once the settings are known (its max_results), in the first folder; its first search takes it', async () => {
    const w = corpus();
    const client = await TestClient.start({ root: w.root, initializationOptions: { maxResults: 40 } });
    try {
      const helperPid = await helperOf(client.proc.pid!);
      const ahead = await waitingRipgrep(helperPid);
      const args = commandLine(ahead);
      expect(args.slice(1, -1)).toEqual(['--json', '--no-config', '--no-require-git', '--crlf', '--line-number', '--max-count', '41', '-f', '-', '--', '.']);
      expect(readlinkOr(`/proc/${ahead}/cwd`)).toBe(w.root);
      const first = await client.exec('editls.searchFiles', { path: '.', regex: 'needle \\d' });
      expect(first.count).toBe(40);
      expect(first.truncated).toBe(true);
      // Taken: the one started after the search for the next one like it has the same arguments
      // (one with other arguments would have been discarded, and the next one would have those).
      expect(await waitFor(() => isGone(ahead))).toBe(true);
      const next = await waitingRipgrep(helperPid!);
      expect(commandLine(next)).toEqual(args);
    } finally {
      client.proc.kill('SIGKILL');
    }
  });
});
