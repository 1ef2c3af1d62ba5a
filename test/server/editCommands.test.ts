// editls.edit / strReplace / proposeStrReplace through the real server over stdio: open buffers,
// closed files on disk, previews, refusals and stale versions, in several clients' shapes.
import { describe, expect, it } from 'vitest';
import {
  CAPS_EGLOT_19,
  CAPS_HELIX,
  CAPS_LSPMODE_8,
  CAPS_NEOVIM_07,
  CAPS_PLAIN_CHANGES,
  CAPS_VSCODE,
  type ClientOptions,
} from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

const UNICODE_LINE = 'xé😀 target here';

describe('open documents go through the editor', () => {
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['lsp-mode 8 (code points)', CAPS_LSPMODE_8, 'emacs'],
    ['Neovim 0.7', CAPS_NEOVIM_07, 'Neovim'],
    ['plain changes', CAPS_PLAIN_CHANGES, undefined],
  ] as const) {
    it(`edits a buffer on a line with é and an emoji — ${name}`, async () => {
      const ws = setup({ 'a.txt': `hello world\n${UNICODE_LINE}\n` });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      // a user edit first, after the emoji, so the server must track incremental changes in the right unit
      await client.type('a.txt', 'here', 'there 🎉');
      const result = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TARGET' });
      expect(client.bufferText('a.txt')).toBe('hello world\nxé😀 TARGET there 🎉\n');
      expect(ws.read('a.txt')).toBe(`hello world\n${UNICODE_LINE}\n`);
      expect(result).toMatchObject({ success: true, status: 'applied', applied: true, filesChanged: 1, replacements: 1 });
      expect(result.files[0]).toMatchObject({ path: 'a.txt', via: 'editor', created: false });
      expect(result.unifiedDiff).toContain('-xé😀 target there 🎉');
      expect(result.unifiedDiff).toContain('+xé😀 TARGET there 🎉');
      if (caps === CAPS_PLAIN_CHANGES) expect(result.edit.changes).toBeDefined();
      else expect(result.edit.documentChanges[0].textDocument.version).toBe(2);
    });
  }

  it('negotiates the position encoding as the contract says', async () => {
    const ws = setup({});
    const cases: [Partial<ClientOptions>, string][] = [
      [{ capabilities: CAPS_HELIX }, 'utf-8'],
      [{ capabilities: CAPS_VSCODE }, 'utf-16'],
      [{ capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' }, 'utf-16'],
      [{ capabilities: CAPS_LSPMODE_8, clientName: 'emacs' }, 'utf-32'],
      [{ capabilities: { general: { positionEncodings: ['utf-32', 'utf-16'] } }, clientName: 'emacs' }, 'utf-32'],
      [{ capabilities: { general: { positionEncodings: ['latin-1', 'utf-16'] as any } } }, 'utf-16'],
    ];
    for (const [opts, want] of cases) {
      const client = await start(ws, opts);
      expect(client.initializeResult.capabilities.positionEncoding).toBe(want);
    }
  });

  it('advertises exactly the registered commands', async () => {
    const ws = setup({});
    const client = await start(ws);
    expect(client.initializeResult.capabilities.executeCommandProvider?.commands).toEqual(
      expect.arrayContaining(['editls.edit', 'editls.strReplace', 'editls.proposeStrReplace']),
    );
  });

  it('keeps each command in order on one open buffer when fired concurrently', async () => {
    const words = Array.from({ length: 12 }, (_, i) => `w${i}`);
    const ws = setup({ 'a.txt': words.join('\n') + '\n' });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    await client.open('a.txt');
    const results = await Promise.all(
      words.map((w) => client.exec('editls.edit', { file_path: 'a.txt', old_string: `${w}\n`, new_string: `${w.toUpperCase()}\n` })),
    );
    expect(results.every((r) => r.success)).toBe(true);
    expect(client.bufferText('a.txt')).toBe(words.map((w) => w.toUpperCase()).join('\n') + '\n');
  });
});

