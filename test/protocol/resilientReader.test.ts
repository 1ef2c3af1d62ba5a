// The frame reader on byte streams cut at random points: valid frames always come out exactly and
// without errors (also when a body's strings hold "Content-Length: N\r\n" as text), and around a
// frame whose Content-Length is too short, too long or over the limit every valid frame after it
// still comes out, the broken one is reported once, with its id when it had one.
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { ResilientMessageReader, type FrameError } from '../../server/protocol/resilientReader.js';

function frame(body: string, declared?: number): Buffer {
  const b = Buffer.from(body);
  return Buffer.concat([Buffer.from(`Content-Length: ${declared ?? b.length}\r\n\r\n`), b]);
}

/** Feeds the bytes in the given chunk sizes, synchronously, and collects what the reader gives. */
function read(bytes: Buffer, cuts: number[]): { messages: any[]; errors: FrameError[] } {
  const source = new EventEmitter();
  const messages: any[] = [];
  const errors: FrameError[] = [];
  const reader = new ResilientMessageReader(source as any, (e) => errors.push(e));
  reader.listen((m) => messages.push(m));
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    source.emit('data', bytes.subarray(at, at + cut));
    at += cut;
  }
  if (at < bytes.length) source.emit('data', bytes.subarray(at));
  return { messages, errors };
}

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('Content-Length: 12\r\n\r\n', 'content-length:5\r\n', '😀 漢字 \u0000', '}\r\n\r\n{', '"Content-Length: 99"'),
);
const message = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constantFrom('workspace/symbol', 'editls/x'), params: fc.record({ query: text, more: fc.array(text, { maxLength: 3 }) }) });
const cuts = fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 200 });
const pretty = fc.boolean();

describe('ResilientMessageReader', () => {
  it('reads valid frames cut anywhere, exactly and without errors', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(message, pretty), { minLength: 1, maxLength: 8 }), cuts, (msgs, chunking) => {
        const bytes = Buffer.concat(msgs.map(([m, p]) => frame(p ? JSON.stringify(m, null, '\r\n') + '\r\n' : JSON.stringify(m))));
        const { messages, errors } = read(bytes, chunking);
        expect(errors).toEqual([]);
        expect(messages).toEqual(msgs.map(([m]) => m));
      }),
      { numRuns: 300 },
    );
  });

  it('delivers every valid frame after a frame with a wrong Content-Length, and reports the broken one with its id', () => {
    const wrong = fc.oneof(fc.integer({ min: -60, max: -1 }), fc.integer({ min: 1, max: 5000 }), fc.constant(600 * 1024 * 1024), fc.constant(1e12));
    fc.assert(
      fc.property(message, wrong, fc.array(message, { minLength: 1, maxLength: 4 }), cuts, (brokenMessage, delta, after, chunking) => {
        const body = JSON.stringify(brokenMessage);
        const bytes = Buffer.concat([frame(body, Math.max(0, Buffer.byteLength(body) + delta)), ...after.map((m) => frame(JSON.stringify(m)))]);
        const { messages, errors } = read(bytes, chunking);
        expect(messages).toEqual(after);
        expect(errors.length).toBe(1);
        // Refused for its size: its bytes are never parsed; otherwise its request is answered under its id.
        if (delta < 600 * 1024 * 1024 - 1e6) expect(errors[0]!.id).toBe(brokenMessage.id);
      }),
      { numRuns: 300 },
    );
  });

  it('answers a last frame whose Content-Length is too long once nothing more comes', async () => {
    const source = new EventEmitter();
    const errors: FrameError[] = [];
    const reader = new ResilientMessageReader(source as any, (e) => errors.push(e));
    reader.listen(() => undefined);
    source.emit('data', frame('{"jsonrpc":"2.0","id":7,"method":"workspace/symbol","params":{"query":"a"}}', 500));
    expect(errors).toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    expect(errors.map((e) => e.id)).toEqual([7]);
  });

  it('keeps reading when a handler throws while its message is delivered', () => {
    const source = new EventEmitter();
    const errors: FrameError[] = [];
    const seen: any[] = [];
    const reader = new ResilientMessageReader(source as any, (e) => errors.push(e));
    reader.listen((m: any) => {
      seen.push(m.id);
      if (m.id === 1) throw new TypeError('boom');
    });
    source.emit('data', Buffer.concat([frame('{"jsonrpc":"2.0","id":1,"method":"a"}'), frame('{"jsonrpc":"2.0","id":2,"method":"b"}')]));
    source.emit('data', frame('{"jsonrpc":"2.0","id":3,"method":"c"}'));
    expect(seen).toEqual([1, 2, 3]);
    expect(errors.map((e) => e.code)).toEqual([-32603]);
  });
});
