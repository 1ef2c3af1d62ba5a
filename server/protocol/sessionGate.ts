// The rules every incoming message passes before the connection sees it: the LSP lifecycle order
// (-32002 before `initialize`, one `initialize` only), well-formed ids and methods, one pending
// request per id, and params of the right shape (initializeParams.ts for `initialize`, then the
// checks it is given: messageSchemas.ts). A request it stops gets its
// error here; a notification it stops is logged (window/logMessage) and dropped. Every message
// after `initialize` waits, in order, until the gate is given the checks for it (release): the
// server is ready for them then (main.ts: once the rest of editls has loaded after the answer).
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
import { initializeProblem } from './initializeParams.js';

type Id = number | string;
type Raw = Record<string, unknown>;

/** What is wrong with a message's params, if anything (a short description: "textDocument.text: expected string, received number"). */
export interface MessageChecks {
  request(method: string, params: unknown): string | undefined;
  notification(method: string, params: unknown): string | undefined;
}

/** LSP's ServerNotInitialized. */
const SERVER_NOT_INITIALIZED = -32002;
const LOG_WARNING = 2;

export class SessionGate {
  private initializeReceived = false;
  private initializedReceived = false;
  /** Requests handed to the connection and not answered yet. */
  private readonly pending = new Set<string>();
  /** How every message after `initialize` is judged: none until release(), and those messages wait. */
  private checks: MessageChecks | undefined;
  /** Messages after `initialize` waiting for release(), and where they then go. */
  private readonly held: Message[] = [];
  private deliverHeld: ((message: Message) => void) | undefined;

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
    const problem = method === 'initialize' ? initializeProblem(params) : this.checksNow().request(method, params);
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
    const problem = this.checksNow().notification(method, params);
    if (problem !== undefined) return this.ignore(method, `its params have the wrong shape (${problem})`);
    return message;
  }

  /** From now on `checks` judge every message after `initialize`; those that waited go through first, in the order they came. */
  release(checks: MessageChecks): void {
    this.checks = checks;
    for (const message of this.held.splice(0)) this.pass(message, this.deliverHeld!);
  }

  /** A message from the client: admitted (or answered, or dropped) now, or held until release(). */
  pass(message: Message, deliver: (message: Message) => void): void {
    if (this.checks === undefined && this.initializeReceived) {
      this.held.push(message);
      this.deliverHeld = deliver;
      return;
    }
    const admitted = this.admit(message);
    if (admitted) deliver(admitted);
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

  /** A message after `initialize` reaches admit() only once the gate has its checks (pass holds it until then). */
  private checksNow(): MessageChecks {
    if (this.checks === undefined) throw new Error('editls: a message after initialize reached the session gate before its checks');
    return this.checks;
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
    return this.inner.listen((message) => this.gate.pass(message, callback));
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
