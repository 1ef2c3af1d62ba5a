// Previews over stdio: every preview gets a previewId and hint diagnostics on the ranges it would
// change (in the negotiated encoding), code actions apply or discard it, editls.applyPreview re-checks
// the text (stale otherwise), and a preview ends when applied, discarded or its document changes.
import { describe, expect, it } from 'vitest';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_NEOVIM_07, CAPS_VSCODE, TestClient, toPosition } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';
import { summaryLine } from '../../server/commands/fileEdit.js';

const { cleanups, setup, start } = serverFixture();

async function codeActions(client: TestClient, rel: string, range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, only?: string[]) {
  return (await client.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: client.uri(rel) },
    range,
    context: { diagnostics: [], ...(only ? { only } : {}) },
  })) as { title: string; kind: string; command: { command: string; arguments: unknown[] } }[];
}

async function runAction(client: TestClient, action: { command: { command: string; arguments: unknown[] } }) {
  return client.exec(action.command.command, action.command.arguments[0]);
}

const UNICODE = 'hello world\nxé😀 target here\n';

describe('a preview is remembered and shown', () => {
  for (const [name, caps, clientName] of [
    ['VS Code (utf-16)', CAPS_VSCODE, undefined],
    ['Helix (utf-8)', CAPS_HELIX, 'helix'],
    ['lsp-mode 8 (code points)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`returns a previewId and hint diagnostics on the exact range — ${name}`, async () => {
      const ws = setup({ 'a.txt': UNICODE });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TARGET', apply: 'preview' });
      expect(r).toMatchObject({ status: 'preview', applied: false, previewId: expect.any(String) });
      expect(client.bufferText('a.txt')).toBe(UNICODE);
      expect(ws.read('a.txt')).toBe(UNICODE);
      const diags = client.diagnostics.get(client.uri('a.txt'))!;
      expect(diags).toHaveLength(1);
      const at = UNICODE.indexOf("target");
      // Every letter of the word changes, so the minimal edit (and the diagnostic) covers the word.
      expect(diags[0]!.range).toEqual({ start: toPosition(UNICODE, at, client.encoding), end: toPosition(UNICODE, at + 6, client.encoding) });
      expect(diags[0]).toMatchObject({ severity: 4, source: 'editls', code: r.previewId });
      expect(diags[0]!.message).toContain('"target"');
      expect(r.message).toContain(`preview ${r.previewId}`);
    });
  }

  it('proposeStrReplace previews get ids too, and each preview its own', async () => {
    const ws = setup({ 'a.txt': 'one\ntwo\n' });
    const client = await start(ws);
    const p1 = await client.exec('editls.proposeStrReplace', { path: 'a.txt', replacements: [{ old: 'one', new: 'ONE' }] });
    const p2 = await client.exec('editls.proposeStrReplace', { path: 'a.txt', replacements: [{ old: 'two', new: 'TWO' }] });
    expect(p1.previewId).toBeTruthy();
    expect(p2.previewId).toBeTruthy();
    expect(p1.previewId).not.toBe(p2.previewId);
    expect(client.diagnostics.get(client.uri('a.txt'))).toHaveLength(2);
    expect(ws.read('a.txt')).toBe('one\ntwo\n');
  });
});

