// A reviewed edit (confirm: true → needsConfirmation) as VS Code's Refactor Preview handles it: the
// person unticks files or single edits, and the editor answers "applied" for the rest (or "not
// applied" when nothing is ticked). The real server over stdio must report, journal and undo exactly
// what landed. The review here is the test client applying the ticked edits the way VS Code does
// (a file that was not open is opened first, then changed).
import { describe, expect, it } from 'vitest';
import type { ApplyWorkspaceEditParams, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { CAPS_VSCODE, type TestClient } from '../helpers/lspClient.js';
import { serverFixture } from '../helpers/serverFixture.js';

const { setup, start } = serverFixture();
const RIF = 'editls.replaceInFiles';

/** A person's review: `ticked(file, editIndex)` says which edits stay ticked; Apply. `after`: what the person does right after Apply. */
function review(client: () => TestClient, ticked: (file: string, index: number) => boolean, after?: () => Promise<void>) {
  return async (params: ApplyWorkspaceEditParams) => {
    expect(Object.values(params.edit.changeAnnotations ?? {}).every((a) => a.needsConfirmation === true)).toBe(true);
    const kept: TextDocumentEdit[] = [];
    for (const change of (params.edit.documentChanges ?? []) as TextDocumentEdit[]) {
      const file = change.textDocument.uri.split('/').pop()!;
      const edits = change.edits.filter((_, i) => ticked(file, i));
      if (edits.length > 0) kept.push({ ...change, edits });
    }
    if (kept.length === 0) return { applied: false };
    const c = client();
    for (const change of kept) {
      const file = change.textDocument.uri.split('/').pop()!;
      if (c.bufferText(file) === undefined) await c.open(file); // VS Code opens the model: didOpen
    }
    const answer = await c.applyStrict({ edit: { documentChanges: kept } });
    if (after) await after();
    return answer;
  };
}

describe('reviewed edits (VS Code Refactor Preview)', () => {
  it('a file left unticked and an edit left unticked: reported, journalled and undone as they landed', async () => {
    const ws = setup({ 'a.txt': 'alpha one\nalpha two\n', 'b.txt': 'alpha\n', 'c.txt': 'closed alpha\n' });
    let client!: TestClient;
    client = await start(ws, { capabilities: CAPS_VSCODE, applyBehavior: review(() => client, (file, i) => file === 'b.txt' || (file === 'a.txt' && i === 1)) });
    await client.open('a.txt');
    const r = await client.exec(RIF, { search: 'alpha', replace: 'omega', apply: 'editor', confirm: true });
    expect(client.bufferText('a.txt')).toBe('alpha one\nomega two\n');
    expect(client.bufferText('b.txt')).toBe('omega\n');
    expect(client.bufferText('c.txt')).toBeUndefined();
    expect(ws.read('c.txt')).toBe('closed alpha\n');
    expect(r.filesChanged).toBe(2);
    expect(r.replacements).toBe(2);
    expect(r.files.map((f: { path: string; replacements: number }) => [f.path, f.replacements])).toEqual([
      ['a.txt', 1],
      ['b.txt', 1],
    ]);
    expect(r.unifiedDiff).toContain('+omega two');
    expect(r.unifiedDiff).not.toContain('+omega one');
    expect(r.unifiedDiff).not.toContain('c.txt');
    expect(r.message).toContain('left out in the review: c.txt');
    expect(r.message).toContain('applied in part: a.txt');
    expect(r.notes.join('\n')).toContain('left out in the review (unticked), unchanged: c.txt');
    // One undo takes back exactly what landed.
    client.applyBehavior = 'apply';
    const u = await client.exec('editls.undo', {});
    expect(u.filesChanged).toBe(2);
    expect(client.bufferText('a.txt')).toBe('alpha one\nalpha two\n');
    expect(client.bufferText('b.txt')).toBe('alpha\n');
    expect(ws.read('c.txt')).toBe('closed alpha\n');
  });

  it('Discard (or Apply with nothing ticked): refused as not applied in the review, nothing journalled', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    let client!: TestClient;
    client = await start(ws, { capabilities: CAPS_VSCODE, applyBehavior: review(() => client, () => false) });
    await client.open('a.txt');
    const err = await client.execError(RIF, { search: 'alpha', replace: 'omega', apply: 'editor', confirm: true });
    expect(err.data).toMatchObject({ kind: 'apply_rejected', review: 'discarded' });
    expect(err.message).toContain("not applied in the editor's review");
    expect(client.bufferText('a.txt')).toBe('alpha\n');
    const undo = await client.execError('editls.undo', {});
    expect(undo.data.kind).toBe('no_change');
    expect(client.bufferText('a.txt')).toBe('alpha\n');
  });

  it('"applied" with none of it in the buffers: refused, nothing journalled', async () => {
    const ws = setup({ 'a.txt': 'alpha\n' });
    const client = await start(ws, { capabilities: CAPS_VSCODE, initializationOptions: { applyConfirmTimeoutMs: 200 }, applyBehavior: () => ({ applied: true }) });
    await client.open('a.txt');
    const err = await client.execError('editls.edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'omega', confirm: true });
    expect(err.data).toMatchObject({ kind: 'apply_rejected', review: 'leftOut' });
    expect(client.bufferText('a.txt')).toBe('alpha\n');
  });

  it('a buffer the person changes as the edit lands: applied, named, and not undone by editls', async () => {
    const ws = setup({ 'a.txt': 'alpha\nkeep\n', 'b.txt': 'alpha\n' });
    let client!: TestClient;
    client = await start(ws, {
      capabilities: CAPS_VSCODE,
      applyBehavior: review(() => client, () => true, () => client.type('a.txt', 'keep', 'KEPT')),
    });
    await client.open('a.txt');
    await client.open('b.txt');
    const r = await client.exec(RIF, { search: 'alpha', replace: 'omega', apply: 'editor', confirm: true });
    expect(client.bufferText('a.txt')).toBe('omega\nKEPT\n');
    expect(r.files.map((f: { path: string }) => f.path)).toEqual(['b.txt']);
    expect(r.notes.join('\n')).toContain('a.txt also changed otherwise in the editor');
    client.applyBehavior = 'apply';
    await client.exec('editls.undo', {});
    expect(client.bufferText('b.txt')).toBe('alpha\n');
    expect(client.bufferText('a.txt')).toBe('omega\nKEPT\n');
  });
});
