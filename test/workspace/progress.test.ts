// $/progress handles (workspace/progress.ts) on a recording transport: work that ends while the
// client is still confirming the created token still gets its begin and end (a fast index build
// on a small workspace), delayed progress for work that ended first sends nothing, and the normal order.
import { describe, expect, it } from 'vitest';
import { ProgressReporter, type ProgressTransport, type ProgressValue } from '../../server/workspace/progress.js';

function recorder() {
  const sent: [string | number, ProgressValue][] = [];
  let confirm: () => void = () => undefined;
  const created: string[] = [];
  const transport: ProgressTransport = {
    supported: () => true,
    create: (token) => {
      created.push(token);
      return new Promise<void>((resolve) => (confirm = resolve));
    },
    send: (token, value) => void sent.push([token, value]),
  };
  return { sent, created, transport, confirm: () => confirm() };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ProgressReporter', () => {
  it('sends begin and end once the client confirmed the token (reports are throttled)', async () => {
    const r = recorder();
    const handle = new ProgressReporter(r.transport).start('editls: indexing symbols', { cancellable: false });
    r.confirm();
    await tick();
    handle.report('12 files');
    handle.done('indexed 3 symbols');
    expect(r.sent.map(([, v]) => v.kind)).toEqual(['begin', 'end']);
    expect(r.sent[1]![1]).toEqual({ kind: 'end', message: 'indexed 3 symbols' });
  });

  it('work that ended before the client confirmed the token still begins and ends it', async () => {
    const r = recorder();
    const handle = new ProgressReporter(r.transport).start('editls: indexing symbols', { cancellable: false });
    handle.done('indexed 4 symbols in 1 files');
    expect(r.sent).toEqual([]);
    r.confirm();
    await tick();
    expect(r.sent).toEqual([
      [r.created[0], { kind: 'begin', title: 'editls: indexing symbols', cancellable: false }],
      [r.created[0], { kind: 'end', message: 'indexed 4 symbols in 1 files' }],
    ]);
  });

  it('delayed progress for work that ended first creates no token at all', async () => {
    const r = recorder();
    const handle = new ProgressReporter(r.transport).start('editls: searching', { delayMs: 50 });
    handle.done();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(r.created).toEqual([]);
    expect(r.sent).toEqual([]);
  });
});
