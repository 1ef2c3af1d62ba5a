// Lifecycle: the server must exit within 2 s when its client process dies, when stdin closes, and
// on `exit` without `shutdown` (code 1), and with code 0 after shutdown + exit.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { report } from './budget.js';

async function timeToExit(client: TestClient, trigger: () => unknown): Promise<{ ms: number; code: number | null }> {
  const t0 = Date.now();
  await trigger();
  const code = await Promise.race([client.exitCode, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5000))]);
  const ms = Date.now() - t0;
  client.conn.dispose();
  client.proc.kill('SIGKILL');
  return { ms, code: code === 'hung' ? -1 : code };
}

describe('lifecycle', () => {
  it('exits within 2 s in every way a session can end', async () => {
    const ws = tempWorkspace({});
    try {
      const results: Record<string, { ms: number; code: number | null }> = {};
      // client process dying: initialize names a separate short-lived process as the client
      const fakeClient = spawn('sleep', ['30']);
      const a = await TestClient.start({ root: ws.root, processId: fakeClient.pid! });
      results.clientDied = await timeToExit(a, () => fakeClient.kill('SIGKILL'));
      const b = await TestClient.start({ root: ws.root });
      results.stdinClosed = await timeToExit(b, () => b.proc.stdin.end());
      const c = await TestClient.start({ root: ws.root });
      results.exitWithoutShutdown = await timeToExit(c, () => c.conn.sendNotification('exit'));
      const d = await TestClient.start({ root: ws.root });
      results.shutdownThenExit = await timeToExit(d, async () => {
        await d.conn.sendRequest('shutdown');
        await d.conn.sendNotification('exit');
      });
      report('lifecycle (time to exit, ms / exit code)', Object.fromEntries(Object.entries(results).map(([k, v]) => [k, `${v.ms}ms/${v.code}`])));
      for (const r of Object.values(results)) expect(r.ms).toBeLessThan(2000);
      expect(results.clientDied!.code).toBe(1);
      expect(results.stdinClosed!.code).toBe(1);
      expect(results.exitWithoutShutdown!.code).toBe(1);
      expect(results.shutdownThenExit!.code).toBe(0);
    } finally {
      ws.cleanup();
    }
  });
});
