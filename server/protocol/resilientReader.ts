// Reads LSP frames (Content-Length headers + JSON body) from stdin without ever getting stuck: a
// bad header is reported and skipped to the next frame, a body that is not JSON or not a JSON-RPC
// object gets the protocol's own error (-32700 / -32600, id null), and the server keeps serving.
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';

/** Largest frame accepted; a bigger Content-Length is refused and skipped rather than buffered. */
const MAX_FRAME_BYTES = 512 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('Content-Length:');

export interface FrameError {
  code: -32700 | -32600;
  message: string;
}

interface ByteSource {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
}

export class ResilientMessageReader extends AbstractMessageReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Body length of the frame whose header has been read, or -1 while reading a header. */
  private bodyLength = -1;
  /** Bytes still to drop from an oversized frame. */
  private skip = 0;
  private callback: DataCallback | undefined;

  constructor(
    private readonly input: ByteSource,
    private readonly onFrameError: (error: FrameError) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    this.input.on('data', (chunk: Buffer) => this.onData(chunk));
    this.input.on('end', () => this.fireClose());
    this.input.on('close', () => this.fireClose());
    return { dispose: () => (this.callback = undefined) };
  }

  private onData(chunk: Buffer): void {
    if (this.skip > 0) {
      const dropped = Math.min(this.skip, chunk.length);
      this.skip -= dropped;
      chunk = chunk.subarray(dropped);
      if (chunk.length === 0) return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.drain();
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return head;
  }

  private peekAll(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private drain(): void {
    for (;;) {
      if (this.bodyLength < 0) {
        const buf = this.peekAll();
        const end = buf.indexOf(HEADER_END);
        if (end < 0) {
          if (buf.length > 64 * 1024) this.resync('header too long'); // no sane header is this long
          return;
        }
        const header = buf.subarray(0, end).toString('ascii');
        const length = parseContentLength(header);
        if (length === undefined) {
          this.take(end + HEADER_END.length);
          this.resync(`invalid frame header ${JSON.stringify(header.slice(0, 80))}`);
          continue;
        }
        this.take(end + HEADER_END.length);
        if (length > MAX_FRAME_BYTES) {
          this.onFrameError({ code: -32600, message: `frame of ${length} bytes refused (limit ${MAX_FRAME_BYTES})` });
          const dropped = Math.min(length, this.size);
          this.take(dropped);
          this.skip = length - dropped;
          continue;
        }
        this.bodyLength = length;
      }
      if (this.size < this.bodyLength) return;
      const body = this.take(this.bodyLength);
      this.bodyLength = -1;
      this.deliver(body);
    }
  }

  /** Drops bytes up to the next "Content-Length:" so one broken frame does not end the session. */
  private resync(reason: string): void {
    this.onFrameError({ code: -32700, message: `parse error: ${reason}; skipped to the next frame` });
    const buf = this.peekAll();
    const next = buf.indexOf(CONTENT_LENGTH, 1);
    this.take(next < 0 ? buf.length : next);
  }

  private deliver(body: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (error) {
      this.onFrameError({ code: -32700, message: `parse error: the frame body is not JSON (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.onFrameError({ code: -32600, message: `invalid request: a JSON-RPC message must be an object${Array.isArray(value) ? ' (batches are not part of LSP)' : ''}` });
      return;
    }
    this.callback?.(value as Message);
  }
}

function parseContentLength(header: string): number | undefined {
  let length: number | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return undefined;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') {
      const text = line.slice(colon + 1).trim();
      if (!/^\d{1,12}$/.test(text)) return undefined;
      length = Number(text);
    }
  }
  return length;
}
