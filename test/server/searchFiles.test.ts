// editls.searchFiles through the real server over stdio: the contract's text layout and matches
// with ranges checked in each client's position encoding (converted back by the test client on
// its own), ignore rules and globs, dirty buffers, the cap and its notice, line cuts, errors,
// $/progress on the request's workDoneToken, and cancellation ($/cancelRequest, progress cancel).
import { describe, expect, it } from 'vitest';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_NEOVIM_07, CAPS_VSCODE, toOffset } from '../helpers/lspClient.js';
import type { TempWorkspace } from '../helpers/tempWorkspace.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

interface Match {
  path: string;
  uri: string;
  line: number;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

const LINE = 'const café = "😀 日本 needle";';

describe('result layout and positions', () => {
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['lsp-mode 8 (code points)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`text layout and match ranges — ${name}`, async () => {
      const text = `// header\n${LINE}\nafter\n\n\n\nlater needle here\n`;
      const ws = setup({ 'src/a.ts': text, 'src/b.ts': 'needle\n' });
      const client = await start(ws, { capabilities: caps, clientName });
      const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
      expect(r.text).toBe(
        [
          'Found 3 results.',
          '',
          '# src/a.ts',
          '  1 | // header',
          `  2 | ${LINE}`,
          '  3 | after',
          '----',
          '  6 | ',
          '  7 | later needle here',
          '----',
          '',
          '# src/b.ts',
          '  1 | needle',
          '----',
        ].join('\n'),
      );
      expect(r).toMatchObject({ success: true, count: 3, truncated: false });
      const matches = r.matches as Match[];
      expect(matches.map((m) => [m.path, m.line])).toEqual([
        ['src/a.ts', 2],
        ['src/a.ts', 7],
        ['src/b.ts', 1],
      ]);
      // The client converts the range with its own code: it must land exactly on "needle".
      for (const m of matches) {
        const body = ws.read(m.path);
        const start = toOffset(body, m.range.start, client.encoding);
        const end = toOffset(body, m.range.end, client.encoding);
        expect(body.slice(start, end)).toBe('needle');
        expect(m.uri).toBe(client.uri(m.path));
      }
    });
  }

  it('CRLF `$`, BOM `^`, Unicode \\w and a binary file, end to end', async () => {
    const ws = setup({
      'crlf.txt': 'one end\r\ntwo\r\nend three end\r\n',
      'bom.txt': '\uFEFFstart é\r\n',
      'bin.dat': Buffer.from('start end\0\0\0'),
    });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    const ends = await client.exec('editls.searchFiles', { path: '.', regex: 'end$', context_lines: 0 });
    expect((ends.matches as Match[]).map((m) => `${m.path}:${m.line}`)).toEqual(['crlf.txt:1', 'crlf.txt:3']);
    const starts = await client.exec('editls.searchFiles', { path: '.', regex: '^start \\w$' });
    expect(starts.matches).toHaveLength(1);
    const m = (starts.matches as Match[])[0]!;
    expect(m.path).toBe('bom.txt');
    // utf-8 columns of the BOM-less line (editors do not show the BOM): "start é" is 8 bytes.
    expect(m.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 8 } });
    expect(m.text).toBe('start é');
  });
});

describe('arguments and errors', () => {
  it('a bad regex is invalid_regex (-32803), never an empty result', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws);
    const e = await client.execError('editls.searchFiles', { path: '.', regex: 'foo(' });
    expect(e.code).toBe(-32803);
    expect(e.data.kind).toBe('invalid_regex');
    expect(e.message).toContain('unclosed group');
  });

  it('checks paths, numbers as strings, booleans as strings and bad globs', async () => {
    const ws = setup({ 'src/a.txt': 'needle\n', '.gitignore': 'src/ignored.txt\n', 'src/ignored.txt': 'needle\n' });
    const client = await start(ws);
    expect((await client.execError('editls.searchFiles', { path: 'nope', regex: 'x' })).data.kind).toBe('file_not_found');
    expect((await client.execError('editls.searchFiles', { path: '/etc', regex: 'x' })).data.kind).toBe('outside_workspace');
    expect((await client.execError('editls.searchFiles', { path: '.', regex: 'x', file_pattern: '*.{a,b' })).data.kind).toBe('invalid_args');
    expect((await client.execError('editls.searchFiles', { path: '.', regex: 'x', max_results: 0 })).data.kind).toBe('invalid_args');
    expect((await client.execError('editls.searchFiles', { path: '.', regex: '' })).data.kind).toBe('invalid_args');
    expect((await client.execError('editls.searchFiles', { path: '.', regex: 'x', unknown: 1 })).data.kind).toBe('invalid_args');
    const r = await client.exec('editls.searchFiles', { path: ws.root, regex: 'needle', context_lines: '0', respect_gitignore: 'false', max_results: '5' });
    expect((r.matches as Match[]).map((m) => m.path)).toEqual(['src/a.txt', 'src/ignored.txt']);
    const viaUri = await client.exec('editls.searchFiles', { path: client.uri('src'), regex: 'needle', file_pattern: '*.txt' });
    expect((viaUri.matches as Match[]).map((m) => m.path)).toEqual(['src/a.txt']);
  });
});

