// The commands that reach more than one file or the search port (replaceInFiles, searchFiles,
// readFile, undo, discardPreview, workspace/symbol, code actions) against in-memory ports: what they
// ask the ports for, what they leave in the files, and what they answer.
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../server/commands/index.js';
import { codeActionOffers } from '../../server/commands/codeActions.js';
import { READ_AHEAD } from '../../server/commands/replaceInFilesRead.js';
import { workspaceSymbol } from '../../server/handlers/workspaceSymbol.js';
import { applyPort, filesPort, MemoryWorkspace, only, progressPort, requestPort, reviewPort, searchPort, symbolsPort } from './memoryPorts.js';

function editPorts(ws: MemoryWorkspace, requester = 'editor', review = reviewPort(requester)) {
  return { ...requestPort(ws), ...filesPort(ws, review), ...applyPort(ws, { journal: review.undoJournal, requester }), journal: review.journal, previews: review.previews };
}

describe('replaceInFiles over in-memory ports', () => {
  const replaceInFiles = findCommand('editls.replaceInFiles')!;
  const ports = (ws: MemoryWorkspace) => ({ ...editPorts(ws), ...searchPort(ws), ...progressPort() });

  it('replaces in every candidate, the open buffer as the user sees it, in one apply', async () => {
    const ws = new MemoryWorkspace({ 'a.ts': 'oldName();\n', 'b/c.ts': 'x = oldName + OldName;\r\n', 'd.md': 'nothing here\n', 'e.ts': 'disk oldName\n' });
    ws.open('e.ts', 'buffer: oldName, oldName\n');
    const p = ports(ws);
    const result = await replaceInFiles.execute(only(p), { search: 'oldName', replace: 'newName' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(ws.text('a.ts')).toBe('newName();\n');
    expect(ws.text('b/c.ts')).toBe('x = newName + OldName;\r\n');
    expect(ws.text('d.md')).toBe('nothing here\n');
    expect(ws.text('e.ts')).toBe('buffer: newName, newName\n');
    expect(ws.disk.get('e.ts')).toBe('disk oldName\n');
    expect(ws.applied).toHaveLength(1);
    expect(ws.applied[0]!.changes.map((c) => c.snapshot.resolved.relPath)).toEqual(['a.ts', 'b/c.ts', 'e.ts']);
    // Each change was handed to a write ahead as soon as it was known, which apply was given, then closed.
    expect(ws.writtenAhead.map((w) => ({ mode: w.mode, added: w.added.map((c) => c.snapshot.resolved.relPath), closed: w.closed, applied: w.applied }))).toEqual([
      { mode: 'auto', added: ['a.ts', 'b/c.ts', 'e.ts'], closed: true, applied: true },
    ]);
    expect(ws.writtenAhead[0]!.added).toEqual(ws.applied[0]!.changes);
    // The exact literal narrows ripgrep's list; the scope is the whole folder.
    expect(p.candidateRequests).toHaveLength(1);
    expect(p.candidateRequests[0]!.scope.relPath).toBe('.');
    expect(p.candidateRequests[0]!.prefilter).toBeDefined();
    expect((result as { value: { replacements: number; filesChanged: number } }).value).toMatchObject({ replacements: 4, filesChanged: 3 });
  });

  it('writes nothing ahead when a person confirms the edit first (confirm), nor for a preview', async () => {
    for (const extra of [{ confirm: true }, { apply: 'preview' as const }]) {
      const ws = new MemoryWorkspace({ 'a.ts': 'oldName\n', 'b.ts': 'oldName\n' });
      const result = await replaceInFiles.execute(only(ports(ws)), { search: 'oldName', replace: 'newName', ...extra });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(ws.applied).toHaveLength(1);
      expect(ws.writtenAhead).toEqual([]);
    }
  });

  it('preserve_case with a regex, run as a scan', async () => {
    const ws = new MemoryWorkspace({ 'a.ts': 'foo Foo FOO fooBar\n' });
    const result = await replaceInFiles.execute(only(ports(ws)), { search: '\\bfoo\\b', replace: 'bar', use_regex: true, ignore_case: true, preserve_case: true });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(ws.text('a.ts')).toBe('bar Bar BAR fooBar\n');
  });

  it('more changed files than max_files: too_large, nothing applied', async () => {
    const ws = new MemoryWorkspace({ 'a': 'x', 'b': 'x', 'c': 'x' });
    const result = await replaceInFiles.execute(only(ports(ws)), { search: 'x', replace: 'y', max_files: 2 });
    expect(result.ok ? '' : result.kind).toBe('too_large');
    expect(ws.applied).toEqual([]);
    // What was written ahead is let go: the write ahead is closed, never applied.
    expect(ws.writtenAhead.map((w) => ({ added: w.added.length, closed: w.closed, applied: w.applied }))).toEqual([{ added: 2, closed: true, applied: false }]);
    expect([...ws.disk.values()]).toEqual(['x', 'x', 'x']);
  });

  it('a change that could not fit in memory is too_large as soon as it is known (counting stops there), nothing applied', async () => {
    const ws = new MemoryWorkspace({ a: 'x'.repeat(1000), b: 'x'.repeat(1000), c: 'x'.repeat(1000) });
    // One file's old and new text fit (4 x 2,000 bytes and its edit), two do not.
    ws.memoryRoom = 10_000;
    const result = await replaceInFiles.execute(only(ports(ws)), { search: 'x', replace: 'y' });
    expect(result.ok ? '' : result.kind).toBe('too_large');
    if (!result.ok) {
      expect(result.message).toMatch(/changes more text than editls can hold in memory at once .* nothing changed; narrow it with path or file_pattern/);
      expect(result.data).toMatchObject({ roomBytes: 10_000, filesScanned: 2, candidates: 3 });
    }
    expect(ws.applied).toEqual([]);
    expect([...ws.disk.values()].every((t) => t === 'x'.repeat(1000))).toBe(true);
  });

  it('one file changed after it was read: the whole command is refused, no file changes', async () => {
    const ws = new MemoryWorkspace({ 'a': 'x1', 'b': 'x2' });
    const p = ports(ws);
    const snapshot = p.snapshot;
    p.snapshot = async (at) => {
      const s = await snapshot(at);
      if (at.relPath === 'b') ws.disk.set('a', 'x1 edited by someone else');
      return s;
    };
    const result = await replaceInFiles.execute(only(p), { search: 'x', replace: 'y' });
    expect(result.ok ? '' : result.kind).toBe('stale');
    expect(ws.disk.get('a')).toBe('x1 edited by someone else');
    expect(ws.disk.get('b')).toBe('x2');
  });

  /** Ports whose listing hands every file to onListed (last first) and waits until `reads` snapshots were taken, then runs `then`. */
  function streamed(ws: MemoryWorkspace, reads: number, then: () => void = () => undefined) {
    let taken = 0;
    let allRead!: () => void;
    const done = new Promise<void>((resolve) => (allRead = resolve));
    const search = searchPort(ws, { whileListing: async () => {
      await done;
      then();
    } });
    const p = { ...editPorts(ws), ...search, ...progressPort() };
    const snapshot = p.snapshot;
    const snapshots: string[] = [];
    p.snapshot = async (at) => {
      const s = await snapshot(at);
      snapshots.push(at.relPath);
      if (++taken === reads) allRead();
      return s;
    };
    return Object.assign(p, { snapshots });
  }

  it('files read as the listing names them (in its order): the same answer, applied in path order', async () => {
    const files = { 'a.ts': 'oldName();\n', 'b/c.ts': 'x = oldName;\r\n', 'd.md': 'nothing here\n', 'e.ts': 'disk oldName\n', 'f.ts': '😀 oldName 中文\n' };
    const ws = new MemoryWorkspace(files);
    ws.open('e.ts', 'buffer: oldName, oldName\n');
    const p = streamed(ws, 5);
    const result = await replaceInFiles.execute(only(p), { search: 'oldName', replace: 'newName' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    // All five were read while the listing ran (last first), none again after the lock.
    expect(p.snapshots).toEqual(['f.ts', 'e.ts', 'd.md', 'b/c.ts', 'a.ts']);
    expect(ws.locked).toEqual([['/ws/a.ts', '/ws/b/c.ts', '/ws/d.md', '/ws/e.ts', '/ws/f.ts']]);
    expect(ws.applied[0]!.changes.map((c) => c.snapshot.resolved.relPath)).toEqual(['a.ts', 'b/c.ts', 'e.ts', 'f.ts']);
    expect(ws.text('f.ts')).toBe('😀 newName 中文\n');
    expect(ws.text('b/c.ts')).toBe('x = newName;\r\n');
    expect(ws.text('e.ts')).toBe('buffer: newName, newName\n');
    const value = (result as { value: { files: { path: string }[]; replacements: number; filesScanned: number } }).value;
    expect(value.files.map((f) => f.path)).toEqual(['a.ts', 'b/c.ts', 'e.ts', 'f.ts']);
    expect(value).toMatchObject({ replacements: 5, filesScanned: 5 });
    // Every change was written ahead as it was worked out, and those are the ones applied.
    expect(new Set(ws.writtenAhead[0]!.added)).toEqual(new Set(ws.applied[0]!.changes));
    expect(ws.writtenAhead[0]).toMatchObject({ closed: true, applied: true });
  });

  it('a file that changed between its early read and the lock is read again: the answer is what reading after the lock gives', async () => {
    const ws = new MemoryWorkspace({ 'a.ts': 'oldName 1\n', 'b.ts': 'oldName 2\n', 'c.ts': 'oldName 3\n', 'd.ts': 'nothing\n', 'e.ts': 'oldName 5\n', 'f.ts': 'oldName 6\n' });
    ws.open('e.ts', 'oldName buffer\n', 1);
    const p = streamed(ws, 6, () => {
      ws.disk.set('a.ts', 'oldName 1 and oldName again\r\n'); // rewritten on disk
      ws.open('b.ts', 'opened: oldName\n'); // opened in the editor, with other text
      ws.disk.delete('c.ts'); // deleted
      ws.disk.set('d.ts', 'now oldName\n'); // now matches
      ws.open('e.ts', 'typed: oldName\n', 2); // the buffer changed
    });
    const result = await replaceInFiles.execute(only(p), { search: 'oldName', replace: 'newName' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(p.snapshots.slice(6).sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']);
    expect(ws.text('a.ts')).toBe('newName 1 and newName again\r\n');
    expect(ws.text('b.ts')).toBe('opened: newName\n');
    expect(ws.disk.get('b.ts')).toBe('oldName 2\n');
    expect(ws.text('c.ts')).toBeUndefined();
    expect(ws.text('d.ts')).toBe('now newName\n');
    expect(ws.text('e.ts')).toBe('typed: newName\n');
    expect(ws.text('f.ts')).toBe('newName 6\n');
    expect(ws.applied[0]!.changes.map((c) => `${c.snapshot.resolved.relPath}:${c.snapshot.source}`)).toEqual(['a.ts:disk', 'b.ts:editor', 'd.ts:disk', 'e.ts:editor', 'f.ts:disk']);
    // The early changes of the files that changed were written ahead, and never applied.
    const applied = new Set(ws.applied[0]!.changes);
    expect(ws.writtenAhead[0]!.added.filter((c) => !applied.has(c)).map((c) => c.snapshot.resolved.relPath).sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'e.ts']);
  });

  it('at most READ_AHEAD files (and the one the command waits for) are being read at once, while the listing runs and after it', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`f${String(i).padStart(3, '0')}`] = i % 3 === 0 ? 'x\r\n' : 'none';
    const ws = new MemoryWorkspace(files);
    // The listing ends after 10 reads: the other 90 are read while the paths are resolved and after the lock.
    const p = streamed(ws, 10);
    const snapshot = p.snapshot;
    let inFlight = 0;
    let most = 0;
    p.snapshot = async (at) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setImmediate(r));
      try {
        return await snapshot(at);
      } finally {
        inFlight--;
      }
    };
    const result = await replaceInFiles.execute(only(p), { search: 'x', replace: 'y' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(READ_AHEAD + 1);
    expect(new Set(p.snapshots).size).toBe(100);
    expect((result as { value: { filesChanged: number } }).value.filesChanged).toBe(34);
    expect(ws.text('f099')).toBe('y\r\n');
  });

  it('the changes worked out before the lock count toward the memory room: too_large, nothing applied, nothing kept ahead', async () => {
    const files = { a: 'x'.repeat(1000), b: 'x'.repeat(1000), c: 'x'.repeat(1000), d: 'x'.repeat(1000), e: 'x'.repeat(1000), f: 'x'.repeat(1000) };
    // One file's change fits, two do not (as in the in-order test above), which says what two hold.
    const inOrder = new MemoryWorkspace(files);
    inOrder.memoryRoom = 10_000;
    const first = await replaceInFiles.execute(only(ports(inOrder)), { search: 'x', replace: 'y' });
    const two = first.ok ? 0 : (first.data as { heldBytes: number }).heldBytes;
    const ws = new MemoryWorkspace(files);
    ws.memoryRoom = 10_000;
    const p = streamed(ws, 6);
    const result = await replaceInFiles.execute(only(p), { search: 'x', replace: 'y' });
    expect(result.ok ? '' : result.kind).toBe('too_large');
    if (!result.ok) {
      expect(result.message).toMatch(/changes more text than editls can hold in memory at once/);
      // Read last first, f and e were matched before the lock (e passed the room). Refused at the first
      // file taken in order (a), counting the two changes read before the lock.
      expect(result.data).toMatchObject({ roomBytes: 10_000, filesScanned: 3, candidates: 6, heldBytes: 1.5 * two });
    }
    expect(ws.applied).toEqual([]);
    expect(ws.writtenAhead[0]!.added.length).toBeLessThanOrEqual(1);
    expect(ws.writtenAhead[0]).toMatchObject({ closed: true, applied: false });
  });

  it('reading ahead stops once the command is bound to be too_large; the refusal is the one reading in order gives', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`f${String(i).padStart(3, '0')}`] = 'x';
    const ws = new MemoryWorkspace(files);
    const p = streamed(ws, 3);
    const result = await replaceInFiles.execute(only(p), { search: 'x', replace: 'y', max_files: 2 });
    expect(result.ok ? '' : result.kind).toBe('too_large');
    if (!result.ok) expect(result.data).toMatchObject({ files: 3, maxFiles: 2, filesScanned: 3, candidates: 100 });
    // Read: before the lock, the three matched and at most READ_AHEAD being read when the limit was
    // passed; after it, the three files the command took in order and READ_AHEAD more; each file
    // once. At most two changes were written ahead.
    expect(p.snapshots.length).toBeLessThanOrEqual(2 * (READ_AHEAD + 3));
    expect(new Set(p.snapshots).size).toBe(p.snapshots.length);
    expect(ws.writtenAhead[0]!.added.length).toBeLessThanOrEqual(2);
    expect(ws.writtenAhead[0]).toMatchObject({ closed: true, applied: false });
    expect(ws.applied).toEqual([]);
  });

  it('a bad regex is refused before any file is listed', async () => {
    const ws = new MemoryWorkspace({ a: 'x' });
    const p = ports(ws);
    const result = await replaceInFiles.execute(only(p), { search: '(', replace: 'y', use_regex: true });
    expect(result.ok ? '' : result.kind).toBe('invalid_regex');
    expect(p.candidateRequests).toEqual([]);
  });
});

describe('searchFiles over in-memory ports', () => {
  const searchFiles = findCommand('editls.searchFiles')!;

  it('asks ripgrep with the arguments and settings, and lays out its hits with UTF-16 columns', async () => {
    const ws = new MemoryWorkspace({ 'src/a.ts': '' });
    const search = searchPort(ws, {
      search: () => ({
        ok: true,
        files: [{ path: 'src/a.ts', uri: 'file:///ws/src/a.ts', lines: [{ line: 3, text: '😀 const needle = 1;', match: true, submatches: [{ start: 9, end: 15 }] }] }],
        matchCount: 1,
        truncated: false,
        notes: ['a folder could not be read'],
        stoppedEarly: false,
        walks: ['parallel'],
      }),
    });
    const p = { ...requestPort(ws, { maxResults: 50 }), ...search, ...progressPort() };
    const result = await searchFiles.execute(only(p), { path: 'src', regex: 'needle', file_pattern: '*.ts', context_lines: 2 });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(search.searches).toHaveLength(1);
    const req = search.searches[0]!;
    expect({ scope: req.scope.relPath, directory: req.scope.directory, regex: req.regex, glob: req.glob?.source, contextLines: req.contextLines, maxResults: req.maxResults, respectIgnore: req.respectIgnore }).toEqual({
      scope: 'src',
      directory: true,
      regex: 'needle',
      glob: '*.ts',
      contextLines: 2,
      maxResults: 50,
      respectIgnore: true,
    });
    const value = (result as { value: { text: string; count: number; notes: string[]; matches: { line: number; range: object }[] } }).value;
    expect(value.count).toBe(1);
    expect(value.notes).toEqual(['a folder could not be read']);
    expect(value.text).toContain('src/a.ts');
    expect(value.text).toContain('😀 const needle = 1;');
    // 😀 is two UTF-16 units: the match starts at character 9 (0-based), as the client counts.
    expect(value.matches[0]).toMatchObject({ line: 3, range: { start: { line: 2, character: 9 }, end: { line: 2, character: 15 } } });
  });

  it('a scope that does not exist is file_not_found, and ripgrep is never asked', async () => {
    const ws = new MemoryWorkspace({ 'a.ts': '' });
    const search = searchPort(ws);
    const resolveSearchScope = search.resolveSearchScope;
    search.resolveSearchScope = async (input) => {
      const r = await resolveSearchScope(input);
      return r.ok ? { ...r, exists: false } : r;
    };
    const result = await searchFiles.execute(only({ ...requestPort(ws), ...search, ...progressPort() }), { path: 'missing', regex: 'x' });
    expect(result.ok ? '' : result.kind).toBe('file_not_found');
    expect(search.searches).toEqual([]);
  });
});

describe('readFile over in-memory ports', () => {
  it('reads the open buffer, numbered, a page at a time', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'disk\n' });
    ws.open('a.txt', 'one\r\ntwo\r\nthree');
    const result = await findCommand('editls.readFile')!.execute(only({ ...requestPort(ws), ...filesPort(ws) }), { file_path: 'a.txt', offset: 2, limit: 1 });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect((result as { value: object }).value).toMatchObject({ source: 'editor', content: '     2\ttwo', startLine: 2, endLine: 2, totalLines: 3, more: true });
  });

  it('a command reaching a port its test did not give fails at once (readFile logs through the request port)', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'x\n' });
    await expect(findCommand('editls.readFile')!.execute(only(filesPort(ws)), { file_path: 'a.txt' })).rejects.toThrow(/ctx\.log/);
  });
});