describe('applying and discarding', () => {
  it('the apply code action applies the preview in the editor and clears its diagnostics', async () => {
    const ws = setup({ 'a.txt': UNICODE });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('a.txt');
    const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TARGET', apply: 'preview' });
    const actions = await codeActions(client, 'a.txt');
    const titles = actions.map((a) => a.title);
    expect(titles).toContain(`editls: apply previewed edit ${r.previewId} (editls.edit, 1 change in a.txt)`);
    expect(titles).toContain(`editls: discard previewed edit ${r.previewId}`);
    expect(actions.filter((a) => a.title.includes('previewed')).every((a) => a.kind === 'refactor.rewrite')).toBe(true);
    const applied = await runAction(client, actions.find((a) => a.title.startsWith('editls: apply previewed'))!);
    expect(applied).toMatchObject({ status: 'applied', applied: true, previewIds: [r.previewId] });
    expect(applied.files[0].via).toBe('editor');
    expect(client.bufferText('a.txt')).toBe('hello world\nxé😀 TARGET here\n');
    expect(ws.read('a.txt')).toBe(UNICODE);
    expect(client.diagnostics.get(client.uri('a.txt'))).toEqual([]);
    expect((await client.execError('editls.applyPreview', { id: r.previewId })).data.kind).toBe('not_found');
  });

  it('discard forgets the preview and changes nothing', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws);
    const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta', apply: 'preview' });
    const d = await client.exec('editls.discardPreview', { id: r.previewId });
    expect(d).toMatchObject({ success: true, discarded: [r.previewId] });
    expect(client.diagnostics.get(client.uri('a.txt'))).toEqual([]);
    expect(ws.read('a.txt')).toBe('alpha\n');
    expect((await client.execError('editls.applyPreview', { id: r.previewId })).data.kind).toBe('not_found');
    expect((await client.execError('editls.discardPreview', { id: r.previewId })).data.kind).toBe('not_found');
  });

  it('a closed file is written to disk byte-exactly (BOM, CRLF, mixed endings kept)', async () => {
    const before = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\nthree\nfour', 'utf8')]);
    const ws = setup({ 'crlf.txt': before });
    const client = await start(ws);
    const p = await client.exec('editls.edit', { file_path: 'crlf.txt', old_string: 'two\nthree', new_string: 'TWO\nand\nTHREE', apply: 'preview' });
    expect(ws.bytes('crlf.txt')).toEqual(before);
    const r = await client.exec('editls.applyPreview', { id: p.previewId });
    expect(r.files[0].via).toBe('disk');
    expect(r.unifiedDiff).toBe(p.unifiedDiff);
    expect(ws.bytes('crlf.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\nTWO\r\nand\r\nTHREE\nfour', 'utf8')]));
  });

  it('a preview that creates a file creates it when applied', async () => {
    const ws = setup({});
    const client = await start(ws);
    const p = await client.exec('editls.edit', { file_path: 'new/file.txt', old_string: '', new_string: 'created 😀\n', apply: 'preview' });
    expect(client.diagnostics.get(client.uri('new/file.txt'))).toHaveLength(1);
    await client.exec('editls.applyPreview', { id: p.previewId });
    expect(ws.read('new/file.txt')).toBe('created 😀\n');
  });

  it('apply all previews in a file combines them; overlapping ones are refused and nothing changes', async () => {
    const ws = setup({ 'a.txt': 'one\ntwo\nthree\n' });
    const client = await start(ws);
    await client.open('a.txt');
    const p1 = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'one', new_string: '1', apply: 'preview' });
    const p3 = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'three', new_string: '3', apply: 'preview' });
    const all = (await codeActions(client, 'a.txt')).find((a) => a.kind === 'source.applyPreviews')!;
    expect(all.title).toBe('editls: apply all 2 previews in this file');
    const r = await runAction(client, all);
    expect(r.previewIds).toEqual([p1.previewId, p3.previewId]);
    expect(r.replacements).toBe(2);
    expect(client.bufferText('a.txt')).toBe('1\ntwo\n3\n');

    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'two', new_string: 'zwei', apply: 'preview' });
    await client.exec('editls.strReplace', { path: 'a.txt', replacements: [{ old: 'two', new: 'deux' }], apply: 'preview' });
    const err = await client.execError('editls.applyPreview', { path: 'a.txt' });
    expect(err.data.kind).toBe('ambiguous');
    expect(client.bufferText('a.txt')).toBe('1\ntwo\n3\n');
  });
});

