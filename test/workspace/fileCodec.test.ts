// Reading and encoding text files: BOM detection, strict decoding and byte-exact round trips; reads
// into a scratch buffer (SpareBuffer) reused between files.

import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { EditedText } from '../../server/core/text/editedText.js';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import { decodeText, encodePieces, encodeText, readTextFile, readWhole, readWholeSync } from '../../server/workspace/disk/fileCodec.js';
import { SpareBuffer, SPARE_KEPT_MS } from '../../server/workspace/spareBuffer.js';
import { closeSync, openSync } from 'node:fs';
import type { FileEncoding } from '../../server/commands/ports/files.js';

const MiB = 1024 * 1024;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'editls-codec-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SAMPLE = 'const s = "héllo 世界 😀";\r\n// 漢字 and 🎉\nlast line without newline';

function utf16be(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

const cases: { name: string; bytes: Buffer; encoding: FileEncoding; bom: boolean }[] = [
  { name: 'UTF-8', bytes: Buffer.from(SAMPLE, 'utf8'), encoding: 'utf-8', bom: false },
  { name: 'UTF-8 BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE, 'utf8')]), encoding: 'utf-8', bom: true },
  { name: 'UTF-16LE BOM', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SAMPLE, 'utf16le')]), encoding: 'utf-16le', bom: true },
  { name: 'UTF-16BE BOM', bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(SAMPLE)]), encoding: 'utf-16be', bom: true },
];

async function writeBytes(name: string, bytes: Buffer): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, bytes);
  return p;
}

describe('readTextFile / encodeText round trips', () => {
  for (const c of cases) {
    it(`decodes ${c.name} without the BOM, endings untouched, and re-encodes byte for byte`, async () => {
      const p = await writeBytes('f.txt', c.bytes);
      const r = await readTextFile(p, 'f.txt', 10 * MiB);
      if (!r.ok) throw new Error(r.message);
      expect(r.text).toBe(SAMPLE);
      expect(r.text.includes('\r\n')).toBe(true);
      expect(r.encoding).toBe(c.encoding);
      expect(r.bom).toBe(c.bom);
      expect(r.size).toBe(c.bytes.length);
      expect(typeof r.mtimeMs).toBe('number');
      expect(encodeText(r.text, r.encoding, r.bom).equals(c.bytes)).toBe(true);
    });
  }

  it('keeps a second BOM character as text so the round trip stays exact', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61]);
    const r = decodeText(bytes, 'x');
    if (!r.ok) throw new Error(r.message);
    expect(r.text).toBe('\ufeffa');
    expect(r.bom).toBe(true);
    expect(encodeText(r.text, r.encoding, r.bom).equals(bytes)).toBe(true);
  });

  it('round-trips empty files and BOM-only files', () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])]) {
      const r = decodeText(bytes, 'x');
      if (!r.ok) throw new Error(r.message);
      expect(r.text).toBe('');
      expect(encodeText(r.text, r.encoding, r.bom).equals(bytes)).toBe(true);
    }
  });

  it('round-trips every UTF-8 and UTF-16 encoding of random text (property)', () => {
    const alphabet = ['a', 'Z', ' ', '\t', '\r\n', '\n', '\r', 'é', 'ß', '世', '界', '😀', '🎉', '\ufeff', '\u2028', '\ud7ff', '\ue000', '\uffff'];
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 200; i++) {
      let text = '';
      for (let j = rand(40); j > 0; j--) text += alphabet[rand(alphabet.length)];
      for (const [encoding, bom] of [['utf-8', false], ['utf-8', true], ['utf-16le', true], ['utf-16be', true]] as const) {
        // A leading U+FEFF in BOM-less UTF-8 reads back as a BOM: such bytes never come out of decodeText.
        if (!bom && text.startsWith('\ufeff')) continue;
        const bytes = encodeText(text, encoding, bom);
        const r = decodeText(bytes, 'x');
        if (!r.ok) throw new Error(r.message);
        expect(r.text).toBe(text);
        expect(r.encoding).toBe(encoding);
        expect(encodeText(r.text, r.encoding, r.bom).equals(bytes)).toBe(true);
      }
    }
  });
});

