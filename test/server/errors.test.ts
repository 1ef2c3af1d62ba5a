// Every error kind of the foundation commands over stdio, and bad input: InvalidParams with the
// schema issues, the server still serving, and files byte-identical afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symlinkSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';

let ws: TempWorkspace;
let outside: TempWorkspace;
let client: TestClient;
const INITIAL: Record<string, string | Buffer> = {
  'a.ts': 'function alpha() {\n  return 1;\n}\nfunction beta() {\n  return 1;\n}\n',
  'dup.txt': 'x\nfoo\ny\nfoo\nz\nfoo\n',
  'bin.dat': Buffer.from([0x68, 0x69, 0x00, 0x01]),
  'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'crlf.txt': 'one\r\ntwo\r\n',
};

beforeAll(async () => {
  ws = tempWorkspace(INITIAL);
  outside = tempWorkspace({ 'secret.txt': 'secret\n' }, 'editls-outside-');
  symlinkSync(outside.file('secret.txt'), ws.file('link-out.txt'));
  symlinkSync(outside.root, ws.file('dir-out'));
  mkdirSync(ws.file('folder'));
  writeFileSync(ws.file('big.txt'), '');
  truncateSync(ws.file('big.txt'), 11 * 1024 * 1024);
  client = await TestClient.start({ root: ws.root });
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
  outside.cleanup();
});

function expectUntouched() {
  for (const [rel, content] of Object.entries(INITIAL)) expect(ws.bytes(rel)).toEqual(Buffer.from(content as never));
  expect(outside.read('secret.txt')).toBe('secret\n');
}

describe('error kinds', () => {
  const cases: [string, string, Record<string, unknown>, string, RegExp?][] = [
    ['file_not_found', 'editls.edit', { file_path: 'missing.ts', old_string: 'a', new_string: 'b' }, 'file_not_found', /missing\.ts/],
    ['already_exists', 'editls.edit', { file_path: 'a.ts', old_string: '', new_string: 'b' }, 'already_exists', /a\.ts/],
    ['outside: ..', 'editls.edit', { file_path: '../x.txt', old_string: 'a', new_string: 'b' }, 'outside_workspace'],
    ['outside: absolute', 'editls.edit', { file_path: path.join(os.tmpdir(), 'elsewhere.txt'), old_string: '', new_string: 'b' }, 'outside_workspace'],
    ['outside: symlinked file', 'editls.edit', { file_path: 'link-out.txt', old_string: 'secret', new_string: 'leak' }, 'outside_workspace'],
    ['outside: symlinked folder', 'editls.edit', { file_path: 'dir-out/secret.txt', old_string: 'secret', new_string: 'leak' }, 'outside_workspace'],
    ['outside: create through symlinked folder', 'editls.edit', { file_path: 'dir-out/new.txt', old_string: '', new_string: 'leak' }, 'outside_workspace'],
    ['not_found', 'editls.edit', { file_path: 'a.ts', old_string: 'function alpah() {\n  return 1;', new_string: 'x' }, 'not_found', /a\.ts/],
    ['ambiguous', 'editls.edit', { file_path: 'dup.txt', old_string: 'foo', new_string: 'bar' }, 'ambiguous', /3 times/],
    ['no_change', 'editls.edit', { file_path: 'crlf.txt', old_string: 'one\r\ntwo', new_string: 'one\ntwo' }, 'no_change'],
    ['binary_file', 'editls.edit', { file_path: 'bin.dat', old_string: 'hi', new_string: 'ho' }, 'binary_file'],
    ['unsupported_encoding', 'editls.edit', { file_path: 'latin1.txt', old_string: 'caf', new_string: 'x' }, 'unsupported_encoding'],
    ['too_large', 'editls.edit', { file_path: 'big.txt', old_string: 'a', new_string: 'b' }, 'too_large'],
    ['io_error: a folder', 'editls.edit', { file_path: 'folder', old_string: 'a', new_string: 'b' }, 'io_error'],
    ['strReplace all failing', 'editls.strReplace', { path: 'a.ts', replacements: [{ old: 'nothing like it', new: 'x' }] }, 'not_found'],
    ['strReplace ambiguous', 'editls.strReplace', { path: 'a.ts', replacements: [{ old: 'return 1;', new: 'return 2;' }] }, 'ambiguous'],
    ['strReplace whitespace-only old', 'editls.strReplace', { path: 'a.ts', replacements: [{ old: '  \n ', new: 'x' }] }, 'not_found'],
    ['strReplace atomic', 'editls.strReplace', { path: 'a.ts', atomic: true, replacements: [{ old: 'alpha', new: 'ALPHA' }, { old: 'gamma', new: 'x' }] }, 'not_found'],
  ];
  for (const [name, command, args, kind, message] of cases) {
    it(`${name} -> ${kind}`, async () => {
      const err = await client.execError(command, args);
      expect(err.data.kind).toBe(kind);
      expect(err.code).toBe(-32803);
      expect(err.message).not.toContain('\n');
      if (message) expect(err.message).toMatch(message);
      expectUntouched();
    });
  }

  it('not_found carries the closest candidate', async () => {
    const err = await client.execError('editls.edit', { file_path: 'a.ts', old_string: 'function alpah() {\n  return 1;', new_string: 'x' });
    expect(err.data.closest).toMatchObject({ startLine: 1, endLine: 2 });
    expect(err.data.closest.text).toContain('function alpha()');
    expect(err.data.closest.similarity).toBeGreaterThan(0.8);
  });

  it('ambiguous carries the count and the lines', async () => {
    const err = await client.execError('editls.edit', { file_path: 'dup.txt', old_string: 'foo', new_string: 'bar' });
    expect(err.data).toMatchObject({ count: 3, lines: [2, 4, 6] });
  });
});

