// Reads LSP frames (Content-Length headers + JSON body) from stdin without ever getting stuck: a
// bad header is reported and skipped to the next frame, a body that is not JSON or not a JSON-RPC
// object gets the protocol's own error (-32700 / -32600), a wrong Content-Length is recovered from
// at the next frame's header, and the server keeps serving.
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';

/** Largest frame accepted; a bigger Content-Length is refused and its bytes dropped rather than buffered. */
const MAX_FRAME_BYTES = 512 * 1024 * 1024;
/** No sane header block is longer. */
const MAX_HEADER_BYTES = 64 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
/**
 * The first line of a frame's header. No JSON text contains it: `content-length:` can only be inside
 * a string there, and a raw CR cannot. So finding it inside a body proves the body's Content-Length
 * wrong, and it is where the next frame starts.
 */
const FRAME_START = /content-length:[ \t]{0,8}\d{1,12}\r\n/gi;
/** Bytes kept from the previous search so a frame start split across chunks is still found. */
const OVERLAP = 40;
/** How long a frame that cannot be right (not JSON yet, or complete JSON short of its length) waits for more bytes. */
const QUIET_MS = 200;
/** Largest broken frame parsed to find the id of the request it carried. */
const MAX_ID_RECOVERY_BYTES = 16 * 1024 * 1024;

export interface FrameError {
  /** -32603: a message's handler threw while it was delivered (logged, never sent). */
  code: -32700 | -32600 | -32603;
  message: string;
  /** The id of the request a broken frame carried, when it can be read; null otherwise. */
  id: number | string | null;
}

interface ByteSource {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
}

