// The preview store on its own: ids, hint diagnostics per URI (in the negotiated encoding, capped),
// what ends a preview (a changed document, editls writing the file, the cap on pending previews)
// and what does not (opening the file with the same text).
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import type { PlannedChange } from '../../server/commands/ports/apply.js';
import { Previews } from '../../server/workspace/editor/previews.js';
import { MAX_PREVIEW_DIAGNOSTICS } from '../../server/protocol/previewProto.js';
import type { PositionEncoding } from '../../server/core/text/positions.js';

function change(rel: string, text: string, edits: PlannedChange['edits'], created = false): PlannedChange {
  const absPath = `/ws/${rel}`;
  return {
    snapshot: { resolved: { absPath, uri: `file://${absPath}`, relPath: rel, exists: !created, folder: '/ws' }, source: 'disk', text, version: null, uri: `file://${absPath}` },
    newText: text,
    edits,
    created,
    replacements: edits.length,
  };
}

function store(encoding: PositionEncoding = 'utf-16', max?: number, maxTextUnits?: number) {
  const published = new Map<string, Diagnostic[]>();
  const logs: string[] = [];
  const previews = new Previews({
    encoding: () => encoding,
    publish: (uri, d) => published.set(uri, d),
    log: (m) => logs.push(m),
    ...(max ? { max } : {}),
    ...(maxTextUnits ? { maxTextUnits } : {}),
  });
  return { previews, published, logs };
}

const TEXT = 'xé😀 target\n';
const at = TEXT.indexOf('target');

