// The ripgrep prefilter of editls.replaceInFiles never skips a file the JavaScript search matches:
// random files (LF, CRLF, BOM, UTF-16, accents, emoji, CJK, mixed case) and random literal searches
// (case-sensitive and not, with line breaks) on a real temp folder and the real ripgrep.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { literalPrefilter } from '../../server/core/edits/replaceInFiles.js';
import { computeSearchAndReplace } from '../core/support.js';
import { listReplaceCandidates } from '../../server/workspace/search/replaceCandidates.js';
import { resolveWorkspacePath } from '../../server/workspace/disk/paths.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const UNIT = fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'ß', 'K', 'k', '\u212a', 'ſ', 's', 'S', '😀', '名', ' ', '\n', '\r\n', 'İ', 'i', 'ı', 'I');

describe('replaceInFiles prefilter', () => {
  it('lists every file whose text the search matches (200 random cases)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(UNIT, { maxLength: 12 }).map((u) => u.join('')), fc.constantFrom('utf8', 'bom', 'utf16')), { minLength: 1, maxLength: 5 }),
        fc.array(UNIT, { minLength: 1, maxLength: 3 }).map((u) => u.join('')),
        fc.boolean(),
        async (files, search, ignoreCase) => {
          const ws = tempWorkspace({});
          try {
            files.forEach(([text, enc], i) => {
              const bytes =
                enc === 'utf16'
                  ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
                  : Buffer.concat([enc === 'bom' ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
              ws.write(`f${i}.txt`, bytes);
            });
            const scope = await resolveWorkspacePath('.', [ws.root], { directories: true });
            if (!scope.ok) throw new Error(scope.message);
            const prefilter = literalPrefilter(search, false, ignoreCase);
            const listed = await listReplaceCandidates({ documents: { all: () => [] } }, { scope, respectIgnore: true, ...(prefilter ? { prefilter } : {}), signal: new AbortController().signal });
            if (!listed.ok) throw new Error(listed.message);
            files.forEach(([text], i) => {
              const r = computeSearchAndReplace(text, { search, replace: 'x', useRegex: false, ignoreCase }, 'f');
              if (r.ok && r.replacements > 0) expect(listed.files).toContain(ws.file(`f${i}.txt`));
            });
          } finally {
            ws.cleanup();
          }
        },
      ),
      { numRuns: 200, seed: 1313 },
    );
  }, 120_000);

  it('only exact literals narrow: a regex never does, a non-ASCII case-insensitive search never does', () => {
    expect(literalPrefilter('foo(', true, false)).toBeUndefined();
    expect(literalPrefilter('Straße', false, true)).toBeUndefined();
    expect(literalPrefilter('Strasse', false, true)).toEqual({ text: 'Strasse', ignoreCase: true });
    expect(literalPrefilter('ab\r\nlonger line\nc', false, false)).toEqual({ text: 'longer line', ignoreCase: false });
    expect(literalPrefilter('\n\n', false, false)).toBeUndefined();
  });
});
