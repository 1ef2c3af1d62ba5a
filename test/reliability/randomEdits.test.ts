// Random edit sequences over every edit command, on open buffers and closed files with CRLF, LF,
// mixed endings, BOMs, UTF-16 and astral text: the WorkspaceEdit a client applies must equal the
// text the server then leaves in the buffer or on disk, with endings, BOM and encoding preserved.
// Seeded fast-check, bounded in count and time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { applyWorkspaceEdit, CAPS_HELIX, TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size, FULL } from './budget.js';

type FileSpec = { rel: string; open: boolean; encoding: 'utf-8' | 'utf-16le'; bom: boolean; eol: '\n' | '\r\n' | 'mixed' };
const SPECS: FileSpec[] = [
  { rel: 'open-lf.ts', open: true, encoding: 'utf-8', bom: false, eol: '\n' },
  { rel: 'open-crlf.txt', open: true, encoding: 'utf-8', bom: false, eol: '\r\n' },
  { rel: 'open-mixed.md', open: true, encoding: 'utf-8', bom: false, eol: 'mixed' },
  { rel: 'disk-lf.ts', open: false, encoding: 'utf-8', bom: false, eol: '\n' },
  { rel: 'disk-crlf-bom.cs', open: false, encoding: 'utf-8', bom: true, eol: '\r\n' },
  { rel: 'disk-mixed.txt', open: false, encoding: 'utf-8', bom: false, eol: 'mixed' },
  { rel: 'disk-utf16.txt', open: false, encoding: 'utf-16le', bom: true, eol: '\r\n' },
];
const WORDS = ['alpha', 'beta', 'é', '😀', '中文', '𠀀', 'x\ty', '  ', 'e\u0301', '$&', '$1', '👨‍👩‍👧', 'z'];

function initial(spec: FileSpec, seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) lines.push(`${WORDS[(seed + i) % WORDS.length]} line ${i} ${WORDS[(seed * 3 + i) % WORDS.length]}`);
  if (spec.eol === 'mixed') return lines.map((l, i) => l + (i % 3 === 0 ? '\r\n' : '\n')).join('');
  return lines.join(spec.eol) + (seed % 2 ? spec.eol : '');
}

function encode(spec: FileSpec, text: string): Buffer {
  if (spec.encoding === 'utf-16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return Buffer.concat([spec.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

function decode(spec: FileSpec, bytes: Buffer): { text: string; bomOk: boolean } {
  if (spec.encoding === 'utf-16le') return { text: bytes.subarray(2).toString('utf16le'), bomOk: bytes[0] === 0xff && bytes[1] === 0xfe };
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { text: bytes.subarray(hasBom ? 3 : 0).toString('utf8'), bomOk: hasBom === spec.bom };
}


/** A character boundary in `text` at or before `i`: never inside a surrogate pair or a CRLF. */
function boundary(text: string, i: number): number {
  let o = Math.max(0, Math.min(text.length, i));
  while (o > 0 && ((text.charCodeAt(o) >= 0xdc00 && text.charCodeAt(o) <= 0xdfff) || (text[o] === '\n' && text[o - 1] === '\r'))) o--;
  return o;
}

function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, col: lines[lines.length - 1]!.length + 1 };
}

let ws: TempWorkspace;
let client: TestClient;
const current = new Map<string, string>();
/** Per file, the bytes (closed files) or text (open buffers) before each applied change, newest last: what undo must restore. */
const history = new Map<string, (string | Buffer)[]>();
const UNDO_DEPTH = 20;

beforeAll(async () => {
  ws = tempWorkspace({});
  SPECS.forEach((s, i) => {
    const text = initial(s, i);
    ws.write(s.rel, encode(s, text));
    current.set(s.rel, text);
  });
  client = await TestClient.start({ root: ws.root, capabilities: CAPS_HELIX });
  for (const s of SPECS) if (s.open) await client.open(s.rel, current.get(s.rel));
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
});