describe('closed files are written to disk atomically', () => {
  it('keeps BOM, CRLF endings of untouched lines and the mode', async () => {
    const before = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\nthree\nfour', 'utf8')]);
    const ws = setup({ 'crlf.txt': before });
    const { chmodSync, statSync } = await import('node:fs');
    chmodSync(ws.file('crlf.txt'), 0o640);
    const client = await start(ws);
    const result = await client.exec('editls.edit', { file_path: 'crlf.txt', old_string: 'two\nthree', new_string: 'TWO\nand\nTHREE' });
    expect(result.files[0].via).toBe('disk');
    expect(ws.bytes('crlf.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\nTWO\r\nand\r\nTHREE\nfour', 'utf8')]));
    expect(statSync(ws.file('crlf.txt')).mode & 0o777).toBe(0o640);
    expect(client.buffers.size).toBe(0);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(ws.root).sort()).toEqual(['crlf.txt']);
  });

  it('keeps UTF-16 LE files UTF-16 LE', async () => {
    const text = 'α = 1\r\nβ = 2 😀\r\n';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const ws = setup({ 'u16.txt': bytes });
    const client = await start(ws);
    await client.exec('editls.edit', { file_path: 'u16.txt', old_string: 'β = 2', new_string: 'β = 3' });
    expect(ws.bytes('u16.txt')).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('β = 2', 'β = 3'), 'utf16le')]));
  });

  it('accepts absolute paths and file:// URIs inside the workspace', async () => {
    const ws = setup({ 'dir with space/é.txt': 'alpha\n' });
    const client = await start(ws);
    await client.exec('editls.edit', { file_path: ws.file('dir with space/é.txt'), old_string: 'alpha', new_string: 'beta' });
    await client.exec('editls.edit', { file_path: client.uri('dir with space/é.txt'), old_string: 'beta', new_string: 'gamma' });
    expect(ws.read('dir with space/é.txt')).toBe('gamma\n');
  });

  it('serialises concurrent commands on one closed file: no lost update', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} end`);
    const ws = setup({ 'many.txt': lines.join('\n') + '\n' });
    const client = await start(ws);
    await Promise.all(
      lines.map((l, i) =>
        i % 2 === 0
          ? client.exec('editls.edit', { file_path: 'many.txt', old_string: `${l}\n`, new_string: `LINE ${i} END\n` })
          : client.exec('editls.strReplace', { path: 'many.txt', replacements: [{ old: `${l}\n`, new: `LINE ${i} END\n` }] }),
      ),
    );
    expect(ws.read('many.txt')).toBe(lines.map((_, i) => `LINE ${i} END`).join('\n') + '\n');
  });

  it('sends closed files to the editor when closedFiles is "editor"', async () => {
    const ws = setup({ 'b.txt': 'b line one\n' });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, initializationOptions: { closedFiles: 'editor' } });
    const result = await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'one', new_string: 'ONE' });
    expect(result.files[0].via).toBe('editor');
    expect(result.edit.documentChanges[0].textDocument.version).toBeNull();
    expect(client.bufferText('b.txt')).toBe('b line ONE\n');
    expect(ws.read('b.txt')).toBe('b line one\n');
    expect(result.notes.join(' ')).toMatch(/save/);
  });
});

describe('creating files', () => {
  it('creates a missing file on disk by default, with folders', async () => {
    const ws = setup({});
    const client = await start(ws);
    const result = await client.exec('editls.edit', { file_path: 'src/new/file.ts', old_string: '', new_string: 'export const x = 1;\n' });
    expect(ws.read('src/new/file.ts')).toBe('export const x = 1;\n');
    expect(result.files[0]).toMatchObject({ created: true, via: 'disk' });
    expect(result.unifiedDiff).toContain('--- /dev/null');
  });

  it('refuses to create an existing file', async () => {
    const ws = setup({ 'exists.txt': 'keep me\n' });
    const client = await start(ws);
    const err = await client.execError('editls.edit', { file_path: 'exists.txt', old_string: '', new_string: 'x' });
    expect(err.data.kind).toBe('already_exists');
    expect(ws.read('exists.txt')).toBe('keep me\n');
  });

  it('sends CreateFile with ignoreIfExists in editor mode', async () => {
    const ws = setup({});
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07 });
    const result = await client.exec('editls.edit', { file_path: 'new.txt', old_string: '', new_string: 'created\n', apply: 'editor' });
    expect(result.edit.documentChanges[0]).toEqual({ kind: 'create', uri: client.uri('new.txt'), options: { ignoreIfExists: true } });
    expect(result.edit.documentChanges[1].textDocument.version).toBeNull();
    expect(client.bufferText('new.txt')).toBe('created\n');
  });

  it('gives a clear error when an editor without resource operations must create a file', async () => {
    const ws = setup({});
    const client = await start(ws, { capabilities: CAPS_EGLOT_19 });
    const err = await client.execError('editls.edit', { file_path: 'new.txt', old_string: '', new_string: 'x\n', apply: 'editor' });
    expect(err.data.kind).toBe('apply_rejected');
    expect(err.message).toMatch(/cannot create files/);
    // with closedFiles "editor" in auto mode editls creates it on disk itself
    const client2 = await start(ws, { capabilities: CAPS_EGLOT_19, initializationOptions: { closedFiles: 'editor' } });
    const r = await client2.exec('editls.edit', { file_path: 'new.txt', old_string: '', new_string: 'x\n' });
    expect(r.files[0].via).toBe('disk');
    expect(ws.read('new.txt')).toBe('x\n');
  });
});

describe('previews change nothing', () => {
  it('apply: "preview" and proposeStrReplace leave buffers and disk alone', async () => {
    const ws = setup({ 'a.txt': 'if (x) {\n  foo();\n}\n', 'b.txt': 'closed\n' });
    const client = await start(ws);
    await client.open('a.txt');
    const p1 = await client.exec('editls.proposeStrReplace', { path: 'a.txt', replacements: [{ old: 'foo();', new: 'bar();' }] });
    const p2 = await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'closed', new_string: 'open', apply: 'preview' });
    expect(p1).toMatchObject({ status: 'preview', applied: false, replacements: 1, matchedBy: 'exact' });
    expect(p1.files[0].via).toBeNull();
    expect(p1.unifiedDiff).toContain('+  bar();');
    expect(p1.edit.documentChanges[0].edits[0].newText).toBe('bar');
    expect(p2.status).toBe('preview');
    expect(client.bufferText('a.txt')).toBe('if (x) {\n  foo();\n}\n');
    expect(ws.read('b.txt')).toBe('closed\n');
    expect(client.appliedEdits).toHaveLength(0);
  });
});

describe('the editor refusing', () => {
  it('applied:false is apply_rejected and nothing reaches disk', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws, { applyBehavior: 'refuse' });
    await client.open('a.txt');
    const err = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(err.data.kind).toBe('apply_rejected');
    expect(err.code).toBe(-32803);
    expect(ws.read('a.txt')).toBe('alpha\n');
  });

  it("Eglot's JSON-RPC error about versions is stale", async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws, { capabilities: CAPS_EGLOT_19, applyBehavior: 'error' });
    await client.open('a.txt');
    const err = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(err.data.kind).toBe('stale');
    expect(ws.read('a.txt')).toBe('alpha\n');
  });

  it('a user edit that lands before the edit makes the versioned edit stale', async () => {
    const ws = setup({ 'a.txt': 'alpha\nbeta\n' });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    await client.open('a.txt');
    // The user types while the server's applyEdit is in flight; the client then checks versions strictly.
    client.applyBehavior = async (params) => {
      await client.type('a.txt', 'beta', 'BETA');
      client.applyBehavior = 'apply';
      const change = params.edit.documentChanges![0] as { textDocument: { version: number } };
      return change.textDocument.version === client.buffers.get(client.uri('a.txt'))!.version
        ? { applied: true }
        : { applied: false, failureReason: 'document has changed' };
    };
    const err = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' });
    expect(err.data.kind).toBe('stale');
    expect(client.bufferText('a.txt')).toBe('alpha\nBETA\n');
  });

  it("Neovim's silent skip (applied:true, buffer not changed by us) is reported stale", async () => {
    const ws = setup({ 'a.txt': 'alpha\nbeta\n' });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('a.txt');
    client.applyBehavior = async () => {
      await client.type('a.txt', 'beta', 'BETA'); // the pending user change, then the skipped edit
      client.applyBehavior = 'apply';
      return { applied: true };
    };
    const err = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' });
    expect(err.data.kind).toBe('stale');
    expect(err.data.actual).toBe('alpha\nBETA\n');
  });
});

describe('confirmation annotations', () => {
  it('confirm: true marks edits needsConfirmation when the client supports annotations', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws);
    await client.open('a.txt');
    const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta', confirm: 'true' });
    const ids = Object.keys(r.edit.changeAnnotations);
    expect(ids).toHaveLength(1);
    expect(r.edit.changeAnnotations[ids[0]!].needsConfirmation).toBe(true);
    expect(r.edit.documentChanges[0].edits[0].annotationId).toBe(ids[0]);
    const ws2 = setup({ 'a.txt': 'alpha\n' });
    const neovim = await start(ws2, { capabilities: CAPS_NEOVIM_07 });
    const r2 = await neovim.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta', confirm: true, apply: 'preview' });
    expect(r2.edit.changeAnnotations).toBeUndefined();
  });
});