describe('a preview ends when its document changes', () => {
  it('a user edit in the buffer drops it and clears its diagnostics', async () => {
    const ws = setup({ 'a.txt': 'alpha\nbeta\n' });
    const client = await start(ws, { capabilities: CAPS_HELIX });
    await client.open('a.txt');
    const p = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA', apply: 'preview' });
    await client.type('a.txt', 'beta', 'BETA');
    const err = await client.execError('editls.applyPreview', { id: p.previewId });
    expect(err.data.kind).toBe('not_found');
    expect(client.diagnostics.get(client.uri('a.txt'))).toEqual([]);
    expect(client.bufferText('a.txt')).toBe('alpha\nBETA\n');
  });

  it('opening the previewed file unchanged keeps it; another editls edit of the file drops it', async () => {
    const ws = setup({ 'a.txt': 'alpha\nbeta\n', 'b.txt': 'bee\n' });
    const client = await start(ws);
    const p = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA', apply: 'preview' });
    await client.open('a.txt');
    expect((await codeActions(client, 'a.txt')).some((a) => a.title.includes(p.previewId))).toBe(true);
    await client.close('a.txt');
    const q = await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'bee', new_string: 'BEE', apply: 'preview' });
    await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'bee', new_string: 'wasp' });
    expect((await client.execError('editls.applyPreview', { id: q.previewId })).data.kind).toBe('not_found');
    await client.exec('editls.applyPreview', { id: p.previewId });
    expect(ws.read('a.txt')).toBe('ALPHA\nbeta\n');
  });

  it('a closed file changed on disk behind editls makes the preview stale; the disk change is kept', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws);
    const p = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA', apply: 'preview' });
    ws.write('a.txt', 'alpha\nadded by someone\n');
    const err = await client.execError('editls.applyPreview', { id: p.previewId });
    expect(err.data.kind).toBe('stale');
    expect(err.data.actual).toBe('alpha\nadded by someone\n');
    expect(ws.read('a.txt')).toBe('alpha\nadded by someone\n');
    expect((await client.execError('editls.applyPreview', { id: p.previewId })).data.kind).toBe('not_found');
  });
});

describe('arguments', () => {
  it('needs exactly one of id and path', async () => {
    const ws = setup({ 'a.txt': 'x\n' });
    const client = await start(ws);
    for (const args of [{}, { id: 'p1', path: 'a.txt' }]) {
      const err = await client.execError('editls.applyPreview', args);
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/either id .* or path/);
    }
    expect((await client.execError('editls.discardPreview', { path: 'a.txt' })).data.kind).toBe('not_found');
  });
});

describe('summary messages', () => {
  it('with summary "message" every command sends one line; failures too', async () => {
    const ws = setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const client = await start(ws, { initializationOptions: { summary: 'message' } });
    await client.open('a.txt');
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' });
    await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' });
    const p = await client.exec('editls.edit', { file_path: 'b.txt', old_string: 'BETA', new_string: 'b', apply: 'preview' });
    await client.execError('editls.edit', { file_path: 'b.txt', old_string: 'nothing', new_string: 'x' });
    await client.exec('editls.discardPreview', { id: p.previewId });
    expect(client.messages).toEqual([
      'editls.edit: 1 replacement in a.txt; changed in the editor (unsaved)',
      'editls.edit: 1 replacement in b.txt; written to disk',
      `editls.edit: preview ${p.previewId}: 1 replacement in b.txt; nothing changed yet (apply with editls.applyPreview or the code action)`,
      expect.stringMatching(/^editls\.edit failed \(not_found\): old_string not found in b\.txt/),
      `editls.discardPreview: discarded preview ${p.previewId}; nothing changed`,
    ]);
    expect(client.messages.every((m) => !m.includes('\n'))).toBe(true);
  });

  it('multi-file results say how many files went where', () => {
    const file = (path: string, via: 'editor' | 'disk' | null, replacements = 1) => ({ path, uri: '', replacements, created: false, via, diff: '' });
    expect(summaryLine('editls.searchAndReplace', [file('a.txt', 'disk', 2), file('b.txt', 'editor')], undefined)).toBe(
      'editls.searchAndReplace: 3 replacements in 2 files; 1 file written to disk, 1 file changed in the editor (unsaved)',
    );
    expect(summaryLine('x', [file('a.txt', 'disk'), file('b.txt', 'disk')], undefined)).toBe('x: 2 replacements in 2 files; 2 files written to disk');
    expect(summaryLine('x', [file('a.txt', null, 0)], 'p9')).toBe('x: preview p9: 0 replacements in a.txt; nothing changed yet (apply with editls.applyPreview or the code action)');
    expect(summaryLine('x', [{ ...file('n.txt', 'disk'), created: true }], undefined)).toBe('x: created n.txt; written to disk');
    expect(summaryLine('x', [file('a.txt', 'editor', 3)], undefined, ['line trimmed', 'lines trimmed'])).toBe('x: 3 lines trimmed in a.txt; changed in the editor (unsaved)');
  });
});
