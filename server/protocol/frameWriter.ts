// Writes JSON-RPC messages as LSP frames (Content-Length header + JSON body) in one write each, in
// the order they are given, at once: vscode-jsonrpc's StreamMessageWriter queues every message
// behind a setImmediate and writes its header and body separately, awaiting the first, so an answer
// left the server up to three event-loop turns (and two system calls) after it was ready. The frame
// is encoded once, straight into a buffer (encodeFrame).
import { AbstractMessageWriter, type Message } from 'vscode-languageserver/node';

/** What FrameWriter needs of a stream: standard output, a socket, a PassThrough. */
export interface FrameSink {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): unknown;
  end(): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export class FrameWriter extends AbstractMessageWriter {
  private errorCount = 0;
  /** Frames handed to the stream that it has not taken yet (their write callbacks not called). */
  private unsent = 0;
  private onSent: (() => void)[] = [];

  constructor(private readonly sink: FrameSink) {
    super();
    sink.on('error', (error) => this.fireError(error));
    sink.on('close', () => this.fireClose());
  }

  /** Resolves once the stream has taken the frame; rejects (and reports onError) when it cannot. */
  write(message: Message): Promise<void> {
    let frame: Buffer;
    try {
      frame = encodeFrame(JSON.stringify(message));
    } catch (error) {
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error);
    }
    this.unsent++;
    return new Promise((resolve, reject) => {
      try {
        this.sink.write(frame, (error) => {
          this.sent();
          if (error) {
            this.fireError(error, message, ++this.errorCount);
            reject(error);
          } else {
            this.errorCount = 0;
            resolve();
          }
        });
      } catch (error) {
        // A destroyed stream throws on some Node versions instead of calling back.
        this.sent();
        this.fireError(error, message, ++this.errorCount);
        reject(error);
      }
    });
  }

  /**
   * While some frame written is still on its way into the stream (a large answer to a client that
   * reads it a pipe's worth at a time): a promise of the moment all are taken; undefined when none is.
   * Background work that follows an answer (the undo journal's digests) waits for it, so that it does
   * not pace the answer's way out: 6 MB took 305 ms to leave while the digests ran, between their slices.
   */
  pendingWrites(): Promise<void> | undefined {
    if (this.unsent === 0) return undefined;
    return new Promise((resolve) => this.onSent.push(resolve));
  }

  private sent(): void {
    if (--this.unsent > 0) return;
    const waiting = this.onSent;
    this.onSent = [];
    for (const resolve of waiting) resolve();
  }

  end(): void {
    this.sink.end();
  }
}

/** Room before the body for the header ("Content-Length: ", up to 16 digits, CRLF CRLF). */
const HEADER_ROOM = 40;
/** A body longer than this (UTF-16 units) is measured before it is encoded, not given 3 bytes a unit. */
const MEASURED_FROM = 16 * 1024 * 1024;

/**
 * `Content-Length: N\r\n\r\n` and the body, encoded once into one buffer. The body is written in
 * UTF-8 into room for its longest form (3 bytes per UTF-16 unit) and the header put in front of
 * what it took: Buffer.byteLength and an encoding of the joined frame each cost ~6 ms for an 850 KB
 * body holding one non-ASCII character (V8 measures a two-byte string slowly), Buffer#write 0.3 ms.
 */
export function encodeFrame(body: string): Buffer {
  const room = body.length > MEASURED_FROM ? Buffer.byteLength(body, 'utf8') : body.length * 3;
  const buf = Buffer.allocUnsafe(HEADER_ROOM + room);
  const n = buf.write(body, HEADER_ROOM, 'utf8');
  const header = `Content-Length: ${n}\r\n\r\n`;
  const start = HEADER_ROOM - header.length;
  buf.write(header, start, 'latin1');
  return buf.subarray(start, HEADER_ROOM + n);
}
