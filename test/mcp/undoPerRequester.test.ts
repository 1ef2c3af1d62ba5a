// Undo per requester (issue 24, item 4; contract: "Invariants"): the editor's user and each attached
// agent share one editls and one journal, but each undo reverts only the requester's own changes —
// an agent's `undo {}` never reverts the user's last edit or another agent's.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { privateRuntimeDir, startMcp } from '../helpers/mcpClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { waitFor } from '../helpers/waitFor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The scripted editor on `ws`, once its discovery record is published. */
async function editorOn(ws: TempWorkspace) {
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  const editor = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, clientName: 'TestEditor', env: { ...process.env, XDG_RUNTIME_DIR: rt.xdg } });
  cleanups.push(() => editor.shutdown());
  expect(await waitFor(() => existsSync(path.join(rt.dir, `${editor.proc.pid}.json`)))).toBe(true);
  return { rt, editor };
}

describe('undo per requester', () => {
  it("agents A and B and the user each undo their own change, never another's", async () => {
    const ws = tempWorkspace({ 'user.txt': 'u0\n', 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'shared.txt': 's0\n' });
    const { rt, editor } = await editorOn(ws);
    const a = await startMcp({ root: ws.root, xdg: rt.xdg, name: 'agent-a' });
    const b = await startMcp({ root: ws.root, xdg: rt.xdg, name: 'agent-b' });
    cleanups.push(() => a.close(), () => b.close());

    await editor.exec('editls.edit', { file_path: 'user.txt', old_string: 'u0', new_string: 'u1' });
    expect((await a.call('edit', { file_path: 'a.txt', old_string: 'a0', new_string: 'a1' })).structured.session.mode).toBe('attached');
    expect((await b.call('edit', { file_path: 'b.txt', old_string: 'b0', new_string: 'b1' })).structured.session.mode).toBe('attached');
    // The last change of all is the user's, to shared.txt.
    await editor.exec('editls.edit', { file_path: 'shared.txt', old_string: 's0', new_string: 's1' });

    // A's undo {} reverts A's change, not the user's later one.
    const undoA = await a.call('undo', {});
    expect(undoA.isError).toBe(false);
    expect(ws.read('a.txt')).toBe('a0\n');
    expect(ws.read('shared.txt')).toBe('s1\n');
    expect(ws.read('b.txt')).toBe('b1\n');
    // Nothing of A's is left: the user's and B's changes are not A's to undo.
    const again = await a.call('undo', {});
    expect(again.text).toMatch(/^no_change: nothing to undo/);
    expect((await a.call('undo', { path: 'user.txt' })).text).toMatch(/^no_change: /);
    expect(ws.read('user.txt')).toBe('u1\n');
    // B's undo of the user's file finds nothing of B's there; its own file it reverts.
    expect((await b.call('undo', { path: 'shared.txt' })).text).toMatch(/^no_change: /);
    expect((await b.call('undo', { path: 'b.txt' })).isError).toBe(false);
    expect(ws.read('b.txt')).toBe('b0\n');
    // The user's undo reverts the user's own changes, last first, and none of the agents'.
    await editor.exec('editls.undo', {});
    expect(ws.read('shared.txt')).toBe('s0\n');
    await editor.exec('editls.undo', {});
    expect(ws.read('user.txt')).toBe('u0\n');
    await expect(editor.exec('editls.undo', {})).rejects.toMatchObject({ data: { kind: 'no_change' } });
  });

  it("an agent's undo after the user changed the same file since is stale, and the user's text stays", async () => {
    const ws = tempWorkspace({ 'f.txt': 'one\n' });
    const { rt, editor } = await editorOn(ws);
    const a = await startMcp({ root: ws.root, xdg: rt.xdg, name: 'agent-a' });
    cleanups.push(() => a.close());
    expect((await a.call('edit', { file_path: 'f.txt', old_string: 'one', new_string: 'two' })).isError).toBe(false);
    await editor.exec('editls.edit', { file_path: 'f.txt', old_string: 'two', new_string: 'three' });
    const undo = await a.call('undo', {});
    expect(undo.text).toMatch(/^stale: f\.txt changed since/);
    expect(ws.read('f.txt')).toBe('three\n');
  });
});