describe('readTextFile failures', () => {
  it('reports a NUL byte in UTF-8 as binary_file', async () => {
    const p = await writeBytes('bin.dat', Buffer.from([0x61, 0x00, 0x62]));
    const r = await readTextFile(p, 'bin.dat', 10 * MiB);
    expect(r.ok ? 'ok' : r.kind).toBe('binary_file');
    if (!r.ok) expect(r.message).toContain('bin.dat');
  });

  it('reports a PNG header as binary_file', async () => {
    const p = await writeBytes('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const r = await readTextFile(p, 'img.png', 10 * MiB);
    expect(r.ok ? 'ok' : r.kind).toBe('binary_file');
  });

  it('reports invalid UTF-8 (0xC3 0x28) as unsupported_encoding', async () => {
    const p = await writeBytes('latin.txt', Buffer.from([0x61, 0xc3, 0x28, 0x62]));
    const r = await readTextFile(p, 'latin.txt', 10 * MiB);
    expect(r.ok ? 'ok' : r.kind).toBe('unsupported_encoding');
    if (!r.ok) expect(r.message).toContain('latin.txt');
  });

  it('reports a Latin-1 file as unsupported_encoding, naming the line of the first bad byte', () => {
    const r = decodeText(Buffer.from('ok line\r\nsecond é\nthird caf\xe9\n', 'latin1'), 'x.txt');
    expect(r.ok ? 'ok' : r.kind).toBe('unsupported_encoding');
    if (r.ok) return;
    expect(r.message).toContain('x.txt');
    expect(r.data).toMatchObject({ line: 2, byteOffset: 16 });
    const bom = decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\nb\nc\xe9', 'latin1')]), 'x.txt');
    expect(bom.ok ? undefined : bom.data).toMatchObject({ line: 3, byteOffset: 8 });
  });

  it('points at the offending byte for stray, overlong and cut-short sequences', () => {
    const offset = (bytes: number[]) => {
      const r = decodeText(Buffer.from(bytes), 'x');
      return r.ok ? undefined : r.data?.byteOffset;
    };
    expect(offset([0x61, 0x80, 0x62])).toBe(1); // stray continuation byte
    expect(offset([0x61, 0xe0, 0x80, 0x80])).toBe(1); // overlong
    expect(offset([0x61, 0xc0, 0x62])).toBe(1); // never-valid byte
    expect(offset([0x61, 0xe4, 0xb8, 0x62])).toBe(1); // 3-byte character cut short mid-text
    expect(offset([0x61, 0xc3, 0x28])).toBe(1);
  });

  it('points at a character cut short at the end of the file', () => {
    const r = decodeText(Buffer.from([0x61, 0x0a, 0x62, 0xe4, 0xb8]), 'cut.txt'); // "世" missing its last byte
    expect(r.ok ? undefined : r.data).toMatchObject({ line: 2, byteOffset: 3 });
  });

  it('reports odd-length UTF-16 and unpaired surrogates as unsupported_encoding', () => {
    const odd = decodeText(Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x62]), 'x');
    expect(odd.ok ? 'ok' : odd.kind).toBe('unsupported_encoding');
    const lone = decodeText(Buffer.from([0xfe, 0xff, 0xd8, 0x3d, 0x00, 0x61]), 'x');
    expect(lone.ok ? 'ok' : lone.kind).toBe('unsupported_encoding');
  });

  it('reports UTF-32 as unsupported_encoding and U+0000 in UTF-16 as binary_file', () => {
    const utf32 = decodeText(Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00]), 'x');
    expect(utf32.ok ? 'ok' : utf32.kind).toBe('unsupported_encoding');
    const nul = decodeText(Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x00, 0x00]), 'x');
    expect(nul.ok ? 'ok' : nul.kind).toBe('binary_file');
  });

  it('answers too_large for a sparse 100 MB file from its size alone', async () => {
    const p = path.join(dir, 'huge.log');
    await writeFile(p, '');
    await truncate(p, 100 * 1000 * 1000);
    // Unreadable content proves the check never reads: had it read, the NULs would say binary_file.
    const r = await readTextFile(p, 'huge.log', 10 * MiB);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('too_large');
    expect(r.message).toContain('huge.log');
    expect(r.message).toContain('100000000');
    expect(r.message).toContain(String(10 * MiB));
    expect(r.data).toMatchObject({ size: 100_000_000, maxFileSize: 10 * MiB });
  });

  it('accepts a file of exactly maxFileSize bytes', async () => {
    const p = await writeBytes('edge.txt', Buffer.from('abcd'));
    expect((await readTextFile(p, 'edge.txt', 4)).ok).toBe(true);
    expect(await readTextFile(p, 'edge.txt', 3)).toMatchObject({ ok: false, kind: 'too_large' });
  });

  it('answers file_not_found with how to create the file', async () => {
    const r = await readTextFile(path.join(dir, 'missing.ts'), 'src/missing.ts', 10 * MiB);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('file_not_found');
    expect(r.message).toContain('src/missing.ts');
    expect(r.message).toContain('editls.edit');
    expect(r.message).toContain('empty old_string');
    const deep = await readTextFile(path.join(dir, 'no', 'such', 'dir.ts'), 'no/such/dir.ts', 10 * MiB);
    expect(deep.ok ? 'ok' : deep.kind).toBe('file_not_found');
  });

  it('answers io_error for a directory', async () => {
    await mkdir(path.join(dir, 'sub'));
    const r = await readTextFile(path.join(dir, 'sub'), 'sub', 10 * MiB);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('io_error');
    expect(r.message).toContain('directory');
  });

  it('reports the permission bits as mode', async () => {
    const p = await writeBytes('script.sh', Buffer.from('#!/bin/sh\n'));
    await chmod(p, 0o754);
    const r = await readTextFile(p, 'script.sh', 10 * MiB);
    if (!r.ok) throw new Error(r.message);
    expect(r.mode).toBe(0o754);
  });

  it('does not block on a named pipe', async () => {
    const fifo = path.join(dir, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo on this platform
    }
    const r = await readTextFile(fifo, 'pipe', 10 * MiB);
    expect(r.ok ? 'ok' : r.kind).toBe('io_error');
  });
});

