// Messages nothing waits on, sent after the connection is gone (quietSend.ts): a session's log line
// after its connection was disposed threw out of vscode-jsonrpc and, from a promise callback, became an
// unhandled rejection (a stray-temp sweep finishing after `editls mcp` dropped its headless session).
// A real vscode-languageserver connection over in-memory streams, and a real in-process session that
// startServer's `stop` ends.
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, createConnection, createMessageConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-languageserver/node';
import { requestOrReject, sendQuietly } from '../../server/protocol/quietSend.js';
import { sessionStart } from '../../server/sessionStart.js';
import { startServer } from '../../server/server.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serverPair() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  const client: MessageConnection = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  return { server, client };
}

describe('messages sent once the connection is gone', () => {
  it("a session's log and warning after dispose are dropped, where the bare send throws", () => {
    const { server } = serverPair();
    const start = sessionStart(server);
    server.listen();
    server.dispose();
    // The failure this guards against: vscode-jsonrpc throws at the call.
    expect(() => server.sendNotification('window/logMessage', { type: 4, message: 'x' })).toThrow(ConnectionError);
    expect(() => start.log('late line')).not.toThrow();
    expect(() => start.warn('late warning')).not.toThrow();
  });

  it('sendQuietly: a connection error thrown or rejected is dropped; any other goes to stderr', async () => {
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (errors.push(String(chunk)), true));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    cleanups.push(() => process.off('unhandledRejection', onRejection));
    sendQuietly(() => {
      throw new ConnectionError(2, 'Connection is disposed.');
    });
    sendQuietly(() => Promise.reject(new ConnectionError(1, 'Connection is closed.')));
    sendQuietly(() => Promise.reject(new Error('cannot serialise')));
    sendQuietly(() => {
      throw new TypeError('bad params');
    });
    // Rejections are settled by the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
    expect(errors).toEqual(['editls: a message to the client was not sent: bad params\n', 'editls: a message to the client was not sent: cannot serialise\n']);
  });

  it('requestOrReject turns a throw at the call into a rejection', async () => {
    const { server } = serverPair();
    server.listen();
    server.dispose();
    expect(() => server.sendRequest('window/workDoneProgress/create', { token: 't' })).toThrow(ConnectionError);
    await expect(requestOrReject(() => server.sendRequest('window/workDoneProgress/create', { token: 't' }))).rejects.toBeInstanceOf(ConnectionError);
  });
});

/** An in-process session as editls mcp's headless one is made, and a minimal client of it. */
function inProcessSession() {
  const { server, client } = serverPair();
  const served = startServer(server, { foldersAreReal: true });
  client.onRequest('workspace/configuration', (p: { items?: unknown[] }) => (p.items ?? []).map(() => null));
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onRequest('client/registerCapability', () => null);
  client.listen();
  cleanups.push(() => {
    client.dispose();
    server.dispose();
  });
  return { client, served };
}

describe("startServer's stop", () => {
  it('ends the in-process session as shutdown does: later requests are refused', async () => {
    const ws = tempWorkspace({ 'a.ts': 'export const a = 1;\n' });
    cleanups.push(ws.cleanup);
    const { client, served } = inProcessSession();
    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(ws.root).href, workspaceFolders: [{ uri: pathToFileURL(ws.root).href, name: 'ws' }], capabilities: {} });
    await client.sendNotification('initialized', {});
    const read = () => client.sendRequest('workspace/executeCommand', { command: 'editls.readFile', arguments: [{ file_path: path.join(ws.root, 'a.ts') }] });
    expect(JSON.stringify(await read())).toContain('export const a = 1;');
    served.stop();
    served.stop();
    await expect(read()).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('shutting down') });
  });

  it('before initialize: the session is stopped as soon as it is served', async () => {
    const ws = tempWorkspace({ 'a.ts': 'x\n' });
    cleanups.push(ws.cleanup);
    const { client, served } = inProcessSession();
    served.stop();
    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(ws.root).href, capabilities: {} });
    await expect(client.sendRequest('workspace/symbol', { query: 'x' })).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('shutting down') });
  });
});
