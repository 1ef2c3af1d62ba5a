// Slow and odd editors: one that never answers workspace/applyEdit, one that answers late, one that
// reports a multi-edit WorkspaceEdit in split didChanges (Neovim 0.7's debounce), with or without a
// user keystroke in the same didChange. Counted: wrong answers, locks released within the deadline,
// disk writes under open buffers, time to answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-languageserver/node';
import { CAPS_NEOVIM_07, CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const TEXT = 'one q\ntwo q\nthree q\nfour q\nfive q\nend\n';
const DONE = 'one Y\ntwo Y\nthree Y\nfour Y\nfive Y\nend\n';
const TIMEOUT_MS = 200;
let ws: TempWorkspace;
const clients: TestClient[] = [];

beforeAll(() => {
  ws = tempWorkspace({ 'a.txt': TEXT, 'n.txt': TEXT });
});
afterAll(async () => {
  for (const c of clients) await c.shutdown();
  ws.cleanup();
});

async function outcome(p: Promise<any>): Promise<{ kind: string; message?: string; notes?: string[] }> {
  try {
    const r = await p;
    return { kind: 'ok', notes: r.notes };
  } catch (error) {
    if (error instanceof ResponseError) return { kind: String((error.data as any)?.kind), message: error.message };
    throw error;
  }
}

describe('slow editors', () => {
  it('never-answering and late-answering editors: lock released within the deadline, disk untouched', async () => {
    const client = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, initializationOptions: { applyTimeoutMs: TIMEOUT_MS } });
    clients.push(client);
    await client.open('a.txt');
    const attempts = size(100, 10);
    let wrong = 0;
    let released = 0;
    let maxMs = 0;
    for (let i = 0; i < attempts; i++) {
      const late = i % 2 === 1;
      client.applyBehavior = late ? (params) => new Promise((r) => setTimeout(() => r(client.applyStrict(params)), TIMEOUT_MS + 150)) : 'never';
      const t0 = Date.now();
      const atStart = client.bufferText('a.txt') === TEXT;
      const first = await outcome(client.exec('editls.searchAndReplace', { path: 'a.txt', search: atStart ? 'q' : 'Y', replace: atStart ? 'Y' : 'q' }));
      maxMs = Math.max(maxMs, Date.now() - t0);
      if (first.kind !== 'apply_rejected' || !/did not answer within 0\.2 s; the edit to a\.txt may still be applied by the editor later; nothing was written to disk/.test(first.message ?? '')) wrong++;
      if (late) await new Promise((r) => setTimeout(r, 300)); // the late edit lands; editls hears of it by didChange
      // a second command on the same file: it runs (the lock was released) on what the buffer holds
      client.applyBehavior = 'apply';
      const now = client.bufferText('a.txt')!;
      const [search, replace] = now === DONE ? ['Y', 'q'] : ['q', 'Y'];
      const second = await outcome(client.exec('editls.searchAndReplace', { path: 'a.txt', search, replace }));
      if (second.kind === 'ok' && client.bufferText('a.txt') === (now === DONE ? TEXT : DONE)) released++;
      else wrong++;
    }
    const diskUntouched = ws.read('a.txt') === TEXT;
    report('slow editor (never answers / answers late, applyTimeoutMs 200)', { attempts, wrongAnswers: wrong, lockReleased: released, maxMsToAnswer: maxMs, diskUntouched: String(diskUntouched) });
    expect(wrong).toBe(0);
    expect(released).toBe(attempts);
    expect(maxMs).toBeLessThan(TIMEOUT_MS + 2000);
    expect(diskUntouched).toBe(true);
  }, 180_000);

  it('split didChanges (Neovim 0.7 debounce), with and without a keystroke in the same didChange: no wrong answer', async () => {
    const client = await TestClient.start({ root: ws.root, capabilities: CAPS_NEOVIM_07, clientName: 'Neovim', initializationOptions: { applyConfirmTimeoutMs: 600 } });
    clients.push(client);
    await client.open('n.txt');
    const attempts = size(100, 10);
    let wrong = 0;
    let badBuffer = 0;
    let maxMs = 0;
    for (let i = 0; i < attempts; i++) {
      const typing = i % 4 === 3;
      const forward = client.bufferText('n.txt')!.includes(' q\n');
      const before = client.bufferText('n.txt')!;
      const endLine = before.match(/^end.*$/m)![0];
      client.applyBehavior = (params) => client.applyLikeNeovim(params, { debounceMs: 150, ...(typing ? { typing: { find: endLine, replacement: `end${i}` } } : {}) });
      const t0 = Date.now();
      const r = await outcome(client.exec('editls.searchAndReplace', { path: 'n.txt', search: forward ? 'q' : 'Y', replace: forward ? 'Y' : 'q' }));
      maxMs = Math.max(maxMs, Date.now() - t0);
      const expectedNote = typing ? /^applied, but n\.txt also changed in the editor meanwhile \(line 6\)/ : undefined;
      if (r.kind !== 'ok' || (expectedNote ? !(r.notes?.length === 1 && expectedNote.test(r.notes[0]!)) : r.notes !== undefined)) wrong++;
      const want = (forward ? before.replace(/ q\n/g, ' Y\n') : before.replace(/ Y\n/g, ' q\n')).replace(/^end.*$/m, typing ? `end${i}` : endLine);
      if (client.bufferText('n.txt') !== want) badBuffer++;
    }
    report('slow editor (Neovim split didChange, 150 ms debounce, every 4th run with a keystroke)', { attempts, wrongAnswers: wrong, badBuffers: badBuffer, maxMsToAnswer: maxMs });
    expect(wrong).toBe(0);
    expect(badBuffer).toBe(0);
    expect(ws.read('n.txt')).toBe(TEXT);
  }, 180_000);
});
