// The undo journal: inverse edits restore the text before any set of span edits (property), a
// multi-file command is one entry whose files can be undone together or one by one, undoDepth
// keeps at most that many changes per file (the oldest go), and each requester sees only its own.
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import type { JournalFile } from '../../server/commands/ports/review.js';
import { EditedText } from '../../server/core/text/editedText.js';
import { flatCopy } from '../../server/core/text/flatCopy.js';
import { bytesDigest, inverseEdits, textDigest, UndoJournal, type RecordedChange } from '../../server/workspace/editor/undoJournal.js';
import { encodeText } from '../../server/workspace/disk/fileCodec.js';
import v8 from 'node:v8';
import vm from 'node:vm';

function change(absPath: string, before: string, edits: SpanEdit[], created = false): RecordedChange {
  return { absPath, relPath: absPath.slice(1), uri: `file://${absPath}`, before, edits, after: applySpanEdits(before, edits), created };
}

describe('inverseEdits', () => {
  it('turns the edited text back into the original, for any sorted non-overlapping edits', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', 'é', '😀', '\uFEFF'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 5 })), { maxLength: 6 }), (before, raw) => {
        const cuts = raw.flatMap(([a, b]) => [a % (before.length + 1), b % (before.length + 1)]).sort((x, y) => x - y);
        const edits: SpanEdit[] = [];
        for (let i = 0; i + 1 < cuts.length; i += 2) {
          if (edits.length > 0 && cuts[i]! < edits[edits.length - 1]!.end) continue;
          edits.push({ start: cuts[i]!, end: cuts[i + 1]!, newText: raw[i / 2]![2] });
        }
        const after = applySpanEdits(before, edits);
        expect(applySpanEdits(after, inverseEdits(before, edits))).toBe(before);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('UndoJournal', () => {
  it('a multi-file command is one entry; its files undo together or one at a time', () => {
    const journal = new UndoJournal(() => 20);
    const j = Object.assign(journal.viewFor('editor'), { record: journal.record.bind(journal) });
    j.record('editor', 'cmd1', [change('/a', 'a', [{ start: 0, end: 1, newText: 'A' }]), change('/b', 'b', [{ start: 0, end: 1, newText: 'B' }])]);
    j.record('editor', 'cmd2', [change('/a', 'A', [{ start: 0, end: 1, newText: 'AA' }])]);
    expect(j.latest()?.command).toBe('cmd2');
    expect(j.latest('/b')?.command).toBe('cmd1');
    const e1 = j.latest('/b')!;
    j.forget(e1.seq, ['/b']);
    expect(j.latest('/b')).toBeUndefined();
    expect(j.depthOf('/a')).toBe(2);
    const e2 = j.latest()!;
    expect(j.holdsWhatEditlsLeft(e2.files[0]!, 'AA')).toBe(true);
    expect(j.holdsWhatEditlsLeft(e2.files[0]!, 'Aa')).toBe(false);
    j.forget(e2.seq, ['/a']);
    expect(j.latest()?.command).toBe('cmd1');
    expect(j.latest()?.files.map((f) => f.absPath)).toEqual(['/a']);
  });

  it('keeps at most undoDepth changes per file, dropping the oldest', () => {
    const journal = new UndoJournal(() => 3);
    const j = Object.assign(journal.viewFor('editor'), { record: journal.record.bind(journal) });
    let text = '';
    for (let i = 0; i < 5; i++) {
      j.record('editor', `c${i}`, [change('/f', text, [{ start: text.length, end: text.length, newText: `${i}` }])]);
      text += `${i}`;
    }
    j.record('editor', 'other', [change('/g', '', [{ start: 0, end: 0, newText: 'g' }])]);
    expect(j.depthOf('/f')).toBe(3);
    expect(j.depthOf('/g')).toBe(1);
    const seen: string[] = [];
    for (let e = j.latest('/f'); e; e = j.latest('/f')) {
      seen.push(e.command);
      j.forget(e.seq, ['/f']);
    }
    expect(seen).toEqual(['c4', 'c3', 'c2']);
  });

  it('undoDepth over any sequence of commands, owners and undos: each file keeps its newest changes, as one counted file by file would', () => {
    const paths = ['/a', '/b', '/c', '/d'];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('record' as const), owner: fc.constantFrom('editor', 'agent:1'), files: fc.uniqueArray(fc.constantFrom(...paths), { minLength: 1, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('undo' as const), owner: fc.constantFrom('editor', 'agent:1'), path: fc.constantFrom(...paths) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.array(step, { maxLength: 30 }), (depth, steps) => {
        const journal = new UndoJournal(() => depth);
        // The model: entries oldest first; each file keeps its `depth` newest entries.
        let model: { seq: number; owner: string; files: string[] }[] = [];
        let seq = 0;
        for (const s of steps) {
          if (s.kind === 'record') {
            journal.record(s.owner, `cmd${seq}`, s.files.map((p) => change(p, 'x', [{ start: 0, end: 1, newText: `v${seq}` }])));
            model.push({ seq: ++seq, owner: s.owner, files: [...s.files] });
            for (const p of s.files) {
              let excess = model.filter((e) => e.files.includes(p)).length - depth;
              for (const e of model) if (excess > 0 && e.files.includes(p)) (e.files = e.files.filter((f) => f !== p)), excess--;
            }
            model = model.filter((e) => e.files.length > 0);
          } else {
            const view = journal.viewFor(s.owner);
            const latest = view.latest(s.path);
            const mine = [...model].reverse().find((e) => e.owner === s.owner && e.files.includes(s.path));
            expect(latest?.command).toBe(mine ? `cmd${mine.seq - 1}` : undefined);
            if (latest && mine) {
              view.forget(latest.seq, [s.path]);
              mine.files = mine.files.filter((f) => f !== s.path);
              model = model.filter((e) => e.files.length > 0);
            }
          }
          for (const p of paths) {
            expect(journal.depthOf(p)).toBe(model.filter((e) => e.files.includes(p)).length);
            for (const owner of ['editor', 'agent:1']) expect(journal.viewFor(owner).depthOf(p)).toBe(model.filter((e) => e.owner === owner && e.files.includes(p)).length);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a change that changed nothing is not recorded; a creation is, with no inverse edits', () => {
    const journal = new UndoJournal(() => 20);
    const j = Object.assign(journal.viewFor('editor'), { record: journal.record.bind(journal) });
    j.record('editor', 'noop', [change('/n', 'x', [])]);
    expect(j.latest()).toBeUndefined();
    j.record('editor', 'create', [change('/c', '', [{ start: 0, end: 0, newText: 'new' }], true)]);
    expect(j.latest()?.files[0]).toMatchObject({ created: true, inverse: [], afterLength: 3 });
  });

  it('each requester sees, counts and forgets only its own changes; undoDepth counts everyone\'s', () => {
    const journal = new UndoJournal(() => 3);
    const user = journal.viewFor('editor');
    const agentA = journal.viewFor('agent:a');
    const agentB = journal.viewFor('agent:b');
    journal.record('editor', 'user1', [change('/f', 'x', [{ start: 0, end: 1, newText: 'u' }])]);
    journal.record('agent:a', 'a1', [change('/f', 'u', [{ start: 0, end: 1, newText: 'a' }])]);
    journal.record('agent:b', 'b1', [change('/g', 'g', [{ start: 0, end: 1, newText: 'b' }])]);
    expect(user.latest()?.command).toBe('user1');
    expect(agentA.latest()?.command).toBe('a1');
    expect(agentA.latest('/g')).toBeUndefined();
    expect(agentB.latest('/f')).toBeUndefined();
    expect(user.depthOf('/f')).toBe(1);
    expect(agentA.depthOf('/f')).toBe(1);
    // Another requester's entry cannot be forgotten through a view.
    agentB.forget(user.latest()!.seq, ['/f']);
    expect(user.latest()?.command).toBe('user1');
    // Three more agent changes to /f: the oldest change to /f (the user's) goes first.
    for (let i = 2; i <= 4; i++) journal.record('agent:a', `a${i}`, [change('/f', 'a', [{ start: 0, end: 1, newText: 'a' + i }])]);
    expect(user.latest()).toBeUndefined();
    expect(agentA.depthOf('/f')).toBe(3);
    expect(agentB.latest()?.command).toBe('b1');
  });
});

describe('a change recorded from the bytes it wrote (its texts let go)', () => {
  it('is recognised by its text in that encoding, BOM included, and by nothing else: not a lone surrogate where it wrote U+FFFD', () => {
    const cases: [string, 'utf-8' | 'utf-16le' | 'utf-16be', boolean][] = [
      ['a\uFFFDb\r\n😀 中', 'utf-8', false],
      ['a\uFFFDb\r\n😀 中', 'utf-8', true],
      ['a\uFFFDb\n😀', 'utf-16le', true],
      ['a\uFFFDb\n😀', 'utf-16be', true],
    ];
    for (const [after, encoding, bom] of cases) {
      const journal = new UndoJournal(() => 20);
      const written = { digest: bytesDigest(encodeText(after, encoding, bom)), length: after.length, inverse: [{ start: 0, end: 1, newText: 'x' }], encoding, bom };
      journal.record('editor', 'test', [{ absPath: '/w/a', relPath: 'a', uri: 'file:///w/a', before: '', after: '', edits: [{ start: 0, end: 1, newText: 'a' }], created: false, written }]);
      const file = journal.latest('editor')!.files[0]!;
      expect(file.inverse).toEqual(written.inverse);
      expect(journal.holdsWhatEditlsLeft(file, after)).toBe(true);
      expect(journal.holdsWhatEditlsLeft(file, after.replace('\uFFFD', '\uD800'))).toBe(false);
      expect(journal.holdsWhatEditlsLeft(file, after.replace('b', 'c'))).toBe(false);
      expect(journal.holdsWhatEditlsLeft(file, `${after} `)).toBe(false);
    }
  });
});

describe('textDigest', () => {
  it('of a text read through its edits is the digest of the text (lone surrogates and pieces of any size included)', () => {
    const big = 'x'.repeat((1 << 20) + 7);
    const cases: [string, SpanEdit[]][] = [
      ['a😀b', [{ start: 2, end: 3, newText: '\uDE00' }]],
      ['lone \uD83D here', [{ start: 0, end: 4, newText: 'one' }]],
      [big + '中\r\n' + big, [{ start: big.length, end: big.length + 1, newText: '😀' }]],
    ];
    for (const [before, edits] of cases) {
      const after = applySpanEdits(before, edits);
      expect(textDigest(new EditedText(before, edits))).toBe(textDigest(after));
      expect(textDigest(new EditedText(before, edits))).not.toBe(textDigest(`${after} `));
    }
    // Not the UTF-8 digest of old: a lone surrogate is not U+FFFD.
    expect(textDigest('\uD83D')).not.toBe(textDigest('\uFFFD'));
  });

  it('the journal recognises the text it left, read through the edits before and after the digest is worked out', async () => {
    const j = new UndoJournal(() => 10);
    const c = change('/a.txt', 'one\ntwo😀\n', [{ start: 4, end: 7, newText: 'TWO' }]);
    j.record('user', 'editls.edit', [c]);
    // Taken without latest(), which would work the digest out: the pending comparison first.
    const file = (j as unknown as { entries: { files: JournalFile[] }[] }).entries[0]!.files[0]!;
    expect(file.afterDigest).toBe('');
    expect(j.viewFor('user').holdsWhatEditlsLeft(file, c.after)).toBe(true);
    expect(j.viewFor('user').holdsWhatEditlsLeft(file, c.after.replace('TWO', 'TW0'))).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(file.afterDigest).toBe(textDigest(c.after));
    expect(j.viewFor('user').holdsWhatEditlsLeft(file, c.after)).toBe(true);
  });

  it('keeps nothing of the text before but its replaced spans (a long span is copied, not a view of the whole text)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const span = 'a replaced span of 30 chars ok';
    const heapNow = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const j = new UndoJournal(() => 10);
    const base = heapNow();
    (() => {
      // 20 MB before the span, made one flat string (as a file's text is) by the slice that reads it.
      const before = `${'x'.repeat(20_000_000)}${span}é`;
      j.record('user', 'editls.edit', [change('/big.txt', before, [{ start: 20_000_000, end: 20_000_030, newText: 'short' }])]);
      expect(j.latest('user')!.files[0]!.inverse).toEqual([{ start: 20_000_000, end: 20_000_005, newText: span }]);
    })();
    // Held on to, the text before would be 20 MB (40 MB in two bytes a character).
    expect(heapNow() - base).toBeLessThan(5_000_000);
    for (const s of ['', 'short', span, `${span}😀\ud800`, 'ü'.repeat(40)]) {
      expect(flatCopy(s)).toBe(s);
      expect(flatCopy(`..${s}..`.slice(2, -2))).toBe(s);
    }
  });

  it('works the digests out once the messages written have left (pendingWrites), or past its deadline', async () => {
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const fileOf = (j: UndoJournal) => (j as unknown as { entries: { files: JournalFile[] }[] }).entries[0]!.files[0]!;
    // An answer still on its way out: nothing is worked out until it has left.
    let leave!: () => void;
    let unsent: Promise<void> | undefined = new Promise<void>((resolve) => {
      leave = () => {
        unsent = undefined;
        resolve();
      };
    });
    const waiting = new UndoJournal(() => 10, () => unsent);
    const c = change('/a.txt', 'one\ntwo\n', [{ start: 4, end: 7, newText: 'TWO' }]);
    waiting.record('user', 'editls.edit', [c]);
    await turns(5);
    expect(fileOf(waiting).afterDigest).toBe('');
    // What asks for the entry still gets it settled at once.
    expect(waiting.viewFor('user').holdsWhatEditlsLeft(fileOf(waiting), c.after)).toBe(true);
    leave();
    await turns(3);
    expect(fileOf(waiting).afterDigest).toBe(textDigest(c.after));
    // A client that never reads: the digests go ahead after SETTLE_WAIT_MS (2 s).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const stuck = new UndoJournal(() => 10, () => new Promise<void>(() => undefined));
      stuck.record('user', 'editls.edit', [c]);
      await turns(3);
      expect(fileOf(stuck).afterDigest).toBe('');
      vi.advanceTimersByTime(1999);
      await turns(3);
      expect(fileOf(stuck).afterDigest).toBe('');
      vi.advanceTimersByTime(2);
      await turns(3);
      expect(fileOf(stuck).afterDigest).toBe(textDigest(c.after));
    } finally {
      vi.useRealTimers();
    }
  });
});
