// replaceInFiles' closed files under a case-sensitive literal (workspace/search/literalChange.ts): a
// file read and its change worked out without its texts (the bytes of its temp file, the inverse
// edits, the TextEdits). The byte path (a UTF-8 file without CR, never decoded) gives exactly
// the reply the decoded text gives, file by file: LF, BOM, tabs, no final newline, touching matches,
// shared prefixes and suffixes, preserve case, emoji and CJK under utf-8/16/32 columns; CRLF, lone CR,
// UTF-16, binary, invalid UTF-8 and results over the limits take the text path. A reply's parts agree
// with each other (bytes, digest, edits, inverse, TextEdits), and the outcome given to the command
// holds what its temp file is written from.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesChange, literalChange, literalOutcome, type LiteralJob } from '../../server/workspace/search/literalChange.js';
import { pathToFileURL } from 'node:url';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';
import { decodeText } from '../../server/workspace/disk/fileCodec.js';
import { toTextEdits } from '../../server/protocol/toProto.js';
import type { PositionEncoding } from '../../server/core/text/positions.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'editls-literal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer): string {
  const p = path.join(dir, `f${n++}.txt`);
  writeFileSync(p, content);
  return p;
}

function job(absPath: string, over: Partial<LiteralJob> = {}): LiteralJob {
  return { absPath, relPath: path.basename(absPath), search: 'foo', replace: 'barbaz', preserveCase: false, maxFileSize: 1 << 20, encoding: 'utf-16', maxResultEdits: 1000, ...over };
}

/** A reply as plain data (typed arrays and Buffers as lists), to compare two of them. */
function plain(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

const UTF16LE = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);

// [name, file bytes, job overrides, the byte path applies]
const CASES: [string, string | Buffer, Partial<LiteralJob>, boolean][] = [
  ['LF, several matches', 'foo\nxfoo foo\n\tfoo', {}, true],
  ['CRLF (text path)', 'a foo\r\nfoo b\r\n\r\nfoo', {}, false],
  ['lone CR and mixed endings (text path)', 'foo\rfoo\r\nx\nfoo\r', {}, false],
  ['a shared prefix: an insertion', 'result x result\nresultresult', { search: 'result', replace: 'result_EDITLS' }, true],
  ['a shared suffix: a deletion', 'a_result b_result_result', { search: '_result', replace: 't' }, true],
  ['shared prefix and suffix', 'abXcd abXcd', { search: 'abXcd', replace: 'abYYcd' }, true],
  ['touching matches merged, then trimmed', 'abab abab', { search: 'ab', replace: 'abc' }, true],
  ['replacement equal to the search', 'foo foo', { replace: 'foo' }, true],
  ['preserve case making the same text', 'Foo', { preserveCase: true, search: 'Foo', replace: 'foo' }, true],
  ['no final newline, match at the end', 'x\nyfoo', {}, true],
  ['overlapping candidates (non-overlapping matches, touching: one edit)', 'aaaaa', { search: 'aa', replace: 'b' }, true],
  ['replacement shorter, to nothing', 'foo foo foo', { replace: '' }, true],
  ['UTF-8 BOM', '\uFEFFfoo\nfoo', {}, true],
  ['UTF-8 BOM and CRLF (text path)', '\uFEFFfoo\r\nfoo', {}, false],
  ['preserve case', 'foo Foo FOO foo', { preserveCase: true, search: 'foo', replace: 'barBaz' }, true],
  ['preserve case, capitalised search', 'Foo foo Foo', { preserveCase: true, search: 'Foo', replace: 'bar' }, true],
  ['non-ASCII replacement', 'foo\nfoo', { replace: 'üé中' }, true],
  ['a replacement with an emoji (text path: a surrogate pair)', 'foo\nfoo', { replace: 'x😀' }, false],
  ['no match', 'nothing here\n', {}, true],
  ['search with a non-ASCII character, not there', 'foo\n', { search: 'fü' }, true],
  ['search with a non-ASCII character', 'füß x\n\tfüß', { search: 'füß', replace: 'fuss' }, true],
  ['a shared non-ASCII prefix', 'élan élan', { search: 'élan', replace: 'élégant' }, true],
  ['empty file', '', {}, true],
  ['utf-8 columns', 'x\tfoo\n  foo', { encoding: 'utf-8' }, true],
  ['utf-32 columns', 'x\tfoo\n  foo', { encoding: 'utf-32' }, true],
  ['more edits than maxResultEdits: no TextEdits', 'foo foo foo', { maxResultEdits: 2 }, true],
  ['emoji in the file', '😀 foo\nfoo 😀 foo\n😀😀foo', {}, true],
  ['emoji in the file, utf-8 columns', '😀 foo\nfoo 😀 foo\n😀😀foo', { encoding: 'utf-8' }, true],
  ['emoji in the file, utf-32 columns', '😀 foo\nfoo 😀 foo\n😀😀foo', { encoding: 'utf-32' }, true],
  ['CJK in the file, utf-8 columns', '中文 foo\n\n中foo文foo', { encoding: 'utf-8' }, true],
  ['CJK in the file, utf-32 columns, touching matches', '中文 foofoo\n中foo', { encoding: 'utf-32', replace: 'f' }, true],
  ['CJK and CRLF (text path)', '中文 foo\r\nfoo', { encoding: 'utf-8' }, false],
  ['3,000 lines, matches on some', Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `line ${i} foo foo` : `line ${i}`)).join('\n'), {}, true],
  ['3,000 lines of CJK and emoji, matches on some, utf-32 columns', Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? `ü${i} 😀foo 中foo` : `中${i}`)).join('\n'), { encoding: 'utf-32' }, true],
  ['a long line of emoji and matches', `${'😀a foo '.repeat(5000)}\nfoo`, { encoding: 'utf-8' }, true],
  ['a line break in the search (text path)', 'foo\r\nbar foo\nbar', { search: 'foo\nbar', replace: 'x' }, false],
  ['a line break in the replacement (text path)', 'foo\r\nfoo', { replace: 'a\nb' }, false],
  ['UTF-16 LE (text path)', UTF16LE('foo\r\nfoo'), {}, false],
  ['binary: a NUL byte (text path refuses it)', Buffer.from('foo\0foo'), {}, false],
  ['not UTF-8 (text path refuses it)', Buffer.from([0x66, 0x6f, 0x6f, 0xff, 0x0a]), {}, false],
  ['a result over maxFileSize (text path skips it)', 'foo foo', { maxFileSize: 8, replace: 'longer' }, false],
];

