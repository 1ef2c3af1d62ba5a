// The result's `edit` over stdio: a change written to disk with more than `maxResultEdits` TextEdits
// has `editOmitted` instead (the disk text is still exact), while previews and edits applied through
// the editor always carry the full WorkspaceEdit — for every edit command (edit, strReplace,
// searchAndReplace, applyPreview), on BOM + CRLF + mixed-ending text with emoji and no final newline.
import { describe, expect, it } from 'vitest';
import { applyWorkspaceEdit, CAPS_HELIX, CAPS_LSPMODE_8, CAPS_UTF32, CAPS_VSCODE, TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { cleanups, setup, start } = serverFixture();

const BOM = '\uFEFF';
const MATCHES = 2000;
const REASON = 'written to disk; more than maxResultEdits TextEdits';

/** 2,000 lines holding "target" once each: CRLF (dominant) with some LF lines, emoji, a tab, no final newline. */
function body(): string {
  const lines: string[] = [];
  for (let i = 0; i < MATCHES; i++) lines.push(`${i}\t😀 中 target 𠀀${i % 7 === 0 ? '\n' : '\r\n'}`);
  return lines.join('') + 'end';
}
/** What every command below makes of body(): each "target" becomes two lines broken with the dominant CRLF. */
const expected = (text: string) => text.replaceAll('target', 'TAR\r\nGET');


const textEdits = (edit: any): number => edit.documentChanges.reduce((n: number, c: any) => n + (c.edits?.length ?? 0), 0);

const COMMANDS: [string, (path: string) => Record<string, unknown>][] = [
  ['editls.edit replace_all', (path) => ({ command: 'editls.edit', file_path: path, old_string: 'target', new_string: 'TAR\nGET', replace_all: true })],
  ['editls.searchAndReplace', (path) => ({ command: 'editls.searchAndReplace', path, search: '\\btarget(?= 𠀀)', replace: 'TAR\nGET', use_regex: true, ignore_case: true })],
  ['editls.strReplace allowMultiple', (path) => ({ command: 'editls.strReplace', path, replacements: [{ old: 'target', new: 'TAR\nGET', allowMultiple: true }] })],
];

async function run(client: TestClient, make: (path: string) => Record<string, unknown>, path: string, extra: Record<string, unknown> = {}) {
  const { command, ...args } = make(path);
  return client.exec(command as string, { ...args, ...extra });
}

describe('a closed file written to disk with more than maxResultEdits TextEdits', () => {
  for (const [name, make] of COMMANDS) {
    it(`${name}: 2,000 matches -> no edit, editOmitted, exact disk text (BOM kept)`, async () => {
      const ws = setup({ 'a.txt': BOM + body() });
      const client = await start(ws);
      const r = await run(client, make, 'a.txt');
      expect(ws.read('a.txt')).toBe(BOM + expected(body()));
      expect(r).toMatchObject({ success: true, status: 'applied', applied: true, filesChanged: 1, replacements: MATCHES });
      expect(r.files[0]).toMatchObject({ path: 'a.txt', via: 'disk', replacements: MATCHES });
      expect('edit' in r).toBe(false);
      expect(r.editOmitted).toEqual({ textEdits: MATCHES, reason: REASON });
      expect(r.unifiedDiff).toContain('+GET 𠀀');
      expect(client.appliedEdits).toHaveLength(0);
    });
  }

  it('the same as a preview carries the full edit, which reproduces the text; applying the preview omits it', async () => {
    const ws = setup({ 'a.txt': BOM + body() });
    const client = await start(ws);
    const preview = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TAR\nGET', replace_all: true, apply: 'preview' });
    expect(preview.status).toBe('preview');
    expect(preview.editOmitted).toBeUndefined();
    expect(textEdits(preview.edit)).toBe(MATCHES);
    expect(applyWorkspaceEdit(body(), preview.edit, client.encoding)).toBe(expected(body()));
    expect(ws.read('a.txt')).toBe(BOM + body());
    const applied = await client.exec('editls.applyPreview', { id: preview.previewId });
    expect(ws.read('a.txt')).toBe(BOM + expected(body()));
    expect('edit' in applied).toBe(false);
    expect(applied.editOmitted).toEqual({ textEdits: MATCHES, reason: REASON });
  });

  it('at most maxResultEdits TextEdits: the edit is kept (the setting counts TextEdits, "more than" omits)', async () => {
    const ws = setup({ 'a.txt': body(), 'b.txt': body() });
    const client = await start(ws, { initializationOptions: { maxResultEdits: MATCHES } });
    const kept = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TAR\nGET', replace_all: true });
    expect(kept.editOmitted).toBeUndefined();
    expect(textEdits(kept.edit)).toBe(MATCHES);
    expect(applyWorkspaceEdit(body(), kept.edit, client.encoding)).toBe(ws.read('a.txt'));
    const zero = await start(ws, { initializationOptions: { maxResultEdits: 0 } });
    const one = await zero.exec('editls.edit', { file_path: 'b.txt', old_string: 'end', new_string: 'END' });
    expect(one.editOmitted).toEqual({ textEdits: 1, reason: REASON });
    expect(ws.read('b.txt')).toBe(body().replace(/end$/, 'END'));
  });
});

describe('edits applied through the editor always carry the full edit', () => {
  for (const [label, caps, clientName] of [
    ['utf-8 (Helix)', CAPS_HELIX, 'helix'],
    ['utf-16 (VS Code)', CAPS_VSCODE, undefined],
    // negotiated: lsp-mode itself (clientInfo "emacs") drops \r from edits, and these are CRLF edits
    ['utf-32', CAPS_UTF32, undefined],
  ] as const) {
    it(`an open buffer with 2,000 matches — ${label}`, async () => {
      const ws = setup({ 'a.txt': BOM + body() });
      const client = await start(ws, { capabilities: caps, clientName });
      await client.open('a.txt');
      const r = await client.exec('editls.edit', { file_path: 'a.txt', old_string: 'target', new_string: 'TAR\nGET', replace_all: true });
      expect(r.files[0].via).toBe('editor');
      expect(r.editOmitted).toBeUndefined();
      expect(textEdits(r.edit)).toBe(MATCHES);
      expect(client.bufferText('a.txt')).toBe(expected(body()));
      expect(ws.read('a.txt')).toBe(BOM + body());
    });
  }

  it('a closed file sent to the editor (closedFiles "editor")', async () => {
    const ws = setup({ 'a.txt': body() });
    const client = await start(ws, { initializationOptions: { closedFiles: 'editor' } });
    const r = await client.exec('editls.searchAndReplace', { path: 'a.txt', search: 'target', replace: 'TAR\nGET' });
    expect(r.files[0].via).toBe('editor');
    expect(r.editOmitted).toBeUndefined();
    expect(textEdits(r.edit)).toBe(MATCHES);
    expect(client.bufferText('a.txt')).toBe(expected(body()));
    expect(ws.read('a.txt')).toBe(body());
  });
});
