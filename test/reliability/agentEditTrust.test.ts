// Attack: edits agents make with the wrong whitespace and copied diffs. (1) Random strReplace edits on
// random files (LF/CRLF/mixed, BOM, no final newline): every diff must apply with git apply and patch
// to the original and give the result. (2) Random Python files, with old/new re-indented by an agent
// (other width, tabs, shifted deeper or shallower): a tolerant match either writes a file that still
// compiles with new's lines at the right depth, or is refused; it never writes a mis-indented block.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeStrReplace } from '../../server/core/edits/strReplace.js';
import { unifiedDiff } from '../../server/core/edits/unifiedDiff.js';
import { applyWithTools, hasPatchTools, type PatchCase } from '../helpers/patchCheck.js';
import { report, size } from './budget.js';

const lineArb = fc.array(fc.constantFrom('a', 'b', ' ', '\t', '😀', '中', 'x = 1;', '\r'), { maxLength: 6 }).map((p) => p.join(''));

describe('every strReplace diff applies with git apply and patch', () => {
  it.skipIf(!hasPatchTools())('random files and edits', () => {
    const runs = size(3000, 300);
    const cases: PatchCase[] = [];
    fc.assert(
      fc.property(
        fc.record({ bom: fc.boolean(), eol: fc.constantFrom('\n', '\r\n', 'mixed'), final: fc.boolean(), lines: fc.array(lineArb, { minLength: 1, maxLength: 20 }) }),
        fc.array(fc.record({ line: fc.nat(30), neu: fc.array(lineArb, { maxLength: 3 }) }), { minLength: 1, maxLength: 4 }),
        (f, repls) => {
          const eol = (i: number) => (f.eol === 'mixed' ? (i % 3 ? '\n' : '\r\n') : f.eol);
          const before = (f.bom ? '\uFEFF' : '') + f.lines.map((l, i) => l + (i < f.lines.length - 1 || f.final ? eol(i) : '')).join('');
          const entries = repls
            .map((r) => f.lines[r.line % f.lines.length]!.replace(/\r/g, ''))
            .filter((old, k, all) => old.trim() !== '' && all.indexOf(old) === k)
            .map((old, k) => ({ old, new: repls[k]!.neu.join('\n').replace(/\r/g, ''), allowMultiple: true }));
          if (entries.length === 0) return;
          const r = computeStrReplace(before, entries, false, 'f');
          if (!r.ok) return;
          const name = `f${cases.length}.txt`;
          cases.push({ name, before: Buffer.from(before), after: Buffer.from(r.newText), patch: unifiedDiff(name, before, r.newText, r.edits) });
        },
      ),
      { numRuns: runs, seed: 1111 },
    );
    const failures: ReturnType<typeof applyWithTools> = [];
    for (let i = 0; i < cases.length; i += 500) failures.push(...applyWithTools(cases.slice(i, i + 500)));
    report('diffs apply with git apply and patch', { diffs: cases.length, tools: 2, failures: failures.length });
    expect(failures).toEqual([]);
  });
});

/** Python files: a block of nested statements at some depth, in a style of its own. */
function compiles(sources: readonly string[]): boolean[] | undefined {
  try {
    const out = execFileSync(
      'python3',
      ['-c', 'import sys, json\nres = []\nfor s in json.load(sys.stdin):\n  try:\n    compile(s, "t.py", "exec"); res.append(True)\n  except SyntaxError:\n    res.append(False)\nprint(json.dumps(res))'],
      { input: JSON.stringify(sources), maxBuffer: 1 << 28 },
    );
    return JSON.parse(out.toString()) as boolean[];
  } catch {
    return undefined;
  }
}

describe('re-indentation never writes a mis-indented Python block', () => {
  it('random depths, widths and tabs', () => {
    const runs = size(5000, 400);
    const unit = (style: { tabs: boolean; width: number }) => (style.tabs ? '\t' : ' '.repeat(style.width));
    const styleArb = fc.record({ tabs: fc.boolean(), width: fc.constantFrom(2, 4, 8) });
    const results: { after: string; expected: string }[] = [];
    let refused = 0;
    let exact = 0;
    fc.assert(
      fc.property(styleArb, styleArb, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.nat(1000), (file, agent, depth, agentDepth, seed) => {
        const f = unit(file);
        const a = unit(agent);
        const ind = (u: string, n: number) => u.repeat(n);
        // The file: nested defs/ifs down to `depth`, then the block.
        const head = Array.from({ length: depth }, (_, i) => `${ind(f, i)}${i % 2 ? 'if True' : `def g${i}()`}:`).join('\n');
        const block = (u: string, d: number, body: string[]) => [`${ind(u, d)}if x${seed}:`, ...body.map((b) => `${ind(u, d + 1)}${b}`)].join('\n');
        const before = `x${seed} = 1\n${head}${depth ? '\n' : ''}${block(f, depth, ['y = 1', 'z = 2'])}\n${ind(f, depth)}pass\n`;
        const old = block(a, agentDepth, ['y = 1', 'z = 2']);
        const neu = `${block(a, agentDepth, ['y = 1', 'for i in range(3):', `${a}z = i`])}\n${ind(a, agentDepth)}w = 3`;
        const r = computeStrReplace(before, [{ old, new: neu, allowMultiple: false }], false, 'f.py');
        const expected = before.replace(block(f, depth, ['y = 1', 'z = 2']), () => `${block(f, depth, ['y = 1', 'for i in range(3):', `${f}z = i`])}\n${ind(f, depth)}w = 3`);
        if (!r.ok) {
          expect(r.kind).toBe('not_found');
          refused++;
          return;
        }
        // An exact match (old's first line copied without its indentation, the others coinciding) writes
        // new as given, by contract: only the tolerant tiers re-indent, so only they are judged here.
        if (r.details[0]!.matchedBy === 'exact') {
          exact++;
          return;
        }
        results.push({ after: r.newText, expected });
      }),
      { numRuns: runs, seed: 2222 },
    );
    const wrong = results.filter((x) => x.after !== x.expected);
    const ok = compiles(results.map((x) => x.after));
    const notCompiling = ok === undefined ? 'n/a' : ok.filter((c) => !c).length;
    report('strReplace re-indentation (Python)', { edits: runs, reindented: results.length, exactNotJudged: exact, refused, wrongIndentation: wrong.length, notCompiling });
    expect(wrong).toEqual([]);
    if (ok !== undefined) expect(ok.every(Boolean)).toBe(true);
  });
});
