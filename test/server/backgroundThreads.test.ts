// The real server's thread priorities (server/backgroundThreads.ts), read from /proc: once
// `initialize` is answered every thread but the main one (libuv's threadpool, V8's helpers) runs at
// nice 10, the main thread keeps its own, and a thread the main thread starts later (a regex
// worker) keeps the main thread's. Linux only: elsewhere editls leaves every thread as it is.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { SERVER_JS, TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Each thread of `pid` and its nice value (field 19 of /proc/PID/task/TID/stat); a thread that ends meanwhile is left out. */
function niceOfThreads(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync(`/proc/${pid}/task`)) {
    try {
      // After the command's name in parentheses (which may hold blanks and parentheses): state is field 3, nice field 19.
      const stat = readFileSync(`/proc/${pid}/task/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(name), Number(fields[16]));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Waits until `test` holds for the threads of `pid` (there is no event to wait on): at most 20 s. */
async function threadsUntil(pid: number, test: (threads: Map<number, number>) => boolean, what: string): Promise<Map<number, number>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const threads = niceOfThreads(pid);
    if (test(threads)) return threads;
    if (Date.now() > deadline) throw new Error(`${what}: threads (tid => nice) ${JSON.stringify([...threads])}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(process.platform === 'linux')('background threads', () => {
  it('runs every thread but the main one at nice 10; a regex worker started later keeps the main thread’s', async () => {
    const ws = tempWorkspace({ 'a.txt': 'id: 1\nid: 22\n' });
    cleanups.push(() => ws.cleanup());
    const client = await TestClient.start({ root: ws.root });
    cleanups.push(() => client.shutdown());
    const pid = client.proc.pid!;
    // The server inherits this thread's priority (a CI runner may itself run niced).
    const base = os.getPriority();
    const lowered = Math.max(base, 10);
    const others = (threads: Map<number, number>) => [...threads].filter(([tid]) => tid !== pid);
    const before = await threadsUntil(pid, (threads) => others(threads).length >= 4 && others(threads).every(([, nice]) => nice === lowered), 'every thread but the main one at nice 10');
    expect(before.get(pid)).toBe(base);

    // A regex runs in a worker thread the main thread starts: at the main thread's priority.
    const r = await client.exec('editls.searchAndReplace', { path: 'a.txt', search: 'id: (\\d+)', replace: 'key=$1', use_regex: true });
    expect(r.replacements).toBe(2);
    expect(readFileSync(`${ws.root}/a.txt`, 'utf8')).toBe('key=1\nkey=22\n');
    const after = niceOfThreads(pid);
    const started = [...after].filter(([tid]) => !before.has(tid));
    expect(started.length).toBeGreaterThan(0);
    expect(started.every(([, nice]) => nice === base)).toBe(true);
    expect(after.get(pid)).toBe(base);
  });

  it('does the same in `editls mcp` (an agent without an editor: its edits are written there)', async () => {
    const ws = tempWorkspace({ 'a.txt': 'x\n' });
    cleanups.push(() => ws.cleanup());
    const proc = spawn(process.execPath, [SERVER_JS, 'mcp', '--root', ws.root], { stdio: 'pipe' });
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    cleanups.push(async () => {
      proc.stdin.end();
      await exited;
    });
    const pid = proc.pid!;
    const base = os.getPriority();
    const threads = await threadsUntil(pid, (t) => [...t].filter(([tid]) => tid !== pid).length >= 4 && [...t].every(([tid, nice]) => tid === pid || nice === Math.max(base, 10)), 'every thread but the main one at nice 10');
    expect(threads.get(pid)).toBe(base);
  });
});
