// Results too large to build or to write, through the real server over stdio: every command works
// out the size of its result before building it, and over maxFileSize (or V8's string limit) is
// too_large with nothing built, nothing written and the server still serving.
import { describe, expect, it } from 'vitest';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

const SMALL = { initializationOptions: { maxFileSize: 1000 } };

async function expectTooLarge(p: Promise<{ data: any; message: string }>) {
  const err = await p;
  expect(err.data.kind).toBe('too_large');
  expect(err.message).not.toMatch(/Invalid string length/);
  expect(err.message).toContain('nothing changed');
  return err;
}

describe('results over maxFileSize are too_large, nothing built or written', () => {
  it('editls.edit replace_all producing 200 M characters (past V8’s string limit)', async () => {
    const text = 'a'.repeat(100_000);
    const ws = setup({ 'a.txt': text, 'b.txt': 'ping\n' });
    const client = await start(ws);
    const t0 = performance.now();
    const err = await expectTooLarge(client.execError('editls.edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b'.repeat(2000), replace_all: true }));
    expect(err.message).toContain('a.txt');
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(ws.read('a.txt')).toBe(text);
    await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'ping', new_string: 'pong' });
    expect(ws.read('b.txt')).toBe('pong\n');
  });

  it('editls.edit producing 50 MB with the default maxFileSize (10 MiB)', async () => {
    const text = 'a'.repeat(10_000);
    const ws = setup({ 'a.txt': text });
    const client = await start(ws);
    await expectTooLarge(client.execError('editls.edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b'.repeat(5000), replace_all: true }));
    expect(ws.read('a.txt')).toBe(text);
  });

  it('editls.edit creating a file larger than maxFileSize', async () => {
    const ws = setup({});
    const client = await start(ws, SMALL);
    await expectTooLarge(client.execError('editls.edit', { file_path: 'new.txt', old_string: '', new_string: 'x'.repeat(1001) }));
    expect(() => ws.read('new.txt')).toThrow();
  });

  it('editls.strReplace rounds that grow the text step by step', async () => {
    const ws = setup({ 'a.txt': 'a'.repeat(100) });
    const client = await start(ws, SMALL);
    const replacements = Array.from({ length: 4 }, () => ({ old: 'a', new: 'aaa', allowMultiple: true }));
    const err = await expectTooLarge(client.execError('editls.strReplace', { path: 'a.txt', replacements }));
    expect(err.message).toContain('replacements[2]');
    expect(ws.read('a.txt')).toBe('a'.repeat(100));
  });

  it('editls.searchAndReplace, literal and regex (a $\' template that would expand past V8’s limit)', async () => {
    const ws = setup({ 'a.txt': 'a'.repeat(100), 'big.txt': `y${'x'.repeat(100_000)}\n` });
    const client = await start(ws, SMALL);
    await expectTooLarge(client.execError('editls.searchAndReplace', { path: 'a.txt', search: 'a', replace: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }));
    await expectTooLarge(client.execError('editls.searchAndReplace', { path: 'a.txt', search: '(a)', replace: '$1'.repeat(11), use_regex: true }));
    expect(ws.read('a.txt')).toBe('a'.repeat(100));
    const big = await start(ws);
    await expectTooLarge(big.execError('editls.searchAndReplace', { path: 'big.txt', search: '^y', replace: "$'".repeat(3000), use_regex: true }));
    expect(ws.read('big.txt')).toBe(`y${'x'.repeat(100_000)}\n`);
  });

  it('editls.replaceRange with a replacement past the limit', async () => {
    const ws = setup({ 'a.txt': 'abc\n' });
    const client = await start(ws, SMALL);
    await expectTooLarge(
      client.execError('editls.replaceRange', { filePath: 'a.txt', startLine: 1, startColumn: 2, endLine: 1, endColumn: 3, expectedText: 'b', replacementText: 'x'.repeat(1000) }),
    );
    expect(ws.read('a.txt')).toBe('abc\n');
  });

  it('editls.normalizeLineEndings when LF -> CRLF passes the limit', async () => {
    const ws = setup({ 'b.txt': 'x\r\n'.repeat(200) + 'x\n'.repeat(199) });
    const client = await start(ws, { initializationOptions: { maxFileSize: 999 } });
    await expectTooLarge(client.execError('editls.normalizeLineEndings', { path: 'b.txt' }));
    expect(ws.read('b.txt')).toBe('x\r\n'.repeat(200) + 'x\n'.repeat(199));
  });

  it('editls.applyPreview of two previews that fit alone but not together', async () => {
    const ws = setup({ 'a.txt': `AAA\n${'.'.repeat(300)}\nBBB\n` });
    const client = await start(ws, SMALL);
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'AAA', new_string: 'a'.repeat(400), apply: 'preview' });
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'BBB', new_string: 'b'.repeat(400), apply: 'preview' });
    await expectTooLarge(client.execError('editls.applyPreview', { path: 'a.txt' }));
    expect(ws.read('a.txt')).toBe(`AAA\n${'.'.repeat(300)}\nBBB\n`);
  });

  it('bytes count, not characters: 600 characters of é are 1,200 bytes in UTF-8', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws, SMALL);
    const err = await expectTooLarge(client.execError('editls.edit', { file_path: 'a.txt', old_string: 'x', new_string: 'é'.repeat(600) }));
    expect(err.message).toContain('bytes');
    expect(ws.read('a.txt')).toBe('x\n');
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'x', new_string: 'é'.repeat(400) });
    expect(ws.read('a.txt')).toBe(`${'é'.repeat(400)}\n`);
  });
});
