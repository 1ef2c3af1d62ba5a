// textDocument/codeAction on an open 10 MB buffer (trailing whitespace and mixed endings to find,
// two pending previews) over stdio, against plain Node scanning the same text with regexes; and a
// preview + editls.applyPreview round trip on a closed 10 MB file against plain Node's
// read-replace-write. Editors such as VS Code ask for code actions on every cursor move.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { corpusText } from './corpus.mjs';
import { startServer, stopServer } from './server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ms = (v) => `${v.toFixed(2)} ms`;
const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What a plain script does to decide the same offers: count trailing-whitespace lines and line-ending kinds. */
function plainScan(text) {
  const trailing = (text.match(/[ \t]+(?=\r?\n|\r|$)/g) ?? []).length;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return { trailing, mixed: crlf > 0 && lf > 0 };
}

export async function runCodeActionBench() {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-bench-ca-')));
  const results = [];
  try {
    const body = corpusText(ROOT, 10 * 1000 * 1000);
    // every 50th line gets trailing spaces, every 70th a CRLF ending
    const text =
      '// EDITLS_PREVIEW_ONE\n// EDITLS_PREVIEW_TWO\n' +
      body
        .split('\n')
        .map((l, i) => (i % 50 === 0 ? `${l}   ` : l) + (i % 70 === 0 ? '\r' : ''))
        .join('\n');
    const file = path.join(dir, 'big.js');
    writeFileSync(file, text);
    const server = await startServer(dir, { maxFileSize: 64 * 1024 * 1024 }, { applyEdit: () => ({ applied: false, failureReason: 'bench client applies nothing' }) });
    const uri = pathToFileURL(file).href;
    server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text } });
    for (const word of ['ONE', 'TWO']) {
      await server.conn.sendRequest('workspace/executeCommand', {
        command: 'editls.edit',
        arguments: [{ file_path: 'big.js', old_string: `EDITLS_PREVIEW_${word}`, new_string: `EDITLS_PREVIEWED_${word}`, apply: 'preview' }],
      });
    }
    const times = [];
    let offers = 0;
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      const actions = await server.conn.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 100, character: 0 }, end: { line: 120, character: 0 } },
        context: { diagnostics: [] },
      });
      times.push(performance.now() - t0);
      offers = actions.length;
      if (process.env.BENCH_DEBUG) console.error(actions.map((a) => a.title));
    }
    const plain = [];
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      plainScan(text);
      plain.push(performance.now() - t0);
    }
    results.push({
      name: `textDocument/codeAction, open 10 MB buffer (${offers} offers, p50 of 9)`,
      value: ms(p50(times)),
      baseline: `${ms(p50(plain))} plain Node regex scan`,
      ratio: `${(p50(times) / p50(plain)).toFixed(2)}x`,
      target: '<= 150 ms',
    });
    server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });

    // preview (with its hint diagnostics) + applyPreview on the closed file, vs read-replace-write
    const marker = 'EDITLS_BENCH_PREVIEW';
    const mid = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
    writeFileSync(file, text.slice(0, mid) + `// ${marker}_A\n` + text.slice(mid));
    const plainFile = path.join(dir, 'plain.js');
    writeFileSync(plainFile, readFileSync(file));
    const round = [];
    const plainRound = [];
    for (let i = 0; i < 6; i++) {
      const [from, to] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      const t0 = performance.now();
      const preview = await server.conn.sendRequest('workspace/executeCommand', {
        command: 'editls.edit',
        arguments: [{ file_path: 'big.js', old_string: `${marker}_${from}`, new_string: `${marker}_${to}`, apply: 'preview' }],
      });
      await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.applyPreview', arguments: [{ id: preview.previewId }] });
      round.push(performance.now() - t0);
      const t1 = performance.now();
      const t = readFileSync(plainFile, 'utf8');
      writeFileSync(plainFile, t.replace(`${marker}_${from}`, `${marker}_${to}`));
      plainRound.push(performance.now() - t1);
    }
    results.push({
      name: 'preview + editls.applyPreview, closed 10 MB file (p50 of 6)',
      value: ms(p50(round)),
      baseline: `${ms(p50(plainRound))} plain Node`,
      ratio: `${(p50(round) / p50(plainRound)).toFixed(2)}x`,
      target: '<= 2x editls.edit',
    });
    await stopServer(server);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
