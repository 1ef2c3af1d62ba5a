// The frame writer against vscode-jsonrpc's own reader and a real pipe: every message comes out whole
// and in order (emoji, CJK, lone surrogates, CRLF and "Content-Length:" inside strings, a 3 MB body),
// each frame is one write whose Content-Length counts UTF-8 bytes (encodeFrame against Buffer.from), a message that cannot be encoded
// and a closed stream are errors, and a server over stdio answers through it.
import { describe, expect, it } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { StreamMessageReader, type Message } from 'vscode-languageserver/node';
import { encodeFrame, FrameWriter } from '../../server/protocol/frameWriter.js';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

/** Writes the messages through a FrameWriter into a pipe read by vscode-jsonrpc's reader. */
async function roundTrip(messages: Message[]): Promise<{ got: Message[]; writes: Buffer[] }> {
  const pipe = new PassThrough();
  const writes: Buffer[] = [];
  pipe.on('data', (chunk: Buffer) => writes.push(chunk));
  const reader = new StreamMessageReader(pipe);
  const got: Message[] = [];
  const all = new Promise<void>((resolve) => {
    reader.listen((m) => {
      got.push(m);
      if (got.length === messages.length) resolve();
    });
  });
  const writer = new FrameWriter(pipe);
  // Not awaited one by one: the writer must keep the order of calls made in the same turn.
  await Promise.all(messages.map((m) => writer.write(m)));
  await all;
  reader.dispose();
  return { got, writes };
}

describe('FrameWriter', () => {
  it('frames that vscode-jsonrpc reads back exactly, in order, one write each, Content-Length in UTF-8 bytes', async () => {
    const text = ['plain', 'é漢字😀', 'line\r\nbreak\nContent-Length: 12\r\n\r\n{}', '\ud800 lone', '\t"quoted" \\ back'];
    const messages: Message[] = text.map((t, i) => ({ jsonrpc: '2.0', id: i, result: { t } }) as Message);
    messages.push({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 4, message: '😀'.repeat(1000) } } as Message);
    const { got, writes } = await roundTrip(messages);
    // JSON.stringify escapes a lone surrogate (\ud800), so it survives the UTF-8 frame.
    expect(got).toEqual(messages);
    expect(writes).toHaveLength(messages.length);
    for (const [i, w] of writes.entries()) {
      const s = w.toString('utf8');
      const head = /^Content-Length: (\d+)\r\n\r\n/.exec(s);
      expect(head).not.toBeNull();
      expect(Number(head![1])).toBe(w.length - head![0].length);
      expect(JSON.parse(s.slice(head![0].length))).toEqual(JSON.parse(JSON.stringify(messages[i])));
    }
  });

  it('random strings and a 3 MB body come out whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { minLength: 1, maxLength: 20 }), async (strings) => {
        const messages = strings.map((s, i) => ({ jsonrpc: '2.0', id: i, result: s }) as Message);
        const { got } = await roundTrip(messages);
        expect(got).toEqual(messages);
      }),
      { numRuns: 100 },
    );
    const big = { jsonrpc: '2.0', id: 'big', result: 'x漢😀'.repeat(400_000) } as Message;
    expect((await roundTrip([big])).got).toEqual([big]);
  });

  it('encodeFrame: the header and UTF-8 body Buffer.from gives, for any text and past the measured size', () => {
    const expected = (body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
    const bodies = ['', '{}', 'plain ascii', 'é漢字😀', '\ud800 lone \udc00', 'x'.repeat(5000), '😀'.repeat(300_000), `${'a'.repeat(17 * 1024 * 1024)}é`];
    for (const body of bodies) expect(encodeFrame(body).equals(expected(body))).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (body) => encodeFrame(body).equals(expected(body))),
      { numRuns: 300 },
    );
  });

  it('pendingWrites: a promise while a frame is not yet taken by the stream, kept until it is; none after', async () => {
    // A pipe nobody reads takes 16 KiB (its highWaterMark) and then calls back no more.
    const pipe = new PassThrough();
    const writer = new FrameWriter(pipe);
    expect(writer.pendingWrites()).toBeUndefined();
    const big = { jsonrpc: '2.0', id: 1, result: 'x'.repeat(1_000_000) } as Message;
    const written = writer.write(big);
    void writer.write({ jsonrpc: '2.0', id: 2, result: null } as Message);
    const pending = writer.pendingWrites();
    expect(pending).toBeInstanceOf(Promise);
    let left = false;
    void pending!.then(() => {
      left = true;
    });
    // Nothing reads the pipe: however many turns pass, the frames stay where they are.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(left).toBe(false);
    const reader = new StreamMessageReader(pipe);
    const got: Message[] = [];
    reader.listen((m) => void got.push(m));
    await written;
    await pending;
    expect(left).toBe(true);
    expect(writer.pendingWrites()).toBeUndefined();
    reader.dispose();
  });

  it('a message that cannot be encoded, or a destroyed stream, rejects and is reported', async () => {
    const errors: unknown[] = [];
    const pipe = new PassThrough();
    const writer = new FrameWriter(pipe);
    writer.onError(([e]) => void errors.push(e));
    const circular: Record<string, unknown> = { jsonrpc: '2.0', id: 1 };
    circular['result'] = circular;
    await expect(writer.write(circular as unknown as Message)).rejects.toThrow(/circular/i);
    const broken = new Writable({ write: (_c, _e, cb) => cb(new Error('EPIPE')) });
    const w2 = new FrameWriter(broken);
    w2.onError(([e]) => void errors.push(e));
    await expect(w2.write({ jsonrpc: '2.0', id: 2, result: null } as Message)).rejects.toThrow('EPIPE');
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  it('editls --stdio answers through it (a request, its answer, and the log before it)', async () => {
    const w = tempWorkspace({ 'a.txt': 'héllo 😀\r\n' }, 'editls-frames-');
    const client = await TestClient.start({ root: w.root });
    try {
      const r = await client.exec('editls.searchFiles', { path: '.', regex: 'héllo' });
      expect(r.count).toBe(1);
      expect(r.matches[0].text).toBe('héllo 😀');
      expect(client.logs.some((l) => l.startsWith('editls.searchFiles: 1 matching line'))).toBe(true);
    } finally {
      await client.shutdown();
      w.cleanup();
    }
  });
});
