// Owns preserve-case replacement (VS Code's "Preserve Case" rules): the replacement takes the case
// shape of the text it replaces — all upper, all lower, a capital first letter — and `-`/`_`-joined
// words are matched part by part when both sides have the same number of parts.

/**
 * The replacement for `matched`, in matched's case shape. A match with no cased letter (digits,
 * punctuation, CJK) keeps the replacement as given.
 */
export function preserveCase(matched: string, replacement: string): string {
  if (matched === '' || replacement === '') return replacement;
  const byHyphen = splitsAlike(matched, replacement, '-');
  const byUnderscore = splitsAlike(matched, replacement, '_');
  // One separator only: word by word. Both (or neither): the match as a whole.
  if (byHyphen !== byUnderscore) return partByPart(matched, replacement, byHyphen ? '-' : '_');
  if (!hasCasedLetter(matched)) return replacement;
  if (matched === matched.toUpperCase()) return replacement.toUpperCase();
  if (matched === matched.toLowerCase()) return replacement.toLowerCase();
  const first = firstChar(matched);
  const rest = replacement.slice(firstChar(replacement).length);
  if (first !== first.toLowerCase() && first === first.toUpperCase()) return firstChar(replacement).toUpperCase() + rest;
  if (first !== first.toUpperCase()) return firstChar(replacement).toLowerCase() + rest;
  return replacement;
}

/** Both contain `sep` and split into as many parts around it. */
function splitsAlike(matched: string, replacement: string, sep: string): boolean {
  return matched.includes(sep) && replacement.includes(sep) && matched.split(sep).length === replacement.split(sep).length;
}

function partByPart(matched: string, replacement: string, sep: string): string {
  const parts = matched.split(sep);
  return replacement
    .split(sep)
    .map((part, i) => preserveCase(parts[i] ?? '', part))
    .join(sep);
}

/** A letter that has distinct upper and lower case forms. */
function hasCasedLetter(s: string): boolean {
  return s.toUpperCase() !== s.toLowerCase();
}

/** The first character (a whole surrogate pair for an astral one). */
function firstChar(s: string): string {
  const cp = s.codePointAt(0);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}