describe('bad input is InvalidParams with the issues', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['unknown command', 'editls.nope', {}, /unknown command/],
    ['no arguments: an empty object, so the missing fields are named', 'editls.edit', undefined, /file_path: .*old_string/],
    ['array argument', 'editls.edit', ['a.ts'], /object/],
    ['string argument', 'editls.edit', 'a.ts', /object/],
    ['missing fields', 'editls.edit', { file_path: 'a.ts' }, /old_string/],
    ['wrong types', 'editls.edit', { file_path: 'a.ts', old_string: 1, new_string: null }, /old_string/],
    ['bad boolean', 'editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: 'yes' }, /replace_all/],
    ['unknown field', 'editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replaceAll: true }, /replaceAll/],
    ['empty path', 'editls.edit', { file_path: '', old_string: 'a', new_string: 'b' }, /file_path/],
    ['bad apply', 'editls.edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b', apply: 'now' }, /apply/],
    ['replacements not array', 'editls.strReplace', { path: 'a.ts', replacements: 'x' }, /replacements/],
    ['empty replacements', 'editls.strReplace', { path: 'a.ts', replacements: [] }, /replacements/],
    ['replacement missing new', 'editls.strReplace', { path: 'a.ts', replacements: [{ old: 'a' }] }, /replacements\.0\.new/],
    ['lone surrogate in new_string', 'editls.edit', { file_path: 'a.ts', old_string: 'alpha', new_string: 'x\ud83d' }, /new_string: contains an unpaired surrogate/],
    ['lone surrogate in a replacement', 'editls.strReplace', { path: 'a.ts', replacements: [{ old: 'alpha', new: '\ude00' }] }, /unpaired surrogate/],
  ];
  for (const [name, command, args, message] of cases) {
    it(name, async () => {
      let error: any;
      try {
        await client.conn.sendRequest('workspace/executeCommand', { command, arguments: args === undefined ? [] : [args] });
      } catch (e) {
        error = e;
      }
      expect(error?.code).toBe(-32602);
      expect(error.data.kind).toBe('invalid_args');
      expect(error.message).toMatch(message);
      if (command !== 'editls.nope' && typeof args === 'object' && args !== null && !Array.isArray(args)) expect(error.data.issues.length).toBeGreaterThan(0);
      expectUntouched();
    });
  }

  it('still serves after all of that', async () => {
    const r = await client.exec('editls.edit', { file_path: 'a.ts', old_string: 'alpha', new_string: 'alpha', apply: 'preview' }).catch((e) => e);
    expect(r.data.kind).toBe('no_change');
  });
});
