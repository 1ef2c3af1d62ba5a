// The preview hint's wording: a reader should recognise the change (whole words, or the changed line
// when no word changes), not the minimal span the edit carries (Hello -> Hey is not "llo" -> "y").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeChange, previewDiagnostics } from '../../server/protocol/previewProto.js';

const at = (text: string, old: string, newText: string, from = 0) => {
  const start = text.indexOf(old, from);
  return { start, end: start + old.length, newText };
};

describe('preview hints describe whole words', () => {
  it.each([
    ['Hello world\n', at('Hello world\n', 'llo', 'y'), 'replace "Hello" with "Hey"'],
    ['say Hello there\n', at('say Hello there\n', 'llo', 'y'), 'replace "Hello" with "Hey"'],
    ['fooBar = 1\n', at('fooBar = 1\n', 'Bar', 'Baz'), 'replace "fooBar" with "fooBaz"'],
    ['Hello\n', { start: 5, end: 5, newText: ' world' }, 'insert " world"'],
    ['Hello\n', { start: 5, end: 5, newText: 'Kitty' }, 'replace "Hello" with "HelloKitty"'],
    ['a  b\n', at('a  b\n', 'a  b', 'a b'), 'replace "a  b" with "a b"'],
    ['x = 1;  \ny\n', at('x = 1;  \ny\n', '  ', ''), 'replace "x = 1;  " with "x = 1;"'],
    ['tab\there\r\nz\r\n', at('tab\there\r\nz\r\n', '\t', ' '), 'replace "tab→here" with "tab here"'],
    ['café crème\n', at('café crème\n', 'é c', 'e c'), 'replace "café crème" with "cafe crème"'],
    ['名前を変更\n', at('名前を変更\n', '変更', '変える'), 'replace "名前を変更" with "名前を変える"'],
    ['a 😀 b\n', at('a 😀 b\n', '😀', '🙂'), 'replace "a 😀 b" with "a 🙂 b"'],
    ['keep\nold line\n', at('keep\nold line\n', 'old line\n', ''), 'delete "old line⏎"'],
    ['', { start: 0, end: 0, newText: 'new' }, 'insert "new"'],
  ])('%j', (text, edit, expected) => {
    expect(describeChange(text, edit)).toBe(expected);
  });

  it('the diagnostic keeps the exact range and says the word', () => {
    const [d] = previewDiagnostics('p1', 'editls.edit', 'Hello world\n', [at('Hello world\n', 'llo', 'y')], 'utf-16');
    expect(d!.range).toEqual({ start: { line: 0, character: 2 }, end: { line: 0, character: 5 } });
    expect(d!.message).toBe('preview p1 (editls.edit): replace "Hello" with "Hey"; apply or discard it with a code action');
  });

  it('a word inside a huge line is widened at most 40 characters each way', () => {
    const text = 'x'.repeat(1_000_000);
    const t0 = performance.now();
    expect(describeChange(text, { start: 500_000, end: 500_001, newText: 'y' })).toBe(`replace "${'x'.repeat(39)}…" with "${'x'.repeat(39)}…"`);
    expect(performance.now() - t0).toBeLessThan(50);
  });
});

describe('preview hints on any text', () => {
  it('are one line of bounded length and never throw (surrogates, CRLF, lone halves)', () => {
    const alphabet = fc.constantFrom('a', 'Z', '_', '1', ' ', '\t', '\n', '\r', 'é', '名', '😀', '\ud800', '\udc00', '-', '.');
    const textAndEdit = fc
      .array(alphabet, { maxLength: 60 })
      .map((cs) => cs.join(''))
      .chain((text) =>
        fc.tuple(fc.constant(text), fc.nat({ max: text.length }), fc.nat({ max: text.length }), fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(''))),
      );
    fc.assert(
      fc.property(textAndEdit, ([text, a, b, newText]) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        if (start === end && newText === '') return;
        const d = describeChange(text, { start, end, newText });
        expect(d).not.toMatch(/[\r\n]/);
        expect([...d].length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 2000 },
    );
  });
});