describe('Previews', () => {
  it('publishes one hint per changed range, in the negotiated encoding', () => {
    for (const [encoding, character] of [['utf-16', 5], ['utf-8', 8], ['utf-32', 4]] as const) {
      const { previews, published } = store(encoding);
      const id = previews.add('editls.edit', [change('a.txt', TEXT, [{ start: at, end: at + 6, newText: 'TARGET' }])]);
      const [d] = published.get('file:///ws/a.txt')!;
      expect(d!.range).toEqual({ start: { line: 0, character }, end: { line: 0, character: character + 6 } });
      expect(d).toMatchObject({ severity: 4, source: 'editls', code: id, data: { previewId: id } });
      expect(d!.message).toBe(`preview ${id} (editls.edit): replace "target" with "TARGET"; apply or discard it with a code action`);
    }
  });

  it('describes insertions, deletions and long or multi-line texts on one line', () => {
    const { previews, published } = store();
    const long = 'y'.repeat(100);
    previews.add('c', [change('a.txt', 'ab\ncd\n', [{ start: 0, end: 0, newText: 'new\nline' }, { start: 3, end: 5, newText: '' }, { start: 6, end: 6, newText: long }])]);
    const messages = published.get('file:///ws/a.txt')!.map((d) => d.message);
    expect(messages[0]).toContain('insert "new⏎line"');
    expect(messages[1]).toContain('delete "cd"');
    expect(messages[2]).toContain(`insert "${'y'.repeat(39)}…"`);
  });

  it('caps the diagnostics per file and says how many more there are', () => {
    const { previews, published } = store();
    const text = 'a\n'.repeat(150);
    const edits = Array.from({ length: 150 }, (_, i) => ({ start: 2 * i, end: 2 * i + 1, newText: 'b' }));
    previews.add('c', [change('a.txt', text, edits)]);
    const list = published.get('file:///ws/a.txt')!;
    expect(list).toHaveLength(MAX_PREVIEW_DIAGNOSTICS);
    expect(list.at(-1)!.message).toMatch(/and 50 more changes in this file/);
  });

  it('a document change drops previews computed on other text; the same text keeps them', () => {
    const { previews, published, logs } = store();
    const id = previews.add('c', [change('a.txt', TEXT, [{ start: at, end: at + 1, newText: 'T' }])]);
    previews.documentChanged('file:///ws/a.txt', TEXT); // didOpen with the same text
    expect(previews.get(id)).toBeDefined();
    previews.documentChanged('file:///ws/other.txt', 'whatever');
    expect(previews.get(id)).toBeDefined();
    previews.documentChanged('file:///ws/a.txt', TEXT + 'typed');
    expect(previews.get(id)).toBeUndefined();
    expect(published.get('file:///ws/a.txt')).toEqual([]);
    expect(logs.join('\n')).toContain(`preview ${id} dropped`);
  });

  it('a created file preview survives opening the (empty) new buffer', () => {
    const { previews } = store();
    const id = previews.add('c', [change('new.txt', '', [{ start: 0, end: 0, newText: 'x' }], true)]);
    previews.documentChanged('file:///ws/new.txt', '');
    expect(previews.get(id)).toBeDefined();
    previews.documentChanged('file:///ws/new.txt', 'typed');
    expect(previews.get(id)).toBeUndefined();
  });

  it('editls writing a file ends every preview touching it, and only those', () => {
    const { previews } = store();
    const a = previews.add('c', [change('a.txt', 'a', [{ start: 0, end: 1, newText: 'A' }])]);
    const ab = previews.add('c', [change('a.txt', 'a', [{ start: 0, end: 1, newText: 'B' }]), change('b.txt', 'b', [{ start: 0, end: 1, newText: 'B' }])]);
    const b = previews.add('c', [change('b.txt', 'b', [{ start: 0, end: 1, newText: 'C' }])]);
    expect(previews.touching('/ws/a.txt').map((p) => p.id)).toEqual([a, ab]);
    previews.filesChanged(['/ws/a.txt']);
    expect([previews.get(a), previews.get(ab), previews.get(b)].map(Boolean)).toEqual([false, false, true]);
  });

  it('forgets the oldest previews beyond the cap and clears their diagnostics', () => {
    const { previews, published } = store('utf-16', 2);
    const p1 = previews.add('c', [change('a.txt', 'a', [{ start: 0, end: 1, newText: 'A' }])]);
    const p2 = previews.add('c', [change('b.txt', 'b', [{ start: 0, end: 1, newText: 'B' }])]);
    const p3 = previews.add('c', [change('c.txt', 'c', [{ start: 0, end: 1, newText: 'C' }])]);
    expect(previews.get(p1)).toBeUndefined();
    expect([p2, p3].every((id) => previews.get(id))).toBe(true);
    expect(published.get('file:///ws/a.txt')).toEqual([]);
    expect(new Set([p1, p2, p3]).size).toBe(3);
  });

  it('forgets the oldest previews beyond the text budget, but always keeps the newest', () => {
    const { previews } = store('utf-16', 100, 25);
    const big = 'x'.repeat(10);
    const p1 = previews.add('c', [change('a.txt', big, [{ start: 0, end: 1, newText: 'y' }])]); // 20 units
    const p2 = previews.add('c', [change('b.txt', 'b', [{ start: 0, end: 1, newText: 'B' }])]); // 2 units
    expect([previews.get(p1), previews.get(p2)].map(Boolean)).toEqual([true, true]);
    const p3 = previews.add('c', [change('c.txt', big, [{ start: 0, end: 1, newText: 'y' }])]); // 20 more: over 25
    expect([previews.get(p1), previews.get(p2), previews.get(p3)].map(Boolean)).toEqual([false, true, true]);
    const huge = previews.add('c', [change('d.txt', 'z'.repeat(100), [{ start: 0, end: 1, newText: 'y' }])]);
    expect(previews.get(huge)).toBeDefined();
    expect([previews.get(p2), previews.get(p3)].map(Boolean)).toEqual([false, false]);
  });

  it("hides an agent CLI's own edit under review (a writer) from attached agents' view, and nothing else", () => {
    const { previews } = store();
    const mine = previews.add('editls.edit', [change('a.txt', TEXT, [{ start: at, end: at + 1, newText: 'T' }])]);
    const theirs = previews.add('Claude Code edit', [change('a.txt', TEXT, [{ start: 0, end: 1, newText: 'X' }])], 'Claude Code');
    const agents = previews.withoutWriters();
    expect(previews.get(theirs)?.writer).toBe('Claude Code');
    expect(agents.get(theirs)).toBeUndefined();
    expect(agents.ended(theirs)).toBeUndefined();
    expect(agents.touching('/ws/a.txt').map((p) => p.id)).toEqual([mine]);
    agents.remove([theirs, mine], { how: 'discarded' });
    expect(previews.get(theirs)).toBeDefined();
    expect(previews.get(mine)).toBeUndefined();
  });
});
