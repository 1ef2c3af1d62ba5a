// editls.readFile through the real server over stdio: numbered lines from disk or from the open
// buffer (unsaved text), offset/limit, CRLF/BOM/UTF-16/emoji, long lines cut, binary refused,
// escapes refused, ranges past the end.
import { describe, expect, it } from 'vitest';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();
const READ = 'editls.readFile';

describe('editls.readFile', () => {
  it('numbers lines cat -n style from disk; CRLF, BOM and no final newline read as lines', async () => {
    const ws = setup({ 'a.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo 😀\r\nthree', 'utf8')]) });
    const client = await start(ws);
    const r = await client.exec(READ, { file_path: 'a.txt' });
    expect(r.content).toBe('     1\tone\n     2\ttwo 😀\n     3\tthree');
    expect(r).toMatchObject({ success: true, path: 'a.txt', source: 'disk', startLine: 1, endLine: 3, totalLines: 3, more: false, truncatedLines: 0 });
    expect(r.message).toBe('editls.readFile: lines 1-3 of 3 in a.txt (from disk)');
  });

  it('reads the unsaved open buffer, not the disk', async () => {
    const ws = setup({ 'b.ts': 'on disk\n' });
    const client = await start(ws);
    await client.open('b.ts', 'unsaved\nbuffer\n');
    const r = await client.exec(READ, { file_path: 'b.ts' });
    expect(r.content).toBe('     1\tunsaved\n     2\tbuffer');
    expect(r.source).toBe('editor');
  });

  it('offset and limit (also as strings) select lines; more says where to go on', async () => {
    const ws = setup({ 'c.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n' });
    const client = await start(ws);
    const r = await client.exec(READ, { file_path: 'c.txt', offset: '4', limit: 2 });
    expect(r.content).toBe('     4\tline 4\n     5\tline 5');
    expect(r).toMatchObject({ startLine: 4, endLine: 5, totalLines: 10, more: true });
    expect(r.message).toContain('offset 6');
    const past = await client.execError(READ, { file_path: 'c.txt', offset: 11 });
    expect(past.data).toMatchObject({ kind: 'invalid_range', lineCount: 10 });
  });

  it('a UTF-16 LE file decodes; long lines are cut with a marker', async () => {
    const ws = setup({ 'w.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('名前\n', 'utf16le')]), 'long.txt': 'x'.repeat(5000) + '\n' });
    const client = await start(ws);
    expect((await client.exec(READ, { file_path: 'w.txt' })).content).toBe('     1\t名前');
    const r = await client.exec(READ, { file_path: 'long.txt' });
    expect(r.truncatedLines).toBe(1);
    expect(r.content.length).toBeLessThan(2100);
    expect(r.content).toContain('[truncated...]');
  });

  it('an empty file reads as empty; binary, missing and outside paths are refused', async () => {
    const ws = setup({ 'e.txt': '', 'bin.dat': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02, 0x00]) });
    const client = await start(ws);
    expect(await client.exec(READ, { file_path: 'e.txt' })).toMatchObject({ content: '', totalLines: 0 });
    expect((await client.execError(READ, { file_path: 'bin.dat' })).data.kind).toBe('binary_file');
    expect((await client.execError(READ, { file_path: 'nope.txt' })).data.kind).toBe('file_not_found');
    expect((await client.execError(READ, { file_path: '../../etc/passwd' })).data.kind).toBe('outside_workspace');
    expect((await client.execError(READ, { file_path: '/etc/hostname' })).data.kind).toBe('outside_workspace');
  });
});