describe('undo over in-memory ports', () => {
  it("reverts the requester's own last change only", async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'one\n' });
    const review = reviewPort('editor');
    const user = { ...editPorts(ws, 'editor', review) };
    const agentReview = { ...review, journal: review.undoJournal.viewFor('agent:1') };
    const agent = { ...editPorts(ws, 'agent:1', agentReview as typeof review) };
    const edit = findCommand('editls.edit')!;
    expect((await edit.execute(only(user), { file_path: 'a.txt', old_string: 'one', new_string: 'two' })).ok).toBe(true);
    expect((await edit.execute(only(agent), { file_path: 'a.txt', old_string: 'two', new_string: 'three' })).ok).toBe(true);
    const undo = findCommand('editls.undo')!;
    const byAgent = await undo.execute(only(agent), {});
    expect(byAgent.ok, JSON.stringify(byAgent)).toBe(true);
    expect(ws.text('a.txt')).toBe('two\n');
    const again = await undo.execute(only(agent), {});
    expect(again.ok).toBe(false);
    expect(ws.text('a.txt')).toBe('two\n');
    expect((await undo.execute(only(user), {})).ok).toBe(true);
    expect(ws.text('a.txt')).toBe('one\n');
  });

  it('a file changed since editls edited it is not undone', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'one\n' });
    const p = editPorts(ws);
    await findCommand('editls.edit')!.execute(only(p), { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    ws.disk.set('a.txt', 'two, then someone typed\n');
    const result = await findCommand('editls.undo')!.execute(only(p), { path: 'a.txt' });
    expect(result.ok ? '' : result.kind).toBe('stale');
    expect(ws.text('a.txt')).toBe('two, then someone typed\n');
  });
});

