// Owns recognising line-number prefixes that agents copy from numbered listings (editls.searchFiles'
// `  12 | text`, `cat -n`'s `    12\ttext`, `L12: text`, `    12→text`) and removing them, when every
// line of a text carries the same kind; the edits use the stripped text only as a last resort.

export type PrefixStyle = 'searchFiles' | 'cat -n' | 'L12:' | 'arrow';

const STYLES: readonly { style: PrefixStyle; re: RegExp }[] = [
  { style: 'searchFiles', re: /^ *\d+ \|(?: |$)/ },
  { style: 'cat -n', re: /^ *\d+\t/ },
  { style: 'L12:', re: /^L\d+:(?: |$)/ },
  // \u2192 is →, escaped: a regex literal is the one place esbuild leaves a non-ASCII character, and
  // one makes V8 hold the whole bundle as a two-byte string (esbuild.mjs refuses such a bundle).
  { style: 'arrow', re: /^ *\d+\u2192/ },
];

/**
 * `text` without its line-number prefixes when every line (a last empty line after a final break
 * aside) carries one of the same style, else undefined. Lines use \n breaks.
 */
export function stripLineNumbers(text: string, only?: PrefixStyle): { text: string; style: PrefixStyle } | undefined {
  const lines = text.split('\n');
  const last = lines.length > 1 && lines[lines.length - 1] === '' ? lines.pop() : undefined;
  for (const { style, re } of STYLES) {
    if (only !== undefined && style !== only) continue;
    if (!lines.every((line) => re.test(line))) continue;
    const stripped = lines.map((line) => line.replace(re, ''));
    if (last !== undefined) stripped.push(last);
    return { text: stripped.join('\n'), style };
  }
  return undefined;
}

export type PrefixReport = {
  /** Which listing the prefixes came from. */
  lineNumberPrefixes: PrefixStyle;
  /** Whether new carried them too (and lost them). */
  strippedFromNew: boolean;
};
