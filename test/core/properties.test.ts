// fast-check properties: span edits keep the BOM and untouched endings and mean the intended text;
// EditSequence equals naive string splicing; computeEdit with replace_all equals split/join.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NormalizedText, normalizeEol, type NormReplacement } from '../../server/core/text/normalizedText.js';
import { EditSequence } from '../../server/core/text/editSequence.js';
import { applySpanEdits } from '../../server/core/text/spanEdit.js';
import { computeEdit } from '../../server/core/edits/edit.js';

const token = fc.constantFrom('a', ' ', '\t', '\n', '\r\n', '\r', 'é', '😀', '中', '\u0301');
const textArb = fc.tuple(fc.boolean(), fc.array(token, { maxLength: 30 })).map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.join(''));
const insertArb = fc.array(token, { maxLength: 6 }).map((parts) => parts.join(''));
const repSpecArb = fc.array(fc.record({ gap: fc.nat(6), len: fc.nat(5), text: insertArb }), { maxLength: 6 });

type RepSpec = { gap: number; len: number; text: string }[];

/** Moves an offset that falls inside a surrogate pair back to the pair's start. */
function snap(text: string, offset: number): number {
  const c = text.charCodeAt(offset);
  return offset > 0 && c >= 0xdc00 && c <= 0xdfff ? offset - 1 : offset;
}

/** Sorted, non-overlapping replacements (adjacent ones and insertions allowed) against `text`. */
function toReplacements(text: string, spec: RepSpec, normalizeText: boolean): NormReplacement[] {
  const reps: NormReplacement[] = [];
  let cursor = 0;
  for (const s of spec) {
    const start = snap(text, Math.min(text.length, cursor + s.gap));
    if (start < cursor) continue;
    const end = Math.max(start, snap(text, Math.min(text.length, start + s.len)));
    reps.push({ start, end, text: normalizeText ? normalizeEol(s.text) : s.text });
    cursor = end;
  }
  return reps;
}

/** Reference: left to right string splicing. */
function applyNaive(text: string, reps: readonly NormReplacement[]): string {
  let out = '';
  let cursor = 0;
  for (const r of reps) {
    out += text.slice(cursor, r.start) + r.text;
    cursor = r.end;
  }
  return out + text.slice(cursor);
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/** Line breaks of a text: [offset, break]. */
function breaks(s: string): [number, string][] {
  const out: [number, string][] = [];
  for (const m of s.matchAll(/\r\n|\r|\n/g)) out.push([m.index, m[0]]);
  return out;
}

describe('property: NormalizedText.spanEdits', () => {
  it('edits reproduce newOriginal, keep the BOM, keep untouched endings, and mean the intended text', () => {
    fc.assert(
      fc.property(textArb, repSpecArb, (original, spec) => {
        const n = NormalizedText.from(original);
        const reps = toReplacements(n.text, spec, true);
        const { edits, newOriginal } = n.spanEdits(reps);

        expect(applySpanEdits(original, edits)).toBe(newOriginal);
        expect(newOriginal.startsWith('\uFEFF')).toBe(original.startsWith('\uFEFF'));
        expect(normalizeEol(stripBom(newOriginal))).toBe(applyNaive(n.text, reps));

        // Requested spans in original offsets.
        const spans = reps.map((r) => [n.toOriginal(r.start), n.toOriginal(r.end)] as const);
        const shiftAt = (p: number): number => {
          let shift = 0;
          for (const e of edits) if (e.end <= p) shift += e.newText.length - (e.end - e.start);
          return shift;
        };
        for (const [at, br] of breaks(original)) {
          if (spans.some(([s, e]) => at + br.length > s && at < e)) continue; // inside a replaced span
          const np = at + shiftAt(at);
          expect(newOriginal.slice(np, np + br.length)).toBe(br);
        }

        // Each edit is minimal: it never keeps a common first character with what it replaces
        // (except for whole surrogate pairs and line breaks).
        for (const e of edits) {
          const old = original.slice(e.start, e.end);
          if (old.length > 0 && e.newText.length > 0 && !/[\r\n\uD800-\uDFFF]/.test(old[0]! + e.newText[0]!)) {
            expect(old[0]).not.toBe(e.newText[0]);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('property: EditSequence', () => {
  it('2-3 rounds equal naive string application, and the net replacements reproduce the result', () => {
    fc.assert(
      fc.property(textArb, fc.array(repSpecArb, { minLength: 2, maxLength: 3 }), (original, rounds) => {
        const n = NormalizedText.from(original);
        const seq = new EditSequence(n.text);
        let expected = n.text;
        for (const spec of rounds) {
          const reps = toReplacements(expected, spec, true);
          seq.replaceAll(reps);
          expected = applyNaive(expected, reps);
          expect(seq.text).toBe(expected);
        }
        const net = seq.toReplacements();
        let cursor = 0;
        for (const r of net) {
          expect(r.start).toBeGreaterThanOrEqual(cursor);
          expect(r.end).toBeGreaterThanOrEqual(r.start);
          cursor = r.end;
        }
        expect(applyNaive(n.text, net)).toBe(expected);
        const { edits, newOriginal } = n.spanEdits(net);
        expect(applySpanEdits(original, edits)).toBe(newOriginal);
        expect(normalizeEol(stripBom(newOriginal))).toBe(expected);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('property: computeEdit with replace_all', () => {
  it('equals split/join on the normalised text, keeps the BOM, and the edits reproduce newText', () => {
    const needleArb = fc.array(token, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));
    fc.assert(
      fc.property(textArb, needleArb, insertArb, (original, oldString, newString) => {
        const n = NormalizedText.from(original);
        const old = normalizeEol(oldString);
        const neu = normalizeEol(newString);
        const r = computeEdit(original, { oldString, newString, replaceAll: true }, 'f');
        if (old === neu) {
          expect(r.ok ? 'ok' : r.kind).toBe('no_change');
          return;
        }
        const count = n.text.split(old).length - 1;
        if (count === 0) {
          expect(r.ok ? 'ok' : r.kind).toBe('not_found');
          return;
        }
        if (!r.ok) throw new Error(r.message);
        expect(r.replacements).toBe(count);
        expect(applySpanEdits(original, r.edits)).toBe(r.newText);
        expect(r.newText.startsWith('\uFEFF')).toBe(original.startsWith('\uFEFF'));
        expect(normalizeEol(stripBom(r.newText))).toBe(n.text.split(old).join(neu));
      }),
      { numRuns: 2000 },
    );
  });
});
