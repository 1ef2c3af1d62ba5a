// The no-input code actions over stdio: which are offered (trailing whitespace in the selection or
// the file, mixed line endings only when mixed), the `only` kind filter, and running them through
// their commands on open buffers and closed files, with CRLF, BOM, tabs and astral text intact.
import { describe, expect, it } from 'vitest';
import { CAPS_HELIX, CAPS_NEOVIM_07, CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

type Action = { title: string; kind: string; command: { command: string; arguments: any[] } };

function range(startLine: number, startChar: number, endLine: number, endChar: number) {
  return { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } };
}

async function actions(client: TestClient, rel: string, r = range(0, 0, 0, 0), only?: string[]): Promise<Action[]> {
  return (await client.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: client.uri(rel) },
    range: r,
    context: { diagnostics: [], ...(only ? { only } : {}) },
  })) as Action[];
}

const run = (client: TestClient, a: Action) => client.exec(a.command.command, a.command.arguments[0]);

describe('what is offered', () => {
  it('advertises its code action kinds', async () => {
    const ws = setup({});
    const client = await start(ws);
    expect((client.initializeResult.capabilities as any).codeActionProvider).toEqual({
      codeActionKinds: ['refactor.rewrite', 'source.trimTrailingWhitespace', 'source.normalizeLineEndings', 'source.applyPreviews', 'source.sendToAgent'],
    });
  });

  it('trailing whitespace: file-wide at the cursor, plus the selection when one is given', async () => {
    const ws = setup({ 'a.txt': 'one  \ntwo\nthree\t\nfour \n' });
    const client = await start(ws);
    await client.open('a.txt');
    expect((await actions(client, 'a.txt')).map((a) => [a.title, a.kind])).toEqual([
      ['editls: remove trailing whitespace in this file (3 lines)', 'source.trimTrailingWhitespace'],
    ]);
    // lines 2-3 selected (the selection ends at column 0 of line 4, which is not part of it)
    const sel = await actions(client, 'a.txt', range(1, 0, 3, 0));
    expect(sel.map((a) => [a.title, a.kind])).toEqual([
      ['editls: remove trailing whitespace in lines 2-3', 'refactor.rewrite'],
      ['editls: remove trailing whitespace in this file (3 lines)', 'source.trimTrailingWhitespace'],
    ]);
    // a selection on a clean line offers only the file-wide action
    expect((await actions(client, 'a.txt', range(1, 0, 1, 3))).map((a) => a.kind)).toEqual(['source.trimTrailingWhitespace']);
  });

  it('line endings: offered only when mixed, naming the dominant ending', async () => {
    const ws = setup({ 'mixed.txt': 'a\r\nb\nc\r\nd\r\n', 'crlf.txt': 'a\r\nb\r\n', 'lf.txt': 'a\nb\n' });
    const client = await start(ws);
    for (const f of ['mixed.txt', 'crlf.txt', 'lf.txt']) await client.open(f);
    expect((await actions(client, 'mixed.txt')).map((a) => a.title)).toEqual(['editls: normalise line endings to CRLF (1 line differs)']);
    expect(await actions(client, 'crlf.txt')).toEqual([]);
    expect(await actions(client, 'lf.txt')).toEqual([]);
  });

  it('honours only (a kind and its sub-kinds)', async () => {
    const ws = setup({ 'a.txt': 'x \r\ny\n' });
    const client = await start(ws);
    await client.open('a.txt');
    const sel = range(0, 0, 1, 1);
    expect((await actions(client, 'a.txt', sel)).map((a) => a.kind)).toEqual(['refactor.rewrite', 'source.trimTrailingWhitespace', 'source.normalizeLineEndings']);
    expect((await actions(client, 'a.txt', sel, ['source'])).map((a) => a.kind)).toEqual(['source.trimTrailingWhitespace', 'source.normalizeLineEndings']);
    expect((await actions(client, 'a.txt', sel, ['refactor.rewrite'])).map((a) => a.kind)).toEqual(['refactor.rewrite']);
    expect((await actions(client, 'a.txt', sel, ['source.normalizeLineEndings'])).map((a) => a.kind)).toEqual(['source.normalizeLineEndings']);
    expect(await actions(client, 'a.txt', sel, ['quickfix'])).toEqual([]);
  });

  it('offers nothing for binary files, files outside the workspace, or clean files', async () => {
    const ws = setup({ 'bin.dat': Buffer.from([0x61, 0x20, 0x0a, 0x00]), 'clean.txt': 'ok\n' });
    const other = setup({ 'x.txt': 'x \n' });
    const client = await start(ws);
    await client.open('clean.txt');
    expect(await actions(client, 'bin.dat')).toEqual([]);
    expect(await actions(client, 'clean.txt')).toEqual([]);
    const outside = (await client.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: `file://${other.file('x.txt')}` },
      range: range(0, 0, 0, 0),
      context: { diagnostics: [] },
    })) as Action[];
    expect(outside).toEqual([]);
  });
});

