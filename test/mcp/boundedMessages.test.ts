// Every message fits its transport (issue 24, item 6): the MCP SDK's stdio line limit is 10 MiB.
// An oversized call gets an error under its own id and the session goes on (it used to end editls
// mcp silently); answers stay small whatever the file sizes — a large read pages, a huge search
// is cut — in content and structuredContent alike. The real SDK client against the real editls mcp,
// and the transport itself over in-memory streams.
import { afterEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { privateRuntimeDir, startMcp } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { LineTransport } from '../../server/mcp/lineTransport.js';
import { MAX_STRUCTURED, MAX_TEXT } from '../../server/mcp/results.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function agentOn(files: Record<string, string>) {
  const ws = tempWorkspace(files);
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  const agent = await startMcp({ root: ws.root, xdg: rt.xdg });
  cleanups.push(() => agent.close());
  return { ws, agent };
}

describe('editls mcp: messages that fit', () => {
  it('an 11 MiB call is refused with an error under its id; the session goes on', async () => {
    const { ws, agent } = await agentOn({ 'a.txt': 'one\n' });
    const huge = agent.client.callTool({ name: 'edit', arguments: { file_path: 'big.txt', old_string: '', new_string: 'x'.repeat(11 * 1024 * 1024) } }, undefined, { timeout: 60_000 });
    await expect(huge).rejects.toMatchObject({ code: -32600, message: expect.stringMatching(/over the 10 MiB an MCP stdio message may take/) });
    const next = await agent.call('edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    expect(next.isError).toBe(false);
    expect(ws.read('a.txt')).toBe('two\n');
    expect(agent.stderr()).toMatch(/refused a message of 11\.0 MiB/);
  });

  it('a 3,000-line read of long lines pages at 20,000 characters, the next offset named; structuredContent stays small', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1} ${'x'.repeat(3000)}`);
    const { agent } = await agentOn({ 'wide.txt': `${lines.join('\n')}\n` });
    const raw = (await agent.client.callTool({ name: 'read_file', arguments: { file_path: 'wide.txt', limit: 3000 } })) as { content: { text: string }[]; structuredContent: Record<string, unknown> };
    const text = raw.content[0]!.text;
    const [page, notes] = text.split('\n\nnote: ');
    expect(page!.length).toBeLessThanOrEqual(MAX_TEXT);
    const shownLines = page!.split('\n');
    expect(shownLines[0]).toMatch(/^ {5}1\t1 x+/);
    const last = shownLines.length;
    expect(notes).toContain(`read on with offset ${last + 1}`);
    expect(JSON.stringify(raw.structuredContent).length).toBeLessThanOrEqual(MAX_STRUCTURED);
    expect(raw.structuredContent).toMatchObject({ endLine: last, more: true, nextOffset: last + 1, totalLines: 3000 });
    // Reading on from there continues where the page stopped.
    const next = await agent.call('read_file', { file_path: 'wide.txt', offset: last + 1, limit: 1 });
    expect(next.text).toMatch(new RegExp(`^ *${last + 1}\\t${last + 1} x`));
  });

  it('a search with 100,000 long matching lines answers a cut layout and a small structuredContent', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 20; f++) files[`f${f}.txt`] = Array.from({ length: 5000 }, (_, i) => `needle ${i} ${'y'.repeat(450)}`).join('\n') + '\n';
    const { agent } = await agentOn(files);
    const raw = (await agent.client.callTool({ name: 'search_files', arguments: { path: '.', regex: 'needle', max_results: 100_000, context_lines: 0 } }, undefined, { timeout: 60_000 })) as { content: { text: string }[]; structuredContent: Record<string, unknown> };
    expect(raw.content[0]!.text.length).toBeLessThan(MAX_TEXT + 500);
    expect(raw.content[0]!.text).toMatch(/cut at 20000 characters/);
    expect(JSON.stringify(raw.structuredContent).length).toBeLessThanOrEqual(MAX_STRUCTURED);
    expect(raw.structuredContent.count).toBe(100_000);
  });
});

describe('LineTransport', () => {
  function pair(maxLineBytes = 1000) {
    const input = new PassThrough();
    const output = new PassThrough();
    const logs: string[] = [];
    const t = new LineTransport(input, output, (m) => logs.push(m), maxLineBytes);
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    let written = '';
    output.on('data', (d: Buffer) => (written += d.toString()));
    return { t, input, got, logs, replies: () => written.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) };
  }

  it('skips an oversized line streamed in many chunks, answers its id (last member or first), and reads the next line', async () => {
    const { t, input, got, replies, logs } = pair();
    await t.start();
    const big = JSON.stringify({ method: 'tools/call', params: { s: 'z'.repeat(5000) }, jsonrpc: '2.0', id: 7 });
    for (let i = 0; i < big.length; i += 333) input.write(big.slice(i, i + 333));
    input.write('\n{"jsonrpc":"2.0","id":"s1","method":"x","params":{"pad":"' + 'q'.repeat(2000) + '"}}\n');
    input.write('{"jsonrpc":"2.0","id":8,"method":"ping"}\r\n');
    input.write('not json\n');
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    const r = replies();
    expect(r.map((m) => [m.id, m.error.code])).toEqual([[7, -32600], ['s1', -32600], [null, -32700]]);
    expect(r[0].error.message).toMatch(/over the .* MiB an MCP stdio message may take/);
    expect(logs.filter((l) => /refused a message/.test(l))).toHaveLength(2);
  });

  it('an answer over the limit is replaced by an error for its request, never sent whole', async () => {
    const { t, replies } = pair();
    await t.start();
    await t.send({ jsonrpc: '2.0', id: 3, result: { text: 'w'.repeat(5000) } });
    expect(replies()).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32603, message: expect.stringMatching(/over the/) } }]);
  });
});
