// The attach listener's pendingWrites: while an answer to an agent has not left (the agent does not
// read), a promise that settles once it has; none when every answer is out. The undo journal's digests
// wait on it (with stdout's), so that they do not pace an agent's large answer. A real Unix socket and
// vscode-jsonrpc on both ends; the served command is a stand-in that answers 4 MB.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { ATTACH_METHOD, startAttachListener, type AttachHandle } from '../../server/attach/listener.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('attach listener: pendingWrites', () => {
  it('is a promise while an agent has not read its answer, settled once it has, and undefined after', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-attach-pending-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let served!: () => void;
    const answered = new Promise<void>((resolve) => {
      served = resolve;
    });
    const big = 'x'.repeat(4_000_000);
    const handle: AttachHandle = await startAttachListener({
      dir,
      pid: process.pid,
      windows: false,
      isProcessAlive: () => true,
      folders: () => [dir],
      clientName: () => 'Test',
      version: '0',
      log: () => undefined,
      serve: async () => {
        served();
        return { big };
      },
    });
    cleanups.push(() => handle.close());
    expect(handle.pendingWrites()).toBeUndefined();
    const record = JSON.parse(readFileSync(path.join(dir, `${process.pid}.json`), 'utf8')) as { endpoint: string; token: string };
    const socket = net.connect(record.endpoint);
    await new Promise((resolve) => socket.once('connect', resolve));
    cleanups.push(() => socket.destroy());
    const conn = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    conn.listen();
    cleanups.push(() => conn.dispose());
    await conn.sendRequest(ATTACH_METHOD, { token: record.token, clientInfo: { name: 'test' } });
    // The agent stops reading; its request is answered with 4 MB, more than the socket holds.
    socket.pause();
    const reply = conn.sendRequest('workspace/executeCommand', { command: 'editls.readFile', arguments: [] });
    await answered;
    // The answer is written on the turn its promise settles; give it that turn.
    await new Promise((resolve) => setImmediate(resolve));
    const pending = handle.pendingWrites();
    expect(pending).toBeInstanceOf(Promise);
    let left = false;
    void pending!.then(() => {
      left = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(left).toBe(false);
    socket.resume();
    expect(((await reply) as { big: string }).big.length).toBe(big.length);
    await pending;
    expect(handle.pendingWrites()).toBeUndefined();
  });
});
