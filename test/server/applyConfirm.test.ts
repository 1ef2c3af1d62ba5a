// Confirming an edit the editor reported applied: Neovim 0.7 reports the first change of a
// multi-edit WorkspaceEdit at once and the rest 150 ms later, a user keystroke may share the
// didChange, and an editor may answer applied:true and change nothing. The result must say what
// happened, and never "run it again" for an edit that landed.
import { describe, expect, it } from 'vitest';
import { CAPS_NEOVIM_07 } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();
const TEXT = 'one q\ntwo q\nthree q\nfour q\nfive q\nsix\n';
const DONE = 'one Y\ntwo Y\nthree Y\nfour Y\nfive Y\nsix\n';
const SAR = { path: 'a.txt', search: 'q', replace: 'Y' };

describe('confirmation of an applied edit (Neovim 0.7 split didChange)', () => {
  it('a 5-match searchAndReplace reported in two didChanges succeeds every time, buffer right', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim' });
    await client.open('a.txt');
    client.applyBehavior = (params) => client.applyLikeNeovim(params, { debounceMs: 150 });
    for (let run = 0; run < 5; run++) {
      const forward = run % 2 === 0;
      const r = await client.exec('editls.searchAndReplace', forward ? SAR : { path: 'a.txt', search: 'Y', replace: 'q' });
      expect(r).toMatchObject({ success: true, status: 'applied', replacements: 5 });
      expect(r.notes).toBeUndefined();
      expect(client.bufferText('a.txt')).toBe(forward ? DONE : TEXT);
    }
    expect(ws.read('a.txt')).toBe(TEXT);
  });

  it('a user keystroke in the same didChange: applied, with a note naming the other change (not stale)', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim', initializationOptions: { applyConfirmTimeoutMs: 600 } });
    await client.open('a.txt');
    client.applyBehavior = (params) => client.applyLikeNeovim(params, { debounceMs: 150, typing: { find: 'six', replacement: 'six typed' } });
    const r = await client.exec('editls.searchAndReplace', SAR);
    expect(r).toMatchObject({ success: true, status: 'applied', replacements: 5 });
    expect(r.notes).toEqual(['applied, but a.txt also changed in the editor meanwhile (line 6); check the buffer']);
    expect(client.bufferText('a.txt')).toBe(DONE.replace('six', 'six typed'));
    // and editls's copy is the buffer: the next command works on it without a stale
    client.applyBehavior = 'apply';
    await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'six typed', new_string: 'SIX' });
    expect(client.bufferText('a.txt')).toBe(DONE.replace('six', 'SIX'));
  });

  it('an edit Neovim skipped as stale (buffer newer, still applied:true): stale, "not applied"', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim', initializationOptions: { applyConfirmTimeoutMs: 400 } });
    await client.open('a.txt');
    client.applyBehavior = async (params) => {
      await client.type('a.txt', 'six', 'six typed'); // the user's keystroke reaches Neovim first
      return client.applyLikeNeovim(params);
    };
    const err = await client.execError('editls.searchAndReplace', SAR);
    expect(err.data.kind).toBe('stale');
    expect(err.message).toBe('the editor did not apply the edit to a.txt: its buffer changed first and the edit is not in it; nothing was changed, run the command again');
    expect(client.bufferText('a.txt')).toBe(TEXT.replace('six', 'six typed'));
  });

  it('applied:true and no change at all: success with a note, not a plain success', async () => {
    const ws = setup({ 'a.txt': TEXT });
    const client = await start(ws, { capabilities: CAPS_NEOVIM_07, clientName: 'Neovim', initializationOptions: { applyConfirmTimeoutMs: 300 } });
    await client.open('a.txt');
    client.applyBehavior = () => ({ applied: true });
    const r = await client.exec('editls.searchAndReplace', SAR);
    expect(r.notes).toEqual(['the editor reported the edit to a.txt applied, but editls has not seen the buffer change within 0.3 s; check the buffer (it may still report the change)']);
    expect(client.bufferText('a.txt')).toBe(TEXT);
  });
});
