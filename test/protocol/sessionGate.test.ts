// The session gate's hold (main.ts answers `initialize`, then loads the rest of editls): what comes
// after an admitted `initialize` waits, in order, until release(), and is then judged by the checks
// given there; what comes before it, or after a refused one, is judged at once. And `initialize`'s
// own check (initializeParams.ts, without zod) refuses the shapes editls and vscode-languageserver
// cannot read. Real frames through vscode-languageserver's StreamMessageReader.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamMessageReader, type Message } from 'vscode-languageserver/node';
import { SessionGate } from '../../server/protocol/sessionGate.js';
import { MESSAGE_CHECKS } from '../../server/protocol/messageSchemas.js';
import { initializeProblem } from '../../server/protocol/initializeParams.js';

type Raw = { id?: unknown; method?: string; error?: { code: number; message: string }; params?: { message?: string } };

function gated() {
  const input = new PassThrough();
  const sent: Raw[] = [];
  const delivered: Raw[] = [];
  const gate = new SessionGate((m) => sent.push(m as Raw));
  gate.reader(new StreamMessageReader(input)).listen((m) => delivered.push(m as Raw));
  const write = (...messages: object[]) =>
    new Promise<void>((resolve) => {
      for (const m of messages) {
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }));
        input.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
      }
      // The reader parses on the stream's 'data' events: after this turn they have all come.
      setImmediate(resolve);
    });
  return { gate, sent, delivered, write };
}

const INIT = { processId: null, rootUri: null, capabilities: {} };

describe('the session gate holding what comes after initialize', () => {
  it('judges what comes before initialize at once, holds what follows it, and lets it through in order at release', async () => {
    const { gate, sent, delivered, write } = gated();
    await write({ id: 1, method: 'workspace/symbol', params: { query: 'x' } }, { method: 'textDocument/didOpen', params: {} });
    // Before initialize: -32002 for the request, a log for the notification, nothing delivered.
    expect(sent.map((m) => m.error?.code ?? m.method)).toEqual([-32002, 'window/logMessage']);
    expect(delivered).toEqual([]);

    await write(
      { id: 2, method: 'initialize', params: INIT },
      { method: 'initialized', params: {} },
      { method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.ts', languageId: 'typescript', version: 1, text: 'a\r\n\u{1F600}' } } },
      { method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///b.ts', version: 'one' } } },
      { id: 3, method: 'workspace/symbol', params: { query: 5 } },
      { id: 4, method: 'workspace/symbol', params: { query: 'x' } },
      { id: 2, method: 'shutdown' },
    );
    expect(delivered.map((m) => m.id ?? m.method)).toEqual([2]);
    expect(sent).toHaveLength(2);

    gate.release(MESSAGE_CHECKS);
    expect(delivered.map((m) => m.id ?? m.method)).toEqual([2, 'initialized', 'textDocument/didOpen', 4]);
    const after = sent.slice(2);
    expect(after.map((m) => m.error?.code ?? m.method)).toEqual(['window/logMessage', -32602, -32600]);
    expect(after[0]!.params!.message).toMatch(/^editls ignored textDocument\/didOpen: its params have the wrong shape \(textDocument\.languageId: /);
    expect(after[1]!.error!.message).toMatch(/^invalid params for workspace\/symbol: query: expected string, received number/);
    // id 2 is still the pending initialize: a request reusing it is refused.
    expect(after[2]!.error!.message).toMatch(/^duplicate request id 2/);

    // Released: later messages pass at once.
    await write({ id: 5, method: 'workspace/symbol', params: { query: 'y' } });
    expect(delivered.map((m) => m.id ?? m.method).at(-1)).toBe(5);
  });

  it('holds nothing after a refused initialize; the next initialize starts the hold', async () => {
    const { gate, sent, delivered, write } = gated();
    await write({ id: 1, method: 'initialize', params: { processId: null } }, { id: 2, method: 'workspace/symbol', params: { query: 'x' } });
    expect(sent.map((m) => m.error?.code)).toEqual([-32602, -32002]);
    expect(sent[0]!.error!.message).toBe('invalid params for initialize: capabilities: expected object, received undefined');
    await write({ id: 3, method: 'initialize', params: INIT }, { method: 'initialized', params: {} });
    expect(delivered.map((m) => m.id ?? m.method)).toEqual([3]);
    gate.release(MESSAGE_CHECKS);
    expect(delivered.map((m) => m.id ?? m.method)).toEqual([3, 'initialized']);
  });
});

describe("initialize's params", () => {
  it.each([
    ['params null', null, '(params): expected object, received null'],
    ['params an array', [], '(params): expected object, received array'],
    ['capabilities missing', { processId: null, rootUri: null }, 'capabilities: expected object, received undefined'],
    ['processId a string', { processId: '12', capabilities: {} }, 'processId: expected int, received string'],
    ['processId 1.5', { processId: 1.5, capabilities: {} }, 'processId: expected int, received number'],
    ['rootUri a number', { rootUri: 5, capabilities: {} }, 'rootUri: expected string, received number'],
    ['clientInfo without a name', { clientInfo: {}, capabilities: {} }, 'clientInfo.name: expected string, received undefined'],
    ['workspaceFolders an object', { workspaceFolders: { uri: 'file:///w' }, capabilities: {} }, 'workspaceFolders: expected array, received object'],
    ['a folder without a name', { workspaceFolders: [{ uri: 'file:///w', name: 'w' }, { uri: 'file:///v' }], capabilities: {} }, 'workspaceFolders.1.name: expected string, received undefined'],
    ['positionEncodings a string', { capabilities: { general: { positionEncodings: 'utf-8' } } }, 'capabilities.general.positionEncodings: expected array, received string'],
    ['an encoding a number', { capabilities: { general: { positionEncodings: ['utf-8', 8] } } }, 'capabilities.general.positionEncodings.1: expected string, received number'],
    ['resourceOperations a number', { capabilities: { workspace: { workspaceEdit: { resourceOperations: 5 } } } }, 'capabilities.workspace.workspaceEdit.resourceOperations: expected array, received number'],
    ['didChangeWatchedFiles true', { capabilities: { workspace: { didChangeWatchedFiles: true } } }, 'capabilities.workspace.didChangeWatchedFiles: expected object, received boolean'],
    ['textDocument an array', { capabilities: { textDocument: [] } }, 'capabilities.textDocument: expected object, received array'],
    ['workDoneToken an object', { capabilities: {}, workDoneToken: {} }, 'workDoneToken: expected int or string, received object'],
  ])('refuses %s', (_, params, problem) => {
    expect(initializeProblem(params)).toBe(problem);
  });

  it('takes what clients send: nulls for the optional parts, flags of any value, unknown fields', () => {
    for (const params of [
      INIT,
      { processId: 4242, clientInfo: { name: 'Neovim', version: '0.7.2' }, rootPath: '/w', rootUri: 'file:///w', workspaceFolders: null, capabilities: { general: null, workspace: null, window: null, textDocument: null } },
      { processId: null, clientInfo: null, rootPath: null, workspaceFolders: [{ uri: 'file:///w', name: 'w' }], capabilities: { general: { positionEncodings: ['utf-8', 'utf-16'] }, workspace: { workspaceEdit: { resourceOperations: ['create'], documentChanges: 'yes' }, didChangeWatchedFiles: { dynamicRegistration: 1 } }, experimental: 5 }, trace: 'off', workDoneToken: 'w1' },
      { capabilities: {}, workDoneToken: 7, partialResultToken: 'p', initializationOptions: { editls: { maxResults: 'x' } } },
    ]) {
      expect(initializeProblem(params)).toBeUndefined();
    }
  });
});