describe('running them', () => {
  for (const [name, caps] of [
    ['VS Code', CAPS_VSCODE],
    ['Helix (utf-8)', CAPS_HELIX],
    ['Neovim 0.7 (changes)', CAPS_NEOVIM_07],
  ] as const) {
    it(`trims an open buffer with CRLF, tabs and astral text — ${name}`, async () => {
      const before = 'xé😀 \t\r\n\t中文  \r\nkeep\r\nlast 😀 ';
      const ws = setup({ 'a.txt': before });
      const client = await start(ws, { capabilities: caps });
      await client.open('a.txt');
      const file = (await actions(client, 'a.txt')).find((a) => a.kind === 'source.trimTrailingWhitespace')!;
      const r = await run(client, file);
      expect(r).toMatchObject({ replacements: 3, files: [{ via: 'editor' }] });
      expect(r.message).toBe('editls.trimTrailingWhitespace: 3 lines trimmed in a.txt; changed in the editor (unsaved)');
      expect(client.bufferText('a.txt')).toBe('xé😀\r\n\t中文\r\nkeep\r\nlast 😀');
      expect(ws.read('a.txt')).toBe(before);
    });
  }

  it('trims only the selected lines', async () => {
    const ws = setup({ 'a.txt': 'a \nb \nc \n' });
    const client = await start(ws);
    await client.open('a.txt');
    const sel = (await actions(client, 'a.txt', range(1, 0, 1, 2))).find((a) => a.kind === 'refactor.rewrite')!;
    expect(sel.command.arguments[0]).toMatchObject({ start_line: 2, end_line: 2 });
    await run(client, sel);
    expect(client.bufferText('a.txt')).toBe('a \nb\nc \n');
  });

  it('normalises a closed BOM file on disk, keeping the BOM', async () => {
    const before = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\nthree\r\nfour\r\n', 'utf8')]);
    const ws = setup({ 'bom.txt': before });
    const client = await start(ws);
    const r = await client.exec('editls.normalizeLineEndings', { path: 'bom.txt' });
    expect(r).toMatchObject({ replacements: 1, lineEnding: 'CRLF', files: [{ via: 'disk' }] });
    expect(ws.bytes('bom.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\nthree\r\nfour\r\n', 'utf8')]));
    expect((await client.execError('editls.normalizeLineEndings', { path: 'bom.txt' })).data.kind).toBe('no_change');
  });

  it('errors are the usual kinds', async () => {
    const ws = setup({ 'a.txt': 'a \n', 'bin.dat': Buffer.from([0x61, 0x00]) });
    const client = await start(ws);
    expect((await client.execError('editls.trimTrailingWhitespace', { path: 'a.txt', start_line: 3, end_line: 4 })).data.kind).toBe('invalid_range');
    expect((await client.execError('editls.trimTrailingWhitespace', { path: 'bin.dat' })).data.kind).toBe('binary_file');
    expect((await client.execError('editls.trimTrailingWhitespace', { path: 'nope.txt' })).data.kind).toBe('file_not_found');
    expect((await client.execError('editls.trimTrailingWhitespace', { path: 'a.txt', start_line: 'x' })).code).toBe(-32602);
    await client.exec('editls.trimTrailingWhitespace', { path: 'a.txt', start_line: '1' });
    expect(ws.read('a.txt')).toBe('a\n');
  });
});
