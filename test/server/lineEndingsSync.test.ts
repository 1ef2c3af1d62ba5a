// Editors that split lines on \n only (Neovim with fileformat=unix, Emacs with a -unix coding
// system: how both open a file with mixed endings) hold the \r of a CRLF as the line's last
// character and send didChange positions just past it. editls's copy must follow them exactly, or
// normalizeLineEndings desynchronises it (next edit stale, the action still offered after saving).
import { describe, expect, it } from 'vitest';
import { CAPS_LSPMODE_8, CAPS_NEOVIM_07, CAPS_VSCODE, type TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();

/** A didChange as Neovim/Emacs send it, mirrored in the scripted client's buffer. */
async function rawChange(client: TestClient, rel: string, range: [number, number, number, number], text: string, after: string): Promise<void> {
  const uri = client.uri(rel);
  const buf = client.buffers.get(uri)!;
  buf.version += 1;
  buf.text = after;
  await client.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: buf.version },
    contentChanges: [{ range: { start: { line: range[0], character: range[1] }, end: { line: range[2], character: range[3] } }, text }],
  });
}

async function actionTitles(client: TestClient, rel: string): Promise<string[]> {
  const actions = (await client.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: client.uri(rel) },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [] },
  })) as { title: string }[];
  return actions.map((a) => a.title);
}

describe('didChange positions past the \\r of a CRLF', () => {
  it('Neovim (utf-16): deleting the \\r of a CRLF line keeps the copy exact; no action offered afterwards', async () => {
    const ws = setup({ 'm.txt': 'one\r\ntwo\nthree\nfour\n' });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('m.txt');
    expect((await actionTitles(client, 'm.txt')).some((t) => t.startsWith('editls: normalise line endings'))).toBe(true);
    // Neovim's line 0 is "one\r": the \r is character 3, so the deletion is (0,3)-(0,4)
    await rawChange(client, 'm.txt', [0, 3, 0, 4], '', 'one\ntwo\nthree\nfour\n');
    expect(await actionTitles(client, 'm.txt')).not.toContainEqual(expect.stringMatching(/normalise line endings/));
    const again = await client.execError('editls.normalizeLineEndings', { path: 'm.txt' });
    expect(again.data.kind).toBe('no_change');
    const r = await client.exec('editls.edit', { file_path: 'm.txt', old_string: 'one\ntwo', new_string: 'ONE\ntwo' });
    expect(r).toMatchObject({ success: true });
    expect(r.notes).toBeUndefined();
    expect(client.bufferText('m.txt')).toBe('ONE\ntwo\nthree\nfour\n');
  });

  it('lsp-mode (code points): a change ending just past the \\r on a line with é and an emoji', async () => {
    const ws = setup({ 'm.txt': 'xé😀\r\ntwo\nthree\n' });
    const client = await start(ws, { capabilities: CAPS_LSPMODE_8, clientName: 'emacs' });
    await client.open('m.txt');
    // "xé😀\r" is 4 code points: replace "😀\r" (characters 2-4) with "!"
    await rawChange(client, 'm.txt', [0, 2, 0, 4], '!', 'xé!\ntwo\nthree\n');
    const r = await client.exec('editls.edit', { file_path: 'm.txt', old_string: 'xé!\ntwo', new_string: 'XÉ!\ntwo' });
    expect(r).toMatchObject({ success: true });
    expect(client.bufferText('m.txt')).toBe('XÉ!\ntwo\nthree\n');
  });

  it('a change starting between \\r and \\n (inserting before the \\n) and a position far past the end (clamped before the \\r; the lone \\r now breaks the line)', async () => {
    const ws = setup({ 'm.txt': 'one\r\ntwo\r\n' });
    const client = await start(ws, { capabilities: CAPS_VSCODE });
    await client.open('m.txt');
    await rawChange(client, 'm.txt', [0, 4, 0, 4], 'X', 'one\rX\ntwo\r\n');
    await rawChange(client, 'm.txt', [2, 99, 2, 99], 'Y', 'one\rX\ntwoY\r\n');
    const r = await client.exec('editls.edit', { file_path: 'm.txt', old_string: 'twoY', new_string: 'TWO' });
    expect(r.unifiedDiff).toContain('-twoY');
    expect(client.bufferText('m.txt')).toBe('one\rX\nTWO\r\n');
  });
});

describe('clients that rewrite carriage returns in edits', () => {
  for (const [name, caps, clientName] of [
    ['Neovim 0.7 (\\r becomes a line break)', CAPS_NEOVIM_07, 'Neovim'],
    ['lsp-mode 8 (\\r dropped)', CAPS_LSPMODE_8, 'emacs'],
  ] as const) {
    it(`${name}: normalising to CRLF is refused, buffer unchanged`, async () => {
      const ws = setup({ 'm.txt': 'one\r\ntwo\r\nthree\r\nfour\n' });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('m.txt');
      const err = await client.execError('editls.normalizeLineEndings', { path: 'm.txt' });
      expect(err.data.kind).toBe('apply_rejected');
      expect(err.message).toMatch(new RegExp(`^this editor \\(${clientName}\\) .* the edit to m\\.txt needs one, so it cannot be applied exactly; nothing was changed`));
      expect(client.bufferText('m.txt')).toBe('one\r\ntwo\r\nthree\r\nfour\n');
      expect(client.appliedEdits).toHaveLength(0);
    });
  }
  it('Neovim in a buffer with CRLF everywhere (fileformat=dos): a multi-line edit with \\r\\n still applies', async () => {
    const ws = setup({ 'd.txt': 'one\r\ntwo\r\n' });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('d.txt');
    await client.exec('editls.edit', { file_path: 'd.txt', old_string: 'one\r\ntwo', new_string: 'ONE\r\nTWO' });
    expect(client.bufferText('d.txt')).toBe('ONE\r\nTWO\r\n');
  });
});