describe('random edit sequences', () => {
  it('WorkspaceEdit applied by the client == buffer / disk text, endings, BOM and encoding kept', async () => {
    const served = client.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    const commands = ['editls.edit', 'editls.strReplace', 'editls.searchAndReplace', 'editls.replaceRange', 'editls.insert', 'editls.undo'].filter((c) => served.includes(c));
    const steps = size(10_000, 250);
    const stats = { steps: 0, applied: 0, expectedFailures: 0, mismatches: 0, endingLost: 0, bomOrEncodingLost: 0, unexpectedErrors: 0, undone: 0, undoNotExact: 0 };
    const state = (spec: FileSpec): string | Buffer => (spec.open ? client.bufferText(spec.rel)! : readFileSync(ws.file(spec.rel)));
    const byCommand: Record<string, number> = {};
    const problems: string[] = [];
    const step = fc.record({ file: fc.nat(), command: fc.nat(), a: fc.nat(), b: fc.nat(40), text: fc.array(fc.constantFrom(...WORDS, '\n', ' ', 'q'), { maxLength: 4 }).map((w) => w.join('')) });
    await fc.assert(
      fc.asyncProperty(step, async ({ file, command, a, b, text }) => {
        if (stats.applied >= steps) return;
        const spec = SPECS[file % SPECS.length]!;
        const cmd = commands[command % commands.length]!;
        const before = current.get(spec.rel)!;
        const norm = before.replace(/\r\n?/g, '\n');
        const start = boundary(before, a % (before.length + 1));
        const end = boundary(before, start + 1 + b);
        const slice = before.slice(start, end);
        const sliceNorm = slice.replace(/\r\n?/g, '\n');
        // a third of the steps grow the text around the slice, so files never shrink to nothing
        // and the ones after a file grew past 4,000 characters only shrink it (bounded sizes keep steps fast)
        if (a % 3 === 0 && slice !== '' && before.length < 1500) text = `${sliceNorm}${text}${sliceNorm}`;
        if (before.length > 4000) text = [...text].slice(0, 1).join('');
        let args: Record<string, unknown>;
        let preview: Record<string, unknown>;
        const past = history.get(spec.rel) ?? [];
        if (cmd === 'editls.undo') {
          // Undo must give back exactly the bytes (or buffer text) before the file's last change.
          stats.steps++;
          byCommand[cmd] = (byCommand[cmd] ?? 0) + 1;
          try {
            await client.exec(cmd, { path: spec.rel });
          } catch (e: any) {
            if (e?.data?.kind === 'no_change' && past.length === 0) stats.expectedFailures++;
            else {
              stats.unexpectedErrors++;
              problems.push(`undo on ${spec.rel}: ${e?.data?.kind} ${e?.message}`);
            }
            return;
          }
          const want = past.pop();
          const now = state(spec);
          if (want === undefined || (Buffer.isBuffer(want) ? !Buffer.isBuffer(now) || !want.equals(now) : want !== now)) {
            stats.undoNotExact++;
            problems.push(`undo on ${spec.rel} did not restore the prior ${spec.open ? 'text' : 'bytes'}`);
          }
          stats.undone++;
          stats.applied++;
          current.set(spec.rel, spec.open ? (now as string) : decode(spec, now as Buffer).text);
          return;
        }
        if (cmd === 'editls.insert') {
          const lines = norm === '' ? 0 : norm.split('\n').length - (norm.endsWith('\n') ? 1 : 0);
          args = { path: spec.rel, insert_line: b % (lines + 1), new_str: text === '' ? 'q' : text };
          preview = { apply: 'preview' };
        } else if (cmd === 'editls.edit') {
          args = { file_path: spec.rel, old_string: sliceNorm, new_string: text, replace_all: a % 7 !== 0 };
          preview = { apply: 'preview' };
        } else if (cmd === 'editls.strReplace') {
          args = { path: spec.rel, replacements: [{ old: sliceNorm, new: text, allowMultiple: a % 7 !== 0 }] };
          preview = { apply: 'preview' };
        } else if (cmd === 'editls.searchAndReplace') {
          if (sliceNorm === '') return;
          const lines = norm.split('\n').length;
          args = { path: spec.rel, search: sliceNorm, replace: text, ...(a % 3 === 0 ? { start_line: 1 + (b % lines), end_line: lines } : {}) };
          preview = { apply: 'preview' };
        } else {
          if (slice === '') return;
          const s = lineCol(before, start);
          const e = lineCol(before, end);
          args = { filePath: spec.rel, startLine: s.line, startColumn: s.col, endLine: e.line, endColumn: e.col, expectedText: slice, replacementText: text };
          preview = { applyChanges: false };
        }
        stats.steps++;
        byCommand[cmd] = (byCommand[cmd] ?? 0) + 1;
        let planned: any;
        try {
          planned = await client.exec(cmd, { ...args, ...preview });
        } catch (e: any) {
          const kind = e?.data?.kind;
          // an empty old in strReplace is invalid_args by contract (Codebuff's schema rejects it)
          const emptyOld = cmd === 'editls.strReplace' && sliceNorm === '' && kind === 'invalid_args';
          if (emptyOld || ['not_found', 'ambiguous', 'no_change', 'invalid_range', 'already_exists'].includes(kind)) stats.expectedFailures++;
          else {
            stats.unexpectedErrors++;
            problems.push(`${cmd} preview: ${kind} ${e?.message}`);
          }
          return;
        }
        if (planned.replacements === 0) return;
        const expected = applyWorkspaceEdit(before, planned.edit, client.encoding);
        const prior = state(spec);
        await client.exec(cmd, args);
        past.push(prior);
        if (past.length > UNDO_DEPTH) past.shift();
        history.set(spec.rel, past);
        stats.applied++;
        const actual = spec.open ? client.bufferText(spec.rel)! : decode(spec, readFileSync(ws.file(spec.rel))).text;
        if (!spec.open && !decode(spec, readFileSync(ws.file(spec.rel))).bomOk) stats.bomOrEncodingLost++;
        if (actual !== expected) {
          stats.mismatches++;
          problems.push(`${cmd} on ${spec.rel}: ${JSON.stringify(args).slice(0, 200)}`);
        }
        // a file whose breaks were all CRLF (or all LF) keeps them: new breaks take the dominant ending
        const crlfOnly = (t: string) => /\r\n/.test(t) && !/(^|[^\r])\n/.test(t) && !/\r(?!\n)/.test(t);
        const lfOnly = (t: string) => /\n/.test(t) && !/\r/.test(t);
        if ((crlfOnly(before) && /(^|[^\r])\n|\r(?!\n)/.test(actual)) || (lfOnly(before) && /\r/.test(actual))) {
          stats.endingLost++;
          problems.push(`ending lost: ${cmd} on ${spec.rel}: ${JSON.stringify(args).slice(0, 200)}`);
        }
        current.set(spec.rel, actual);
      }),
      { numRuns: steps * 20, seed: 424242, endOnFailure: true, interruptAfterTimeLimit: FULL ? 540_000 : 60_000 },
    );
    report('random edit sequences', { ...stats, ...Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k.replace('editls.', ''), v])) });
    expect(problems.slice(0, 5)).toEqual([]);
    expect(stats.mismatches + stats.endingLost + stats.bomOrEncodingLost + stats.undoNotExact).toBe(0);
    expect(stats.undone).toBeGreaterThan(0);
    expect(stats.applied).toBe(steps);
  }, 600_000);
});