describe('previews and code actions over in-memory ports', () => {
  it('discardPreview forgets a preview: applying it afterwards finds nothing', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'alpha\n' });
    const p = editPorts(ws);
    const proposed = await findCommand('editls.proposeStrReplace')!.execute(only(p), { path: 'a.txt', replacements: [{ old: 'alpha', new: 'beta' }] });
    const id = (proposed as { value: { previewId: string } }).value.previewId;
    expect(p.previews.get(id)).toBeDefined();
    const discarded = await findCommand('editls.discardPreview')!.execute(only({ ...requestPort(ws), resolvePath: p.resolvePath, previews: p.previews, journal: p.journal }), { id });
    expect(discarded.ok, JSON.stringify(discarded)).toBe(true);
    expect(p.previews.get(id)).toBeUndefined();
    const applied = await findCommand('editls.applyPreview')!.execute(only(p), { id });
    expect(applied.ok).toBe(false);
    expect(ws.text('a.txt')).toBe('alpha\n');
  });

  it('offers the pending preview, trailing whitespace and mixed endings of the file', async () => {
    const ws = new MemoryWorkspace({ 'a.txt': 'one  \r\ntwo\n' });
    const p = editPorts(ws);
    await findCommand('editls.proposeStrReplace')!.execute(only(p), { path: 'a.txt', replacements: [{ old: 'two', new: 'TWO' }] });
    const offers = await codeActionOffers(only({ resolvePath: p.resolvePath, snapshot: p.snapshot, withFiles: p.withFiles, removeCreatedFile: p.removeCreatedFile, previews: p.previews, journal: p.journal, carriageReturns: p.carriageReturns, mentionTargets: () => [] }), 'file:///ws/a.txt', undefined, undefined);
    const titles = offers.map((o) => o.title).join('\n');
    expect(offers.length).toBeGreaterThanOrEqual(3);
    expect(titles).toMatch(/preview/i);
    expect(titles).toMatch(/trailing whitespace/i);
    expect(titles).toMatch(/line endings/i);
  });
});

describe('workspace/symbol over an in-memory symbols port', () => {
  it('asks the index with the query and answers SymbolInformation', async () => {
    const symbols = symbolsPort([
      { name: 'parseConfig', kind: 'function', uri: 'file:///ws/a.ts', line: 4, character: 9, endCharacter: 20 },
      { name: 'Other', kind: 'class', uri: 'file:///ws/b.ts', line: 0, character: 6, endCharacter: 11 },
    ]);
    const answer = await workspaceSymbol(only(symbols), { query: 'parse' });
    expect(symbols.queries).toEqual(['parse']);
    expect(answer).toEqual([{ name: 'parseConfig', kind: 12, location: { uri: 'file:///ws/a.ts', range: { start: { line: 4, character: 9 }, end: { line: 4, character: 20 } } } }]);
  });
});
