import { describe, expect, it } from 'vitest';
import { editPresence } from '../../server/core/edits/editPresence.js';
import type { SpanEdit } from '../../server/core/text/spanEdit.js';

function apply(text: string, edits: SpanEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
function replaceAll(text: string, find: string, repl: string): SpanEdit[] {
  const edits: SpanEdit[] = [];
  for (let i = text.indexOf(find); i !== -1; i = text.indexOf(find, i + find.length)) edits.push({ start: i, end: i + find.length, newText: repl });
  return edits;
}

const before = 'alpha one\nbeta two\ngamma one\ndelta\nepsilon one\nzeta\neta one\ntheta\niota one\n';
const edits = replaceAll(before, 'one', 'ONE');
const expected = apply(before, edits);

describe('editPresence', () => {
  it('all edits plus a user change on another line: landed, with the other line', () => {
    const now = expected.replace('delta', 'delta typed');
    expect(editPresence(before, edits, expected, now)).toEqual({ kind: 'landed', otherLines: { first: 4, last: 4 } });
  });
  it('none of the edits, a user change: absent', () => {
    expect(editPresence(before, edits, expected, before.replace('zeta', 'zeta!')).kind).toBe('absent');
  });
  it('the first edit only (the rest not reported yet): partial', () => {
    expect(editPresence(before, edits, expected, apply(before, edits.slice(0, 1))).kind).toBe('partial');
  });
  it('the first edit only and a user change elsewhere: unclear, never absent', () => {
    const now = apply(before, edits.slice(0, 1)).replace('theta', 'THETA');
    expect(editPresence(before, edits, expected, now).kind).toBe('unclear');
  });
  it('a user change on the same line as an edit: never absent', () => {
    const now = expected.replace('gamma ONE', 'gamma ONE typed');
    expect(editPresence(before, edits, expected, now).kind).not.toBe('absent');
  });
  it('a repeated-character edit whose diff could align elsewhere: landed', () => {
    const b = 'x\naaa\naaa\naaa\ny\n';
    const e = [{ start: 2, end: 6, newText: '' }]; // delete the first "aaa\n"
    const exp = apply(b, e);
    const now = exp.replace('y', 'y typed');
    expect(editPresence(b, e, exp, now).kind).not.toBe('absent');
  });
  it('CRLF texts: an ending removed with a user change elsewhere', () => {
    const b = 'one\r\ntwo\nthree\nfour\n';
    const e = [{ start: 3, end: 4, newText: '' }];
    const exp = apply(b, e);
    expect(editPresence(b, e, exp, exp.replace('four', 'FOUR')).kind).toBe('landed');
    expect(editPresence(b, e, exp, b.replace('four', 'FOUR')).kind).toBe('absent');
  });
});
