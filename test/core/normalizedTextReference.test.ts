// NormalizedText against a reference: the straightforward implementation it had before it was tuned
// for 100,000-edit files (count everything, regex-normalise, binary-search each offset, a pass per
// rule, one join). Same view, same offsets, and exactly the same edits and text for any replacements,
// given as objects (spanEdits) or column-wise with a shared text and an offset (spanEditsOf).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NormalizedText, normalizeEol, type LineEnding, type NormReplacement } from '../../server/core/text/normalizedText.js';
import type { SpanEdit } from '../../server/core/text/spanEdit.js';

class Reference {
  readonly text: string;
  readonly hasBom: boolean;
  readonly eol: LineEnding;
  readonly mixedEndings: boolean;
  private readonly crlfAt: number[] = [];

  constructor(readonly original: string) {
    this.hasBom = original.charCodeAt(0) === 0xfeff;
    const body = this.hasBom ? original.slice(1) : original;
    let loneCr = 0;
    let lfTotal = 0;
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c === 10) lfTotal++;
      if (c !== 13) continue;
      if (body.charCodeAt(i + 1) === 10) this.crlfAt.push(i - this.crlfAt.length);
      else loneCr++;
    }
    const crlf = this.crlfAt.length;
    const lf = lfTotal - crlf;
    this.eol = crlf > lf && crlf >= loneCr ? '\r\n' : loneCr > lf && loneCr > crlf ? '\r' : '\n';
    this.mixedEndings = [lf, crlf, loneCr].filter((n) => n > 0).length > 1;
    this.text = body.replace(/\r\n?/g, '\n');
  }

  toOriginal(offset: number): number {
    return offset + (this.hasBom ? 1 : 0) + this.crlfAt.filter((at) => at < offset).length;
  }

  spanEdits(replacements: readonly NormReplacement[]): { edits: SpanEdit[]; newOriginal: string } {
    const text = this.text;
    const sorted = [...replacements].sort((a, b) => a.start - b.start || a.end - b.end);
    const groups: { start: number; end: number; text: string }[] = [];
    let prevEnd = 0;
    for (const r of sorted) {
      if (r.start < prevEnd || r.end < r.start || r.end > text.length || r.start < 0) throw new Error('bad replacement');
      prevEnd = r.end;
      const last = groups[groups.length - 1];
      if (last && last.end === r.start) {
        last.end = r.end;
        last.text += r.text;
      } else groups.push({ ...r });
    }
    const edits: SpanEdit[] = [];
    for (const g of groups) {
      const newText = normalizeEol(g.text);
      const oldLen = g.end - g.start;
      const max = Math.min(oldLen, newText.length);
      let p = 0;
      while (p < max && text[g.start + p] === newText[p]) p++;
      if (p > 0 && /[\uD800-\uDBFF]/.test(newText[p - 1]!)) p--;
      let q = 0;
      while (q < max - p && text[g.end - 1 - q] === newText[newText.length - 1 - q]) q++;
      if (q > 0 && /[\uDC00-\uDFFF]/.test(newText[newText.length - q]!)) q--;
      if (oldLen - p - q === 0 && newText.length - p - q === 0) continue;
      edits.push({
        start: this.toOriginal(g.start + p),
        end: this.toOriginal(g.end - q),
        newText: newText.slice(p, newText.length - q).split('\n').join(this.eol),
      });
    }
    const original = this.original;
    for (const e of edits) {
      const before = original[e.start - 1];
      const after = original[e.end];
      const first = e.newText === '' ? after : e.newText[0];
      if (before === '\r' && first === '\n') e.newText = '\n' + e.newText;
      if (after === '\n' && e.newText.endsWith('\r')) e.newText += '\n';
    }
    const parts: string[] = [];
    let cursor = 0;
    for (const e of edits) {
      parts.push(original.slice(cursor, e.start), e.newText);
      cursor = e.end;
    }
    parts.push(original.slice(cursor));
    return { edits, newOriginal: parts.join('') };
  }
}

