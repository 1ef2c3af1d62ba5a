// workspace/symbol through the real server over stdio: the index build's $/progress, flat
// SymbolInformation[] with full ranges in each client's encoding, ranking and the maxSymbols cap,
// the file watcher registration, updates after didSave, watched-file events and buffer edits, and
// $/cancelRequest.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { CancellationTokenSource, type ClientCapabilities } from 'vscode-languageserver/node';
import { CAPS_HELIX, CAPS_NEOVIM_07, CAPS_VSCODE, TestClient, toOffset, type ClientOptions } from '../helpers/lspClient.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup } = serverFixture();

/** Starts a client and waits until the first index build has ended (its $/progress `end`). */
async function startIndexed(ws: TempWorkspace, options: Partial<ClientOptions> = {}) {
  const client = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE, ...options });
  cleanups.push(() => client.shutdown());
  await new Promise<void>((resolve) => {
    const check = () => {
      const begin = client.progress.find((p) => p.value.kind === 'begin' && p.value.title === 'editls: indexing symbols');
      if (begin && client.progress.some((p) => p.token === begin.token && p.value.kind === 'end')) resolve();
      else setTimeout(check, 5);
    };
    check();
  });
  return client;
}

interface SymbolInformation {
  name: string;
  kind: number;
  containerName?: string;
  location: { uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } };
}

async function query(client: TestClient, q: string): Promise<SymbolInformation[]> {
  return (await client.conn.sendRequest('workspace/symbol', { query: q })) as SymbolInformation[];
}

const SOURCE = 'export class ParserFactory {\n  createParser() {\n    return 1;\n  }\n}\nexport const 日本_é = "😀";\nexport function parseAll() {}\n';