describe('open buffers', () => {
  it('searches unsaved buffer text instead of the disk copy (Neovim, utf-16)', async () => {
    const ws = setup({ 'a.txt': 'old needle\n', 'b.txt': 'needle b\n' });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('a.txt');
    await client.type('a.txt', 'old needle', 'fresh 😀 text\nsecond needle');
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle', context_lines: 0 });
    expect(r.text).toBe(['Found 2 results.', '', '# a.txt', '  2 | second needle', '----', '', '# b.txt', '  1 | needle b', '----'].join('\n'));
    const m = (r.matches as Match[])[0]!;
    const buffer = client.bufferText('a.txt')!;
    expect(buffer.slice(toOffset(buffer, m.range.start, client.encoding), toOffset(buffer, m.range.end, client.encoding))).toBe('needle');
  });
});

describe('the cap and long lines', () => {
  it('caps at max_results matching lines with the notice', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}.txt`] = 'hit\n'.repeat(10);
    const ws = setup(files);
    const client = await start(ws, { initializationOptions: { maxResults: 25 } });
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'hit', context_lines: 0 });
    expect(r.truncated).toBe(true);
    expect(r.count).toBe(25);
    expect(r.text.split('\n')[0]).toBe('Showing first 25 of 25+ results. Use a more specific search if necessary.');
    expect(r.matches).toHaveLength(25);
    expect((r.matches as Match[]).at(-1)).toMatchObject({ path: 'f02.txt', line: 5 });
    const explicit = await client.exec('editls.searchFiles', { path: '.', regex: 'hit', max_results: 1000 });
    expect(explicit).toMatchObject({ truncated: false, count: 400 });
    expect(explicit.text.split('\n')[0]).toBe('Found 400 results.');
  });

  it('cuts lines longer than maxLineLength on a character boundary, ranges still on the full line', async () => {
    const long = '😀'.repeat(600) + ' needle';
    const ws = setup({ 'a.txt': `${long}\n` });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    const r = await client.exec('editls.searchFiles', { path: '.', regex: 'needle' });
    expect(r.text).toBe(['Found 1 result.', '', '# a.txt', `  1 | ${'😀'.repeat(500)} [truncated...]`, '----'].join('\n'));
    const m = (r.matches as Match[])[0]!;
    expect(m.text).toBe(`${'😀'.repeat(500)} [truncated...]`);
    expect(m.range.start.character).toBe(600 * 4 + 1);
  });
});

function bigWorkspace(): TempWorkspace {
  const files: Record<string, string> = {};
  const body = 'lorem ipsum dolor sit amet consectetur adipiscing elit\n'.repeat(1000);
  for (let i = 0; i < 600; i++) files[`d${i % 10}/f${i}.txt`] = body;
  return setup(files);
}

describe('progress and cancellation', () => {
  it('reports $/progress on the request workDoneToken', async () => {
    const ws = setup({ 'a.txt': 'needle\n' });
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    await client.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: 'needle' }], workDoneToken: 'search-1' });
    const mine = client.progress.filter((p) => p.token === 'search-1').map((p) => p.value.kind);
    expect(mine[0]).toBe('begin');
    expect(mine.at(-1)).toBe('end');
  });

  it('$/cancelRequest stops ripgrep and answers `cancelled`', async () => {
    const ws = bigWorkspace();
    const client = await start(ws);
    const source = new CancellationTokenSource();
    const pending = client.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex: 'no such text (\\w+\\s+){3}zz' }] }, source.token);
    source.cancel();
    const error = await pending.then(
      () => undefined,
      (e: { code: number; data: any }) => e,
    );
    expect(error?.data?.kind).toBe('cancelled');
    // The server keeps serving.
    const r = await client.exec('editls.searchFiles', { path: 'd0/f0.txt', regex: 'lorem', max_results: 1 });
    expect(r.count).toBe(1);
  });

  it('window/workDoneProgress/cancel on the search token stops it too', async () => {
    const ws = bigWorkspace();
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    const began = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (client.progress.some((p) => p.token === 'search-2' && p.value.kind === 'begin')) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    const pending = client.conn.sendRequest('workspace/executeCommand', {
      command: 'editls.searchFiles',
      arguments: [{ path: '.', regex: 'no such text (\\w+\\s+){3}zz' }],
      workDoneToken: 'search-2',
    });
    await began;
    await client.conn.sendNotification('window/workDoneProgress/cancel', { token: 'search-2' });
    const error = await pending.then(
      () => undefined,
      (e: { data: any }) => e,
    );
    expect(error?.data?.kind).toBe('cancelled');
  });
});