const token = fc.constantFrom('a', 'b', 'ab', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '\uD83D', '中', '\u0301', '\uFEFF');
const textArb = fc.tuple(fc.boolean(), fc.array(token, { maxLength: 40 })).map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.join(''));
const newTextArb = fc.array(token, { maxLength: 5 }).map((parts) => parts.join(''));
/** Gaps and lengths of sorted replacements; gap 0 makes neighbours touch (merged groups). */
const specArb = fc.array(fc.record({ gap: fc.nat(5), len: fc.nat(4), text: newTextArb }), { maxLength: 8 });

function layout(length: number, spec: { gap: number; len: number; text: string }[], from = 0): NormReplacement[] {
  const reps: NormReplacement[] = [];
  let cursor = from;
  for (const s of spec) {
    const start = cursor + s.gap;
    const end = start + s.len;
    if (end > length) break;
    reps.push({ start, end, text: s.text });
    cursor = end;
  }
  return reps;
}

function outcome(run: () => { edits: SpanEdit[]; newOriginal: string }): { edits: SpanEdit[]; newOriginal: string } | 'throws' {
  try {
    return run();
  } catch {
    return 'throws';
  }
}

describe('property: NormalizedText equals the reference implementation', () => {
  it('the normalised view and every offset mapping', () => {
    fc.assert(
      fc.property(textArb, (original) => {
        const n = NormalizedText.from(original);
        const ref = new Reference(original);
        expect([n.length, n.hasBom, n.eol, n.mixedEndings]).toEqual([ref.text.length, ref.hasBom, ref.eol, ref.mixedEndings]);
        expect(n.text).toBe(ref.text);
        expect(n.body).toBe(ref.hasBom ? original.slice(1) : original);
        for (let i = 0; i <= n.text.length; i++) expect(n.toOriginal(i)).toBe(ref.toOriginal(i));
        // Body offsets (never between the two characters of a CRLF) -> normalised offsets.
        const body = n.body;
        const offsets: number[] = [];
        for (let o = 0; o <= body.length; o++) if (!(body[o - 1] === '\r' && body[o] === '\n')) offsets.push(o);
        const mapped = Int32Array.from(offsets);
        n.bodyOffsetsToText(mapped);
        expect([...mapped]).toEqual(offsets.map((o) => o - (body.slice(0, o).match(/\r\n/g)?.length ?? 0)));
      }),
      { numRuns: 1500, seed: 1701 },
    );
  });

  it('the ending counts on long texts, where the \\n count stops early', () => {
    for (const original of ['a\r\n'.repeat(50) + 'b\n'.repeat(49), 'a\r\n'.repeat(50) + 'b\n'.repeat(51), 'x\r'.repeat(30) + 'y\n'.repeat(30) + 'z\r\n'.repeat(29)]) {
      const n = NormalizedText.from(original);
      const ref = new Reference(original);
      expect([n.eol, n.mixedEndings]).toEqual([ref.eol, ref.mixedEndings]);
    }
  });

  it('spanEdits: the same edits and text, sorted or shuffled', () => {
    fc.assert(
      fc.property(textArb, specArb, fc.boolean(), (original, spec, reverse) => {
        const n = NormalizedText.from(original);
        const reps = layout(n.text.length, spec);
        const given = reverse ? [...reps].reverse() : reps;
        expect(outcome(() => n.spanEdits(given))).toEqual(outcome(() => new Reference(original).spanEdits(given)));
      }),
      { numRuns: 3000, seed: 2001 },
    );
  });

  it('spanEditsOf: one shared text, column-wise, from an offset (a scan of a line range)', () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.record({ gap: fc.nat(5), len: fc.nat(4) }), { maxLength: 10 }), newTextArb, fc.nat(6), (original, gaps, shared, from) => {
        const n = NormalizedText.from(original);
        const offset = Math.min(from, n.text.length);
        const reps = layout(n.text.length, gaps.map((g) => ({ ...g, text: shared })), offset);
        const starts = Int32Array.from(reps, (r) => r.start - offset);
        const ends = Int32Array.from(reps, (r) => r.end - offset);
        const expected = outcome(() => new Reference(original).spanEdits(reps));
        expect(outcome(() => n.spanEditsOf(starts, ends, shared, { offset }))).toEqual(expected);
        expect(outcome(() => n.spanEditsOf(starts, ends, reps.map((r) => r.text), { offset }))).toEqual(expected);
      }),
      { numRuns: 3000, seed: 2002 },
    );
  });

  it('spanEditsOf with `replaced`: every occurrence of a slice (indexOf), each replaced, adjacent ones merged', () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(5), newTextArb, fc.nat(6), (original, at, len, shared, from) => {
        const n = NormalizedText.from(original);
        if (n.text.length === 0) return;
        const offset = Math.min(from, n.text.length - 1);
        const start = offset + (at % (n.text.length - offset));
        const needle = n.text.slice(start, start + 1 + len);
        const scope = n.text.slice(offset);
        const found: number[] = [];
        for (let i = scope.indexOf(needle); i !== -1; i = scope.indexOf(needle, i + needle.length)) found.push(i);
        const ends = found.map((s) => s + needle.length);
        const expected = outcome(() => new Reference(original).spanEdits(found.map((s) => ({ start: offset + s, end: offset + s + needle.length, text: shared }))));
        expect(outcome(() => n.spanEditsOf(found, ends, shared, { offset, replaced: needle }))).toEqual(expected);
      }),
      { numRuns: 3000, seed: 2003 },
    );
  });

  it('spanEditsOf with one `replaced` text per range (what a regex scan reports), repeated or not', () => {
    // New texts from a small set, so that equal new texts meet different replaced texts.
    const fewTexts = fc.array(fc.record({ gap: fc.nat(3), len: fc.nat(3), text: fc.constantFrom('', 'a', 'ab', 'b', '\n', '😀') }), { maxLength: 10 });
    fc.assert(
      fc.property(textArb, fc.oneof(specArb, fewTexts), fc.nat(6), (original, spec, from) => {
        const n = NormalizedText.from(original);
        const offset = Math.min(from, n.text.length);
        const reps = layout(n.text.length, spec, offset);
        const starts = Int32Array.from(reps, (r) => r.start - offset);
        const ends = Int32Array.from(reps, (r) => r.end - offset);
        const replaced = reps.map((r) => n.text.slice(r.start, r.end));
        const expected = outcome(() => new Reference(original).spanEdits(reps));
        expect(outcome(() => n.spanEditsOf(starts, ends, reps.map((r) => r.text), { offset, replaced }))).toEqual(expected);
      }),
      { numRuns: 3000, seed: 2004 },
    );
  });

  it('a `replaced` text that cannot fit the range is a programming error', () => {
    const n = NormalizedText.from('abc abc');
    expect(() => n.spanEditsOf([0], [3], 'x', { replaced: 'ab' })).toThrow(/cannot hold/);
    expect(() => n.spanEditsOf([0, 4], [3, 7], 'x', { replaced: ['abc', 'ab'] })).toThrow(/cannot hold/);
  });

  it('bad or overlapping replacements throw, as before', () => {
    const n = NormalizedText.from('abc\r\ndef');
    for (const reps of [
      [{ start: 0, end: 3, text: '' }, { start: 2, end: 4, text: '' }],
      [{ start: 2, end: 1, text: '' }],
      [{ start: 0, end: 99, text: '' }],
      [{ start: 0, end: 1, text: 'x' }, { start: 1, end: 0, text: '' }],
    ]) {
      expect(() => n.spanEdits(reps)).toThrow();
      expect(() => new Reference('abc\r\ndef').spanEdits(reps)).toThrow();
    }
  });
});