describe('workspace/symbol', () => {
  it('advertises workspaceSymbolProvider and reports the first build as $/progress', async () => {
    const ws = setup({ 'src/a.ts': SOURCE });
    const client = await startIndexed(ws);
    expect((client.initializeResult.capabilities as { workspaceSymbolProvider?: unknown }).workspaceSymbolProvider).toBe(true);
    const token = client.progress.find((p) => p.value.kind === 'begin')!.token;
    const end = client.progress.find((p) => p.token === token && p.value.kind === 'end')!;
    expect(end.value.message).toMatch(/^indexed 4 symbols in 1 files/);
  });

  for (const [name, caps] of [
    ['VS Code (utf-16)', CAPS_VSCODE],
    ['Helix (utf-8)', CAPS_HELIX],
  ] as const) {
    it(`answers flat SymbolInformation with full ranges on the name, fuzzy-ranked — ${name}`, async () => {
      const ws = setup({ 'src/a.ts': SOURCE, 'src/b.py': 'class Parser:\n    def parse(self):\n        pass\n' });
      const client = await startIndexed(ws, { capabilities: caps });
      const hits = await query(client, 'parse');
      expect(hits.map((h) => `${h.name}:${h.kind}:${h.containerName ?? ''}`)).toEqual([
        'parse:6:Parser',
        'Parser:5:',
        'parseAll:12:',
        'ParserFactory:5:',
        'createParser:6:ParserFactory',
      ]);
      for (const h of hits) {
        const text = ws.read(h.location.uri.slice(client.uri('').length));
        const start = toOffset(text, h.location.range.start, client.encoding);
        const end = toOffset(text, h.location.range.end, client.encoding);
        expect(text.slice(start, end)).toBe(h.name);
      }
      const unicode = await query(client, '日本');
      const text = ws.read('src/a.ts');
      const u = unicode[0]!;
      expect(text.slice(toOffset(text, u.location.range.start, client.encoding), toOffset(text, u.location.range.end, client.encoding))).toBe('日本_é');
      expect((await query(client, 'pf')).map((h) => h.name)).toEqual(['ParserFactory']);
    });
  }

  it('a query sent right after initialized waits for the first build instead of answering []', async () => {
    const ws = setup({ 'src/deep/a.ts': 'export function fooBarBaz(): void {}\r\n', 'b.py': 'def fooBarQux():\n    pass\n' });
    const client = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE });
    cleanups.push(() => client.shutdown());
    const hits = (await client.conn.sendRequest('workspace/symbol', { query: 'fooBar' })) as SymbolInformation[];
    expect(hits.map((h) => h.name).sort()).toEqual(['fooBarBaz', 'fooBarQux']);
  });

  it('caps results at maxSymbols', async () => {
    const ws = setup({ 'a.go': Array.from({ length: 50 }, (_, i) => `func Handler${i}() {}`).join('\n') + '\n' });
    const client = await startIndexed(ws, { initializationOptions: { maxSymbols: 7 } });
    expect(await query(client, 'handler')).toHaveLength(7);
    expect((await query(client, 'handler1')).map((h) => h.name)).toEqual(['Handler1', 'Handler10', 'Handler11', 'Handler12', 'Handler13', 'Handler14', 'Handler15']);
  });

  it('follows didSave and open-buffer edits (Neovim)', async () => {
    const ws = setup({ 'a.rs': 'pub fn old_name() {}\n' });
    const client = await startIndexed(ws, { capabilities: { ...CAPS_NEOVIM_07, window: { workDoneProgress: true } }, clientName: 'Neovim' });
    await client.open('a.rs', undefined, 'rust');
    await client.type('a.rs', 'old_name', 'typed_name');
    expect((await query(client, 'name')).map((h) => h.name)).toEqual(['typed_name']);
    // save: the disk now has the buffer text; closing keeps it
    writeFileSync(ws.file('a.rs'), client.bufferText('a.rs')!);
    await client.conn.sendNotification('textDocument/didSave', { textDocument: { uri: client.uri('a.rs') } });
    await client.close('a.rs');
    expect((await query(client, 'name')).map((h) => h.name)).toEqual(['typed_name']);
  });

  it('registers a file watcher when the client allows it and follows watched-file events', async () => {
    const caps: ClientCapabilities = { ...CAPS_VSCODE, workspace: { ...CAPS_VSCODE.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } };
    const ws = setup({ 'a.py': 'def first(): pass\n' });
    const client = await startIndexed(ws, { capabilities: caps });
    const watcher = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    expect(watcher?.registerOptions.watchers[0].globPattern).toMatch(/^\*\*\/\*\.\{.*\bpy\b.*\}$/);
    ws.write('b.py', 'def second(): pass\n');
    writeFileSync(ws.file('a.py'), 'def renamed(): pass\n');
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: client.uri('b.py'), type: 1 },
        { uri: client.uri('a.py'), type: 2 },
      ],
    });
    expect((await query(client, '')).map((h) => h.name)).toEqual(['renamed', 'second']);
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: client.uri('b.py'), type: 3 }] });
    expect((await query(client, '')).map((h) => h.name)).toEqual(['renamed']);
  });

  it('does not register a watcher without dynamic registration', async () => {
    const ws = setup({ 'a.py': 'def first(): pass\n' });
    const client = await startIndexed(ws);
    expect(client.registrations.filter((r) => r.method === 'workspace/didChangeWatchedFiles')).toEqual([]);
  });

  it('$/cancelRequest on a long query answers RequestCancelled, and the server keeps serving', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`f${i}.go`] = Array.from({ length: 1500 }, (_, j) => `func Fn${i}x${j}() {}`).join('\n') + '\n';
    const ws = setup(files);
    const client = await startIndexed(ws);
    const source = new CancellationTokenSource();
    const pending = client.conn.sendRequest('workspace/symbol', { query: 'zz' }, source.token);
    source.cancel();
    const error = await pending.then(
      () => undefined,
      (e: { code: number }) => e,
    );
    expect(error?.code).toBe(-32800);
    expect((await query(client, 'fn3x14')).map((h) => h.name)[0]).toBe('Fn3x14');
  });
});
