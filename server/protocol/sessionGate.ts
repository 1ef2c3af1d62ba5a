// The rules every incoming message passes before the connection sees it: the LSP lifecycle order
// (-32002 before `initialize`, one `initialize` only), well-formed ids and methods, one pending
// request per id, and params of the right shape (messageSchemas.ts). A request it stops gets its
// error here; a notification it stops is logged (window/logMessage) and dropped.
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  ErrorCodes,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';
import { invalidArgs } from './errors.js';
import { describeIssues, NOTIFICATION_PARAMS, PROGRESS_TOKENS, REQUEST_PARAMS } from './messageSchemas.js';

type Id = number | string;
type Raw = Record<string, unknown>;

/** LSP's ServerNotInitialized. */
const SERVER_NOT_INITIALIZED = -32002;
const LOG_WARNING = 2;

export class SessionGate {
  private initializeReceived = false;
  private initializedReceived = false;
  /** Requests handed to the connection and not answered yet. */
  private readonly pending = new Set<string>();

  /** `send` writes straight to the client (the gate's own answers and logs). */
  constructor(private readonly send: (message: Message) => void) {}

  /** The message to hand to the connection, or undefined when the gate answered or dropped it. */
  admit(message: Message): Message | undefined {
    const m = message as unknown as Raw;
    const hasId = 'id' in m && m.id !== undefined;
    const id = validId(m.id) ? m.id : null;
    if (!('method' in m) || m.method === undefined) {
      if (hasId && ('result' in m || 'error' in m)) return message; // a response to one of our requests
      return this.refuse(id, ErrorCodes.InvalidRequest, 'invalid request: a message needs a "method" (or, as a response, "result" or "error")');
    }
    if (typeof m.method !== 'string') return this.refuse(id, ErrorCodes.InvalidRequest, 'invalid request: "method" must be a string');
    const method = m.method;
    if (!hasId) return this.admitNotification(message, method, m.params);
    if (id === null) return this.refuse(null, ErrorCodes.InvalidRequest, `invalid request: the id of ${method} must be a string or a number`);
    return this.admitRequest(message, method, id, m.params);
  }

  private admitRequest(message: Message, method: string, id: Id, params: unknown): Message | undefined {
    if (method === 'initialize' && this.initializeReceived) return this.refuse(id, ErrorCodes.InvalidRequest, 'initialize was already received');
    if (method !== 'initialize' && !this.initializeReceived) {
      return this.refuse(id, SERVER_NOT_INITIALIZED, `editls is not initialized: ${method} was not run; the client must send initialize first`);
    }
    const key = idKey(id);
    if (this.pending.has(key)) return this.refuse(id, ErrorCodes.InvalidRequest, `duplicate request id ${JSON.stringify(id)}: a request with this id is still being answered; ${method} was not run`);
    const problem = requestProblem(method, params);
    if (problem !== undefined) {
      this.send({ jsonrpc: '2.0', id, error: invalidArgs(`invalid params for ${method}: ${problem}`).toJson() } as Message);
      return undefined;
    }
    if (method === 'initialize') this.initializeReceived = true;
    this.pending.add(key);
    return message;
  }

  private admitNotification(message: Message, method: string, params: unknown): Message | undefined {
    if (method === 'exit') return message;
    if (!this.initializeReceived) return this.ignore(method, 'received before initialize');
    if (method === 'initialized') {
      if (this.initializedReceived) return this.ignore(method, 'it was already received');
      this.initializedReceived = true;
      return message;
    }
    const schema = NOTIFICATION_PARAMS[method];
    if (schema) {
      const parsed = schema.safeParse(params);
      if (!parsed.success) return this.ignore(method, `its params have the wrong shape (${describeIssues(parsed.error)})`);
    }
    return message;
  }

  /** Called for every message the server writes: a response ends its request. */
  sent(message: Message): void {
    const m = message as unknown as Raw;
    if (!('method' in m) && validId(m.id)) this.pending.delete(idKey(m.id));
  }

  /** The connection's reader: messages pass the gate first. */
  reader(inner: MessageReader): MessageReader {
    return new GatedReader(inner, this);
  }

  /** The connection's writer: the gate sees each response go out. */
  writer(inner: MessageWriter): MessageWriter {
    return new GatedWriter(inner, this);
  }

  private refuse(id: Id | null, code: number, message: string): undefined {
    this.send({ jsonrpc: '2.0', id, error: { code, message } } as Message);
    return undefined;
  }

  private ignore(method: string, why: string): undefined {
    this.send({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: LOG_WARNING, message: `editls ignored ${method}: ${why}` } } as Message);
    return undefined;
  }
}

function requestProblem(method: string, params: unknown): string | undefined {
  const schema = REQUEST_PARAMS[method];
  if (schema) {
    const parsed = schema.safeParse(params);
    if (!parsed.success) return describeIssues(parsed.error);
  }
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
    const tokens = PROGRESS_TOKENS.safeParse(params);
    if (!tokens.success) return describeIssues(tokens.error);
  }
  return undefined;
}

function validId(id: unknown): id is Id {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** 1 and "1" are different ids (as in vscode-jsonrpc's own maps). */
function idKey(id: Id): string {
  return `${typeof id}:${id}`;
}

class GatedReader extends AbstractMessageReader {
  constructor(
    private readonly inner: MessageReader,
    private readonly gate: SessionGate,
  ) {
    super();
    inner.onError((error) => this.fireError(error));
    inner.onClose(() => this.fireClose());
    inner.onPartialMessage((info) => this.firePartialMessage(info));
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => {
      const admitted = this.gate.admit(message);
      if (admitted) callback(admitted);
    });
  }
}

class GatedWriter extends AbstractMessageWriter {
  constructor(
    private readonly inner: MessageWriter,
    private readonly gate: SessionGate,
  ) {
    super();
    inner.onError((error) => this.fireError(error[0], error[1], error[2]));
    inner.onClose(() => this.fireClose());
  }

  write(message: Message): Promise<void> {
    this.gate.sent(message);
    return this.inner.write(message);
  }

  end(): void {
    this.inner.end();
  }
}