describe('readWhole', () => {
  it('reads exactly the file, also when it grew or shrank after fstat gave its size', async () => {
    const bytes = Buffer.from(SAMPLE.repeat(40_000), 'utf8'); // ~1.8 MB: more than one FileHandle.readFile chunk
    const p = await writeBytes('w.txt', bytes);
    const handle = await open(p, 'r');
    try {
      expect((await readWhole(handle, bytes.length)).equals(bytes)).toBe(true);
      expect((await readWhole(handle, bytes.length - 1000)).equals(bytes)).toBe(true); // grew by 1000 bytes
      expect((await readWhole(handle, bytes.length + 1000)).equals(bytes)).toBe(true); // shrank
      expect((await readWhole(handle, 0)).equals(bytes)).toBe(true);
    } finally {
      await handle.close();
    }
    const empty = await open(await writeBytes('e.txt', Buffer.alloc(0)), 'r');
    try {
      expect((await readWhole(empty, 0)).length).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

describe('readWholeSync into a scratch buffer (memory reused between reads)', () => {
  it('reads exactly the file, also when it grew or shrank after fstat gave its size; a larger buffer than maxKept is not kept', async () => {
    const bytes = Buffer.from(SAMPLE.repeat(4_000), 'utf8');
    const p = await writeBytes('s.txt', bytes);
    const scratch = new SpareBuffer(bytes.length + 10);
    const fd = openSync(p, 'r');
    try {
      for (const size of [bytes.length, bytes.length - 1000, bytes.length + 1000, 0, 1]) {
        expect(readWholeSync(fd, size, scratch).equals(bytes)).toBe(true);
      }
      // Kept: the largest buffer taken within maxKept (size + 1 bytes for the read that finds the end).
      expect(scratch.kept).toBe(bytes.length + 1);
      expect(readWholeSync(fd, bytes.length + 100, scratch).equals(bytes)).toBe(true);
      expect(scratch.kept).toBe(bytes.length + 1);
    } finally {
      closeSync(fd);
    }
  });

  it('readTextFile: each file read comes back whole, whatever was read into the scratch before', async () => {
    const texts = ['a'.repeat(5000) + '\n', 'héllo 😀\r\n'.repeat(300), 'short', '', SAMPLE.repeat(200)];
    const paths = await Promise.all(texts.map((t, i) => writeBytes(`t${i}.txt`, Buffer.from(t, 'utf8'))));
    const read = await Promise.all(paths.map((p) => readTextFile(p, p, 10 * MiB)));
    expect(read.map((r) => r.ok && r.text)).toEqual(texts);
    // Read one after another too, largest first: the later, shorter files are read into its buffer.
    for (const i of [4, 1, 0, 2, 3]) {
      const r = await readTextFile(paths[i]!, paths[i]!, 10 * MiB);
      expect(r.ok && r.text).toBe(texts[i]);
    }
  });
});

describe('SpareBuffer', () => {
  it('gives the kept buffer for a size it holds, a new one otherwise, and lets it go SPARE_KEPT_MS after it came back', () => {
    vi.useFakeTimers();
    try {
      const spare = new SpareBuffer();
      const first = spare.take(100);
      expect(spare.kept).toBeUndefined();
      spare.keep(first.buffer as ArrayBuffer);
      expect(spare.kept).toBe(100);
      const again = spare.take(60);
      expect(again.buffer).toBe(first.buffer);
      expect(again.length).toBe(60);
      spare.keep(again.buffer as ArrayBuffer);
      const bigger = spare.take(200);
      expect(bigger.buffer).not.toBe(first.buffer);
      // The kept one, too small, is still kept.
      expect(spare.kept).toBe(100);
      spare.keep(bigger.buffer as ArrayBuffer);
      expect(spare.kept).toBe(200);
      vi.advanceTimersByTime(SPARE_KEPT_MS - 1);
      expect(spare.kept).toBe(200);
      vi.advanceTimersByTime(1);
      expect(spare.kept).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('encodePieces (a large edit is written piece by piece, its new text never built)', () => {
  const token = fc.constantFrom('a', '\n', '\r\n', '😀', '中', 'é', '\uD83D', '\uDE00');
  const textArb = fc.array(token, { maxLength: 30 }).map((p) => p.join(''));
  it('gives the bytes encodeText gives for the edited text, in every encoding, with and without a BOM (property)', () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.record({ gap: fc.nat(5), len: fc.nat(4), text: textArb }), { maxLength: 5 }), (before, spec) => {
        const edits: SpanEdit[] = [];
        let cursor = 0;
        for (const e of spec) {
          const start = cursor + e.gap + (edits.length > 0 ? 1 : 0);
          if (start > before.length) break;
          edits.push({ start, end: Math.min(before.length, start + e.len), newText: e.text });
          cursor = Math.min(before.length, start + e.len);
        }
        const after = applySpanEdits(before, edits);
        const pieces = new EditedText(before, edits).pieces();
        for (const encoding of ['utf-8', 'utf-16le', 'utf-16be'] as FileEncoding[]) {
          for (const bom of [false, true]) expect(encodePieces(pieces, encoding, bom)).toEqual(encodeText(after, encoding, bom));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
