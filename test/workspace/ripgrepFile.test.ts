// ripgrep through a temporary file (the symbol index build's runner) with the real binary: the same
// bytes as through a pipe, no file left behind (it is unlinked before ripgrep starts), stop and
// cancel kill ripgrep, an unusable folder means "use a pipe", a full disk is recognised, and no
// output is read while a request is being served (the build steps aside for it). A run started
// ahead (ripgrepToFile.ts, as main.ts starts the index build's) is read as one started here, also
// when it ended before anyone read it; one discarded is killed.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runRipgrep } from '../../server/workspace/search/ripgrep.js';
import { outputFailed, runRipgrepThroughFile } from '../../server/workspace/search/ripgrepFile.js';
import { startRipgrepToFile } from '../../server/workspace/search/ripgrepToFile.js';
import { ripgrepPath } from '../../server/workspace/search/ripgrep.js';
import { inForeground, serving } from '../../server/workspace/timeSlice.js';
import { spawnSync } from 'node:child_process';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

function ws(files: Record<string, string>): TempWorkspace {
  const w = tempWorkspace(files, 'editls-rgfile-');
  cleanups.push(() => w.cleanup());
  return w;
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-rgfile-tmp-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** 300 files of 200 lines: output of a few hundred KB, more than one read and more than a pipe holds. */
function bigWorkspace(): TempWorkspace {
  const files: Record<string, string> = {};
  for (let f = 0; f < 300; f++) {
    let text = '';
    for (let l = 0; l < 200; l++) text += `export function f${f}_${l}(a: string, é: number) { return a; } // 😀 ${'x'.repeat(l % 40)}\n`;
    files[`src/d${f % 7}/file${f}.ts`] = text;
  }
  return ws(files);
}

const ARGS = ['--no-config', '--heading', '--null', '--line-number', '--color', 'never', '-e', 'function', '--', '.'];

describe('ripgrep through a temporary file', () => {
  it('gives the bytes a pipe gives, in several blocks, and leaves no file behind', async () => {
    const w = bigWorkspace();
    const dir = tempDir();
    const viaPipe: Buffer[] = [];
    const pipeExit = await runRipgrep({ args: ['--threads', '1', ...ARGS], cwd: w.root, onChunk: (c) => (viaPipe.push(Buffer.from(c)), 'continue') });
    const viaFile: Buffer[] = [];
    let seenDuringRun: string[] | undefined;
    const fileExit = await runRipgrepThroughFile({
      args: ['--threads', '1', ...ARGS],
      cwd: w.root,
      tempDir: dir,
      onChunk: (c) => {
        seenDuringRun ??= readdirSync(dir);
        // The block is reused after the call: keep a copy.
        viaFile.push(Buffer.from(c));
        return 'continue';
      },
    });
    expect(fileExit).toMatchObject({ code: 0, stopped: false, cancelled: false });
    expect(pipeExit.code).toBe(0);
    const a = Buffer.concat(viaFile);
    expect(a.length).toBeGreaterThan(300_000);
    expect(a.equals(Buffer.concat(viaPipe))).toBe(true);
    expect(viaFile.length).toBeGreaterThan(1);
    // Unlinked as soon as it was open: not even there while ripgrep runs.
    expect(seenDuringRun).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a consumer that stops, or an aborted signal, ends the run with ripgrep gone', async () => {
    const w = bigWorkspace();
    let blocks = 0;
    const stopped = await runRipgrepThroughFile({ args: ARGS, cwd: w.root, onChunk: () => (++blocks === 1 ? 'stop' : 'continue') });
    expect(stopped).toMatchObject({ stopped: true, cancelled: false });
    expect(blocks).toBe(1);

    const controller = new AbortController();
    const cancelled = await runRipgrepThroughFile({
      args: ARGS,
      cwd: w.root,
      signal: controller.signal,
      onChunk: () => {
        controller.abort();
        return 'continue';
      },
    });
    expect(cancelled).toMatchObject({ cancelled: true });
    const early = new AbortController();
    early.abort();
    expect(await runRipgrepThroughFile({ args: ARGS, cwd: w.root, signal: early.signal, onChunk: () => 'continue' })).toMatchObject({ cancelled: true, code: null });
  });

  it('answers undefined when no temporary file can be made there (the caller then uses a pipe)', async () => {
    const w = ws({ 'a.ts': 'function a() {}\n' });
    const missing = path.join(tempDir(), 'no', 'such', 'folder');
    expect(await runRipgrepThroughFile({ args: ARGS, cwd: w.root, tempDir: missing, onChunk: () => 'continue' })).toBeUndefined();
  });

  it('recognises ripgrep failing to write its output (a full disk, a quota)', () => {
    const exit = (code: number | null, stderr: string) => ({ code, stderr, stopped: false, cancelled: false, sawSummary: false, malformed: [] });
    expect(outputFailed(exit(2, 'rg: No space left on device (os error 28)\n'))).toBe(true);
    expect(outputFailed(exit(2, 'rg: Disk quota exceeded (os error 122)\n'))).toBe(true);
    expect(outputFailed(exit(2, 'rg: ./secret: Permission denied (os error 13)\n'))).toBe(false);
    expect(outputFailed(exit(0, 'No space left on device'))).toBe(false);
  });

  it('reads no output while a request is being served, and all of it once it is answered', async () => {
    const w = bigWorkspace();
    let whileServing = 0;
    let bytes = 0;
    let release!: () => void;
    const request = serving(() => new Promise<void>((r) => (release = r)));
    const run = runRipgrepThroughFile({
      args: ARGS,
      cwd: w.root,
      onChunk: (c) => {
        if (inForeground()) whileServing++;
        bytes += c.length;
        return 'continue';
      },
    });
    setTimeout(release, 100);
    await request;
    const exit = await run;
    expect(exit?.code).toBe(0);
    expect(whileServing).toBe(0);
    expect(bytes).toBeGreaterThan(100_000);
  });

  it('reads a run started ahead as one it starts, also one that ended before it was read', async () => {
    const w = bigWorkspace();
    const dir = tempDir();
    const rg = await ripgrepPath();
    const args = ['--threads', '1', ...ARGS];
    const collect = async (started?: ReturnType<typeof startRipgrepToFile>) => {
      const chunks: Buffer[] = [];
      const exit = await runRipgrepThroughFile({ args, cwd: w.root, tempDir: dir, onChunk: (c) => (chunks.push(Buffer.from(c)), 'continue') }, started);
      return { exit, bytes: Buffer.concat(chunks) };
    };
    const fresh = await collect();
    const ahead = startRipgrepToFile(rg, args, w.root, dir)!;
    expect(ahead).toBeDefined();
    expect(readdirSync(dir)).toEqual([]);
    // Long over before anyone reads it: its exit and its output are still all there.
    await new Promise<void>((resolve) => ahead.onExit(resolve));
    const adopted = await collect(ahead);
    expect(adopted.exit).toMatchObject({ code: 0, stopped: false, cancelled: false });
    expect(adopted.bytes.length).toBeGreaterThan(300_000);
    expect(adopted.bytes.equals(fresh.bytes)).toBe(true);
    // Read while it is still running.
    const running = await collect(startRipgrepToFile(rg, args, w.root, dir));
    expect(running.bytes.equals(fresh.bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('kills a run started ahead that is discarded, or whose reader is cancelled first', async () => {
    const w = ws({ 'a.ts': 'function a() {}\n' });
    // ripgrep named a FIFO waits for a writer for ever: a run that only a kill ends.
    expect(spawnSync('mkfifo', [w.file('pipe')]).status).toBe(0);
    const rg = await ripgrepPath();
    const discarded = startRipgrepToFile(rg, ['--no-config', '-e', 'x', '--', 'pipe'], w.root)!;
    discarded.discard();
    await new Promise<void>((resolve) => discarded.onExit(resolve));
    expect(discarded.child.signalCode).toBe('SIGKILL');
    const cancelled = new AbortController();
    cancelled.abort();
    const ahead = startRipgrepToFile(rg, ['--no-config', '-e', 'x', '--', 'pipe'], w.root)!;
    expect(await runRipgrepThroughFile({ args: [], cwd: w.root, signal: cancelled.signal, onChunk: () => 'continue' }, ahead)).toMatchObject({ cancelled: true });
    await new Promise<void>((resolve) => ahead.onExit(resolve));
    expect(ahead.child.signalCode).toBe('SIGKILL');
  });
});
