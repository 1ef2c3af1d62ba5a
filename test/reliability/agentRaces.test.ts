// Agent (through `editls mcp`, attached) and editor commands racing on the same files, open buffers
// and closed files: every insert from both sides must be in the result exactly once (no lost update),
// and an open buffer's file is never written on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { privateRuntimeDir, startMcp } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';
import { report, size } from './budget.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('agent and editor racing', () => {
  it('no lost update between an attached agent and the editor, open or closed files', async () => {
    const files = ['open1.txt', 'open2.txt', 'closed1.txt', 'closed2.txt'];
    const ws = tempWorkspace(Object.fromEntries(files.map((f) => [f, 'end\n'])));
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    const editor = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, clientName: 'E', env: { ...process.env, XDG_RUNTIME_DIR: rt.xdg } });
    cleanups.push(() => editor.shutdown());
    const recordFile = path.join(rt.dir, `${editor.proc.pid}.json`);
    expect(await waitFor(() => existsSync(recordFile))).toBe(true);
    await editor.open('open1.txt', 'end\n');
    await editor.open('open2.txt', 'end\n');
    const agents = [await startMcp({ root: ws.root, xdg: rt.xdg, name: 'a1' }), await startMcp({ root: ws.root, xdg: rt.xdg, name: 'a2' })];
    for (const a of agents) cleanups.push(() => a.close());
    const perSide = size(60, 6);
    const calls: Promise<{ isError: boolean; text?: string }>[] = [];
    for (let i = 0; i < perSide; i++) {
      for (const f of files) {
        calls.push(agents[i % 2]!.call('insert', { path: f, insert_line: 0, new_str: `agent ${i}` }));
        calls.push(editor.exec('editls.insert', { path: f, insert_line: 0, new_str: `editor ${i}` }).then(() => ({ isError: false }), (e: unknown) => ({ isError: true, text: String(e) })));
      }
    }
    const results = await Promise.all(calls);
    const failed = results.filter((r) => r.isError);
    let lost = 0;
    let duplicated = 0;
    for (const f of files) {
      const text = f.startsWith('open') ? editor.bufferText(f)! : ws.read(f);
      const lines = text.split('\n');
      for (let i = 0; i < perSide; i++) {
        for (const who of ['agent', 'editor']) {
          const count = lines.filter((l) => l === `${who} ${i}`).length;
          if (count === 0) lost++;
          if (count > 1) duplicated++;
        }
      }
    }
    const openWritten = ['open1.txt', 'open2.txt'].filter((f) => ws.read(f) !== 'end\n').length;
    report('agent and editor racing', { commands: calls.length, failed: failed.length, lostUpdates: lost, duplicated, openFilesWrittenOnDisk: openWritten });
    expect({ failed: failed.map((f) => f.text), lost, duplicated, openWritten }).toEqual({ failed: [], lost: 0, duplicated: 0, openWritten: 0 });
  }, 180_000);
});