describe('literalChange', () => {
  it.each(CASES)('%s: the byte path gives the text path reply', (_name, content, over) => {
    const p = file(content);
    const viaBytes = literalChange(job(p, over));
    const viaText = literalChange(job(p, over), true);
    expect(plain(viaBytes)).toEqual(plain(viaText));
  });

  it.each(CASES)('%s: the byte path is taken where the table says', (_name, content, over, bytePath) => {
    const buf = Buffer.isBuffer(content) ? content : Buffer.from(content);
    expect(bytesChange(job('unused', over), { buf, mode: 0o644, mtimeMs: 0, stamp: 's' }) !== undefined).toBe(bytePath);
  });

  it.each(CASES)('%s: the parts of a reply agree (bytes, digest, edits, inverse, TextEdits)', (_name, content, over) => {
    const p = file(content);
    const j = job(p, over);
    const released = literalChange(j);
    if (released.kind !== 'changed') return;
    const read = decodeText(readFileSync(p), 'f');
    const written = decodeText(Buffer.from(released.released.bytes), 'f');
    if (!read.ok || !written.ok) throw new Error('not text');
    const text = read.text;
    const newText = written.text;
    const r = released.released;
    // An oracle of its own where the search and replacement are plain: every occurrence replaced.
    if (!/[\r\n]/.test(j.search + j.replace) && !j.preserveCase) expect(newText).toBe(text.split(j.search).join(j.replace));
    const edits = released.edits;
    expect(applySpanEdits(text, edits)).toBe(newText);
    // (Touching matches make one edit: the count is of matches.)
    expect(released.replacements).toBe(text.replace(/\r\n?/g, '\n').split(j.search).length - 1);
    expect([r.oldLength, r.newLength]).toEqual([text.length, newText.length]);
    expect([written.encoding, written.bom]).toEqual([released.disk.encoding, released.disk.bom]);
    expect([read.encoding, read.bom]).toEqual([released.disk.encoding, released.disk.bom]);
    expect(r.writtenDigest).toBe(createHash('sha256').update(r.bytes).digest('hex'));
    expect(applySpanEdits(newText, r.inverse)).toBe(text);
    const encoding = (over.encoding ?? 'utf-16') as PositionEncoding;
    if (edits.length <= (over.maxResultEdits ?? 1000)) expect(r.textEdits).toEqual(toTextEdits(text, edits, encoding));
    else expect(r.textEdits).toBeUndefined();
  });

  it('a missing file and a folder answer without throwing', () => {
    expect(literalChange(job(path.join(dir, 'nope.txt')))).toEqual({ kind: 'missing' });
    const folder = literalChange(job(dir));
    expect(folder.kind).toBe('unreadable');
  });
});

describe('literalOutcome', () => {
  const target = (p: string) => ({ absPath: p, uri: pathToFileURL(p).href, relPath: path.basename(p), exists: true, folder: dir });

  it('a change without its texts: they throw when read, its bytes are what its temp file is written from', () => {
    const p = file('a foo\nb foo');
    const got = literalOutcome(target(p), literalChange(job(p)));
    expect(got.kind).toBe('changed');
    if (got.kind !== 'changed') return;
    const c = got.change;
    expect(() => c.snapshot.text).toThrow(/let go/);
    expect(() => c.snapshot.disk!.text).toThrow(/let go/);
    expect(() => c.newText).toThrow(/let go/);
    expect(Buffer.from(c.released!.toWrite!).toString()).toBe('a barbaz\nb barbaz');
    expect(c.snapshot.disk!.stamp).toMatch(/^\d+:\d+:11:/);
    expect(c.replacements).toBe(2);
  });

  it('a missing file is left as it is; an unreadable one is skipped with the reason; an unchanged one keeps no text', () => {
    const missing = path.join(dir, 'gone.txt');
    expect(literalOutcome(target(missing), literalChange(job(missing)))).toMatchObject({ kind: 'unchanged', snapshot: { source: 'missing' } });
    const binary = file(Buffer.from('foo\0'));
    expect(literalOutcome(target(binary), literalChange(job(binary)))).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/binary/) });
    const plainFile = file('nothing');
    expect(literalOutcome(target(plainFile), literalChange(job(plainFile)))).toMatchObject({ kind: 'unchanged', snapshot: { source: 'disk', text: '' } });
  });
});
