// Writes JSON-RPC messages as LSP frames (Content-Length header + JSON body) in one write each, in
// the order they are given, at once: vscode-jsonrpc's StreamMessageWriter queues every message
// behind a setImmediate and writes its header and body separately, awaiting the first, so an answer
// left the server up to three event-loop turns (and two system calls) after it was ready.
import { AbstractMessageWriter, type Message } from 'vscode-languageserver/node';

/** What FrameWriter needs of a stream: standard output, a socket, a PassThrough. */
export interface FrameSink {
  write(chunk: string, encoding: BufferEncoding, callback: (error?: Error | null) => void): unknown;
  end(): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export class FrameWriter extends AbstractMessageWriter {
  private errorCount = 0;

  constructor(private readonly sink: FrameSink) {
    super();
    sink.on('error', (error) => this.fireError(error));
    sink.on('close', () => this.fireClose());
  }

  /** Resolves once the stream has taken the frame; rejects (and reports onError) when it cannot. */
  write(message: Message): Promise<void> {
    let frame: string;
    try {
      const body = JSON.stringify(message);
      frame = `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
    } catch (error) {
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      try {
        this.sink.write(frame, 'utf8', (error) => {
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
        this.fireError(error, message, ++this.errorCount);
        reject(error);
      }
    });
  }

  end(): void {
    this.sink.end();
  }
}
