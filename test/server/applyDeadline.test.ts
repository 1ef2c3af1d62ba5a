// The editor round trip of an edit (workspace/applyEdit) has a deadline (`applyTimeoutMs`) and
// honours $/cancelRequest: the command fails with apply_rejected / cancelled, the file's lock is
// released, nothing is written to disk, and a late answer is ignored.
import { describe, expect, it } from 'vitest';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver/node';
import { CAPS_PLAIN_CHANGES, CAPS_VSCODE } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';
import { waitFor } from '../helpers/waitFor.js';

const { setup, start } = serverFixture();
const TEXT = 'alpha\nbeta\ngamma\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function errorOf(p: Promise<unknown>): Promise<{ code: number; message: string; data: any }> {
  try {
    const r = await p;
    throw new Error(`expected a failure, got ${JSON.stringify(r).slice(0, 300)}`);
  } catch (error) {
    if (error instanceof ResponseError) return { code: error.code, message: error.message, data: error.data };
    throw error;
  }
}

describe('workspace/applyEdit deadline and cancellation', () => {
  it('an editor that never answers: apply_rejected within applyTimeoutMs, lock released, disk untouched', async () => {
    const ws = setup({ 'a.txt': TEXT, 'b.txt': 'closed\n' });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 300 } });
    await client.open('a.txt');
    client.applyBehavior = 'never';
    const t0 = Date.now();
    const err = await errorOf(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }));
    const took = Date.now() - t0;
    expect(err.data.kind).toBe('apply_rejected');
    expect(err.message).toBe('the editor did not answer within 0.3 s; the edit to a.txt may still be applied by the editor later; nothing was written to disk');
    expect(err.data.mayStillApply).toEqual(['a.txt']);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3000);
    // the lock is released: a second command on the same file runs and succeeds
    client.applyBehavior = 'apply';
    const second = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' });
    expect(second).toMatchObject({ success: true, status: 'applied' });
    expect(client.bufferText('a.txt')).toBe('alpha\nBETA\ngamma\n');
    expect(ws.read('a.txt')).toBe(TEXT);
    expect(ws.read('b.txt')).toBe('closed\n');
  });

  it('$/cancelRequest while the editor has not answered: cancelled at once, lock released', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 60_000 } });
    await client.open('a.txt');
    client.applyBehavior = 'never';
    const source = new CancellationTokenSource();
    const pending = client.conn.sendRequest('workspace/executeCommand', { command: 'editls.edit', arguments: [{ file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }] }, source.token);
    await sleep(200);
    const t0 = Date.now();
    source.cancel();
    const err = await errorOf(pending);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(err.data.kind).toBe('cancelled');
    expect(err.message).toMatch(/cancelled while waiting for the editor; the edit to a\.txt may still be applied by the editor later; nothing was written to disk/);
    client.applyBehavior = 'apply';
    await expect(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'gamma', new_string: 'GAMMA' })).resolves.toMatchObject({ success: true });
    expect(client.bufferText('a.txt')).toBe('alpha\nbeta\nGAMMA\n');
    expect(ws.read('a.txt')).toBe(TEXT);
  });

  it('a late answer is ignored; the next command is computed on what the editor reports', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 200 } });
    await client.open('a.txt');
    let late: Promise<unknown> | undefined;
    client.applyBehavior = (params) => {
      client.applyBehavior = 'apply';
      late = sleep(600).then(() => client.applyStrict(params)); // applies after editls gave up
      return late as Promise<{ applied: boolean }>;
    };
    const err = await errorOf(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }));
    expect(err.data.kind).toBe('apply_rejected');
    await late;
    await sleep(100);
    expect(client.bufferText('a.txt')).toBe('ALPHA\nbeta\ngamma\n');
    // editls's copy follows the buffer: the next edit sees ALPHA, and "alpha" is gone
    const miss = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha\n', new_string: 'x' });
    expect(miss.data.kind).toBe('not_found');
    const next = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'ALPHA\nbeta', new_string: 'ALPHA\nBETA' });
    expect(next).toMatchObject({ success: true });
    expect(client.bufferText('a.txt')).toBe('ALPHA\nBETA\ngamma\n');
    expect(client.logs.some((l) => /late answer from the editor .*applied=true/.test(l))).toBe(true);
    expect(ws.read('a.txt')).toBe(TEXT);
  });

  it('an edit the editor applies after editls answered it did not is journalled and reported: editls.undo reverts it', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 200 } });
    await client.open('a.txt');
    let late: Promise<unknown> | undefined;
    client.applyBehavior = (params) => {
      client.applyBehavior = 'apply';
      late = sleep(600).then(() => client.applyStrict(params));
      return late as Promise<{ applied: boolean }>;
    };
    expect((await errorOf(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }))).data.kind).toBe('apply_rejected');
    await late;
    expect(await waitFor(() => client.messages.some((m) => /the editor applied "editls\.edit a\.txt" to a\.txt after editls had answered that it did not \(the editor did not answer within 0\.2 s\); .*editls\.undo reverts it/.test(m)))).toBe(true);
    expect(client.bufferText('a.txt')).toBe('ALPHA\nbeta\ngamma\n');
    await client.exec('editls.undo', {});
    expect(client.bufferText('a.txt')).toBe(TEXT);
  });

  it('confirm: true (VS Code\'s Refactor Preview) has no machine deadline: a person may take longer than applyTimeoutMs', async () => {
    const ws = setup({ 'a.txt': TEXT, 'b.txt': 'beta\n' });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 200 } });
    await client.open('a.txt');
    client.applyBehavior = async (params) => {
      expect(params.edit.changeAnnotations).toBeDefined();
      await sleep(1500); // the person reviews
      return client.applyStrict(params);
    };
    const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA', confirm: true });
    expect(r).toMatchObject({ success: true, status: 'applied' });
    expect(client.bufferText('a.txt')).toBe('ALPHA\nbeta\ngamma\n');
    // Meanwhile other files' commands were not held up: here, one after it runs at once.
    client.applyBehavior = 'apply';
    await expect(client.exec('editls.edit', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' })).resolves.toMatchObject({ success: true });
  });

  it('a second command racing a late answer: the editor applies both exactly once or refuses one as stale', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: 200 } });
    await client.open('a.txt');
    let late: Promise<unknown> | undefined;
    client.applyBehavior = (params) => {
      client.applyBehavior = 'apply';
      late = sleep(600).then(() => client.applyStrict(params));
      return late as Promise<{ applied: boolean }>;
    };
    await errorOf(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }));
    // computed on the buffer editls knows (v1) and applied before the late one: the late one is refused by version
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' });
    await late;
    await sleep(100);
    expect(client.bufferText('a.txt')).toBe('alpha\nBETA\ngamma\n');
  });

  it('an editor without versioned edits: a command after an unanswered one is refused until the buffer changes', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_PLAIN_CHANGES, initializationOptions: { applyTimeoutMs: 200 } });
    await client.open('a.txt');
    client.applyBehavior = 'never';
    expect((await errorOf(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }))).data.kind).toBe('apply_rejected');
    client.applyBehavior = 'apply';
    const refused = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' });
    expect(refused.data.kind).toBe('stale');
    expect(refused.message).toMatch(/earlier edit to a\.txt got no answer/);
    expect(client.bufferText('a.txt')).toBe(TEXT);
    await client.type('a.txt', 'gamma', 'gamma!'); // the buffer moved on: editls knows where it stands
    await expect(client.exec('editls.edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' })).resolves.toMatchObject({ success: true });
    expect(client.bufferText('a.txt')).toBe('alpha\nBETA\ngamma!\n');
  });
});
