// Crash safety: kill -9 the server while it writes files of 10 KB to 10 MB to disk. Every file must
// hold the old or the new content, never a torn mix, and the temporary files of interrupted writes
// must be gone after the next start.
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, watch } from 'node:fs';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';
import { report, size } from './budget.js';

const ws = tempWorkspace({});
afterAll(() => ws.cleanup());

function content(bytes: number, token: string): string {
  const line = `const value = "${token}"; // padding padding padding padding padding\n`;
  return line.repeat(Math.ceil(bytes / line.length));
}

describe('crash safety', () => {
  it('kill -9 during disk writes leaves old or new content, and the next start sweeps temp files', async () => {
    const trials = size(200, 12);
    const sizes = [10 * 1024, 1024 * 1024, 10 * 1024 * 1024 - 4096];
    const files = sizes.map((bytes, i) => ({ rel: `sub${i}/file${i}.txt`, old: content(bytes, 'OLD'), new: content(bytes, 'NEW') }));
    for (const f of files) ws.write(f.rel, f.old);
    let torn = 0;
    let oldSeen = 0;
    let newSeen = 0;
    let strayAfterRestart = 0;
    let tempsLeftByKill = 0;
    const temps = () => files.flatMap((x) => readdirSync(ws.file(x.rel.split('/')[0]!)).filter((n) => n.startsWith('.editls-tmp-')));
    let client = await TestClient.start({ root: ws.root, initializationOptions: { maxFileSize: 64 * 1024 * 1024 } });
    for (let t = 0; t < trials; t++) {
      const f = files[t % files.length]!;
      const onDisk = readFileSync(ws.file(f.rel), 'utf8');
      const [from, to] = onDisk === f.old ? ['OLD', 'NEW'] : ['NEW', 'OLD'];
      // replace_all rewrites every line, so a torn write would show as a mix of OLD and NEW
      const victim = client;
      // half the trials kill the moment a temporary file appears (inotify): inside the write itself
      const watcher =
        t % 2 === 0
          ? watch(ws.file(f.rel.split('/')[0]!), (_event, name) => {
              if (name?.startsWith('.editls-tmp-')) victim.proc.kill('SIGKILL');
            })
          : undefined;
      void client.exec('editls.edit', { file_path: f.rel, old_string: from, new_string: to, replace_all: true }).catch(() => undefined);
      if (watcher) await Promise.race([client.exitCode, new Promise((r) => setTimeout(r, 3000))]);
      else await new Promise((r) => setTimeout(r, (t * 7919) % 300));
      watcher?.close();
      client.proc.kill('SIGKILL');
      await client.exitCode;
      client.conn.dispose();
      const after = readFileSync(ws.file(f.rel), 'utf8');
      if (after === f.old) oldSeen++;
      else if (after === f.new) newSeen++;
      else torn++;
      tempsLeftByKill += temps().length;
      client = await TestClient.start({ root: ws.root, initializationOptions: { maxFileSize: 64 * 1024 * 1024 } });
      const clean = await waitFor(() => temps().length === 0);
      if (!clean) strayAfterRestart++;
    }
    await client.shutdown();
    report('crash safety (kill -9 during writes of 10 KB, 1 MB, 10 MB files)', { trials, torn, old: oldSeen, new: newSeen, tempFilesLeftByKills: tempsLeftByKill, strayTempsAfterRestart: strayAfterRestart });
    expect(torn).toBe(0);
    expect(strayAfterRestart).toBe(0);
    expect(oldSeen + newSeen).toBe(trials);
    expect(tempsLeftByKill).toBeGreaterThan(0); // the kills really landed inside writes
  }, 600_000);
});