export class ResilientMessageReader extends AbstractMessageReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Declared body length of the frame being read, or -1 while reading a header. */
  private bodyLength = -1;
  /** Body bytes already searched for a frame start. */
  private scanned = 0;
  /** The complete body did not parse: its end is wherever the next frame starts. */
  private bodyNotJson = false;
  /** Over MAX_FRAME_BYTES: the body's bytes are dropped as they come (only searched for a frame start). */
  private discarding = false;
  private dropped = 0;
  /** A broken frame was just reported: what is left of it is dropped without a second error. */
  private quiet = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
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
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.drain();
  }

  private take(n: number): Buffer {
    const all = this.peekAll();
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

  /** Bytes [from, size) joining only the chunks that hold them. */
  private tail(from: number): Buffer {
    let start = this.size;
    let i = this.chunks.length;
    while (i > 0 && start > from) start -= this.chunks[--i]!.length;
    const joined = i === this.chunks.length - 1 ? this.chunks[i]! : Buffer.concat(this.chunks.slice(i));
    return joined.subarray(from - start);
  }

  private drain(): void {
    this.stopTimer();
    for (;;) {
      const progressed = this.bodyLength < 0 ? this.readHeader() : this.discarding ? this.discardBody() : this.readBody();
      if (!progressed) return;
    }
  }

  private readHeader(): boolean {
    const buf = this.peekAll();
    const end = buf.indexOf(HEADER_END);
    if (end < 0) {
      if (buf.length <= MAX_HEADER_BYTES) return false;
      const start = findFrameStart(buf, 1);
      this.garbage('header too long');
      this.take(start > 0 ? start : buf.length - OVERLAP);
      return true;
    }
    const header = buf.subarray(0, end).toString('latin1');
    const length = parseContentLength(header);
    if (length === undefined) {
      // Not a header: whatever comes before a frame start inside it is the tail of something broken.
      const start = findFrameStart(buf.subarray(0, end + 2), 1);
      this.garbage(`invalid frame header ${JSON.stringify(header.slice(0, 80))}`);
      this.take(start > 0 ? start : end + HEADER_END.length);
      return true;
    }
    this.take(end + HEADER_END.length);
    this.bodyLength = length;
    if (length > MAX_FRAME_BYTES) {
      this.report(-32600, `frame of ${length} bytes refused (limit ${MAX_FRAME_BYTES}); its bytes are skipped`, null);
      this.discarding = true;
    }
    return true;
  }

  private readBody(): boolean {
    const length = this.bodyLength;
    // While the body may still be JSON, only a frame start before its end matters (one found later is the next frame).
    const start = this.scanForFrameStart(this.bodyNotJson ? this.size : length + OVERLAP);
    if (start >= 0 && start < length) {
      this.broken(start, `Content-Length ${length} is longer than the message: a new frame starts after ${start} bytes`);
      return true;
    }
    if (this.size < length) {
      this.startTimer();
      return false;
    }
    if (!this.bodyNotJson) {
      const body = this.size === length ? this.peekAll() : this.peekAll().subarray(0, length);
      const parsed = parseJson(body);
      if (parsed.ok) {
        this.take(length);
        this.endFrame();
        this.quiet = false;
        this.deliver(parsed.value);
        return true;
      }
      this.bodyNotJson = true;
      return true; // search past the declared end
    }
    // Not JSON: a Content-Length too short (the message runs on to the next frame start), or garbage.
    if (start >= 0) {
      this.broken(start, start === length ? `the body of ${length} bytes is not JSON` : `Content-Length ${length} is shorter than the message (${start} bytes up to the next frame)`);
      return true;
    }
    this.startTimer();
    return false;
  }

  /** A refused oversized frame: drop its bytes, unless a frame start shows that it ended earlier. */
  private discardBody(): boolean {
    const remaining = this.bodyLength - this.dropped;
    const start = this.scanForFrameStart(this.size);
    if (start >= 0 && start < remaining) {
      this.take(start);
      this.endFrame();
      return true;
    }
    if (this.size >= remaining) {
      this.take(remaining);
      this.endFrame();
      return true;
    }
    const drop = Math.max(0, this.size - OVERLAP);
    this.take(drop);
    this.dropped += drop;
    this.scanned = Math.max(0, this.scanned - drop);
    return false;
  }

  /** The first frame start in the buffered body before `limit`, searching only bytes not searched before; -1 if none. */
  private scanForFrameStart(limit: number): number {
    const end = Math.min(this.size, limit);
    const from = Math.max(0, this.scanned - OVERLAP);
    if (end <= from) return -1;
    const found = findFrameStart(this.tail(from).subarray(0, end - from), 0);
    if (found >= 0) return from + found;
    this.scanned = end;
    return -1;
  }

  /** A frame whose bytes end at `end` (before the next frame start) but which is not a message. */
  private broken(end: number, reason: string): void {
    const bytes = this.take(end);
    this.endFrame();
    this.report(-32700, `parse error: ${reason}; the message was ignored`, recoverId(bytes));
  }

  /** Nothing came for QUIET_MS: a body that is not JSON ends here, and so does complete JSON short of its length. */
  private onQuiet(): void {
    this.timer = undefined;
    if (this.bodyLength < 0 || this.discarding) return;
    if (this.bodyNotJson) {
      this.broken(this.size, `the body of ${this.bodyLength} bytes is not JSON`);
    } else if (this.size < this.bodyLength && parseJson(this.peekAll()).ok) {
      this.broken(this.size, `Content-Length ${this.bodyLength} is longer than the message (${this.size} bytes came)`);
    } else {
      return; // a slow writer in the middle of a body: keep waiting
    }
    this.drain();
  }

  private startTimer(): void {
    if (this.discarding) return;
    this.timer = setTimeout(() => this.onQuiet(), QUIET_MS);
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private endFrame(): void {
    this.bodyLength = -1;
    this.scanned = 0;
    this.bodyNotJson = false;
    this.discarding = false;
    this.dropped = 0;
  }

  /** Bytes that are not a frame: reported once per broken stretch. */
  private garbage(reason: string): void {
    if (!this.quiet) this.report(-32700, `parse error: ${reason}; skipped to the next frame`, null);
  }

  private report(code: FrameError['code'], message: string, id: number | string | null): void {
    this.quiet = true;
    this.onFrameError({ code, message, id });
  }

  private deliver(value: unknown): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.report(-32600, `invalid request: a JSON-RPC message must be an object${Array.isArray(value) ? ' (batches are not part of LSP)' : ''}`, null);
      return;
    }
    try {
      this.callback?.(value as Message);
    } catch (error) {
      // A handler that throws while its message is delivered must not stop the reading.
      this.onFrameError({ code: -32603, message: `internal error while handling a message: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, id: null });
    }
  }
}

function findFrameStart(buf: Buffer, from: number): number {
  const text = buf.toString('latin1');
  FRAME_START.lastIndex = from;
  const m = FRAME_START.exec(text);
  return m ? m.index : -1;
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** The id of the request in a broken frame (a trailing Content-Type header line of the next frame left out), or null. */
function recoverId(bytes: Buffer): number | string | null {
  if (bytes.length > MAX_ID_RECOVERY_BYTES) return null;
  const text = bytes.toString('utf8').replace(/content-type:[^\r\n]*\r\n$/i, '');
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('method' in value) || !('id' in value)) return null;
    const id = (value as { id: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
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
