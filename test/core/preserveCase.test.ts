// preserveCase: VS Code's preserve-case rules as a table (its own cases: whole-word upper/lower/
// capitalised, mixed case, `-` and `_` parts), plus CJK, digits, emoji and astral letters.
import { describe, expect, it } from 'vitest';
import { preserveCase } from '../../server/core/edits/preserveCase.js';

describe('preserveCase', () => {
  const cases: [matched: string, replacement: string, expected: string][] = [
    ['abc', 'Def', 'def'],
    ['Abc', 'Def', 'Def'],
    ['ABC', 'Def', 'DEF'],
    ['aBc', 'Def', 'def'],
    ['AbC', 'Def', 'Def'],
    ['aBC', 'Def', 'def'],
    ['aBc', 'DeF', 'deF'],
    ['Foo-Bar', 'newfoo-newbar', 'Newfoo-Newbar'],
    ['Foo-Bar-Abc', 'newfoo-newbar-newabc', 'Newfoo-Newbar-Newabc'],
    ['Foo-Bar-abc', 'newfoo-newbar', 'Newfoo-newbar'],
    ['foo-Bar', 'newfoo-newbar', 'newfoo-Newbar'],
    ['foo-BAR', 'newfoo-newbar', 'newfoo-NEWBAR'],
    ['foO-BAR', 'NewFoo-NewBar', 'newFoo-NEWBAR'],
    ['Foo_Bar', 'newfoo_newbar', 'Newfoo_Newbar'],
    ['Foo_Bar_Abc', 'newfoo_newbar_newabc', 'Newfoo_Newbar_Newabc'],
    ['Foo_Bar_abc', 'newfoo_newbar', 'Newfoo_newbar'],
    ['Foo_Bar-abc', 'newfoo_newbar-abc', 'Newfoo_newbar-abc'],
    ['foo_Bar', 'newfoo_newbar', 'newfoo_Newbar'],
    ['Foo_BAR', 'newfoo_newbar', 'Newfoo_NEWBAR'],
    ['FOO_BAR', 'new_name', 'NEW_NAME'],
    ['fooBar', 'NewName', 'newName'],
    ['FooBar', 'newName', 'NewName'],
    // no cased letter: the replacement as given (VS Code would upper-case it)
    ['123', 'abc', 'abc'],
    ['名前', 'Name', 'Name'],
    ['😀', 'Smile', 'Smile'],
    // cased letters beyond ASCII and the BMP
    ['ÉCOLE', 'lycée', 'LYCÉE'],
    ['École', 'lycée', 'Lycée'],
    ['straße', 'WEG', 'weg'],
    ['𐐀𐐁', 'abc', 'ABC'], // Deseret capitals (astral)
    ['𐐨𐐩', 'ABC', 'abc'],
    ['𐐀𐐩', 'abc', 'Abc'],
    ['Abc', '𐐨bc', '𐐀bc'],
    // CJK before letters
    ['名前Foo', 'x', 'x'], // mixed case, first character uncased: as given
    ['', 'abc', 'abc'],
    ['abc', '', ''],
  ];
  for (const [matched, replacement, expected] of cases) {
    it(`${JSON.stringify(matched)} / ${JSON.stringify(replacement)} -> ${JSON.stringify(expected)}`, () => {
      expect(preserveCase(matched, replacement)).toBe(expected);
    });
  }
});
