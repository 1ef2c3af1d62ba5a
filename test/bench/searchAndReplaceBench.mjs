// editls.searchAndReplace over stdio on a 10 MB file (real source text) with 100,000 matches,
// literal and regex, closed file written to disk, against plain Node in one process: read the
// file, String.prototype.replace with the same pattern, write it back. Also a regex timeout's cost.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startServer, stopServer } from './server.mjs';
import { corpusText } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MATCHES = 100_000;
const ITERATIONS = 7;

const ms = (v) => `${v.toFixed(1)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];


/** ~10 MB of real source with MATCHES occurrences of `EDITLS_HIT_A` spread over its lines. */
function benchText() {
  const lines = corpusText(ROOT, 10 * 1000 * 1000).split('\n');
  const every = Math.floor(lines.length / MATCHES);
  let placed = 0;
  for (let i = 0; i < lines.length && placed < MATCHES; i += every, placed++) lines[i] += ' EDITLS_HIT_A';
  return lines.join('\n');
}

export async function runSearchAndReplaceBench() {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-sar-bench-')));
  const results = [];
  try {
    const text = benchText();
    const file = path.join(dir, 'big.js');
    const plainFile = path.join(dir, 'plain.js');
    writeFileSync(file, text);
    writeFileSync(plainFile, text);
    const server = await startServer(dir, { maxFileSize: 64 * 1024 * 1024, regexTimeoutMs: 2000 });
    const send = (args) => server.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchAndReplace', arguments: [{ path: 'big.js', ...args }] });

    const modes = [
      ['literal', (from, to) => ({ search: `EDITLS_HIT_${from}`, replace: `EDITLS_HIT_${to}` }), (from) => new RegExp(`EDITLS_HIT_${from}`, 'g'), (to) => `EDITLS_HIT_${to}`],
      ['regex with $1', (from, to) => ({ search: `(EDITLS_HIT)_${from}`, replace: `$1_${to}`, use_regex: true }), (from) => new RegExp(`(EDITLS_HIT)_${from}`, 'g'), (to) => `$1_${to}`],
    ];
    for (const [label, args, pattern, replacement] of modes) {
      const times = [];
      const plain = [];
      let replacements = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const [from, to] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
        const t0 = performance.now();
        const r = await send(args(from, to));
        times.push(performance.now() - t0);
        replacements = r.replacements;
        const t1 = performance.now();
        const content = readFileSync(plainFile, 'utf8');
        writeFileSync(plainFile, content.replace(pattern(from), replacement(to)));
        plain.push(performance.now() - t1);
      }
      if (replacements !== MATCHES) throw new Error(`expected ${MATCHES} replacements, got ${replacements}`);
      if (readFileSync(file, 'utf8') !== readFileSync(plainFile, 'utf8')) throw new Error('editls and String.replace disagree');
      const e = median(times);
      const p = median(plain);
      results.push({
        name: `editls.searchAndReplace ${label}, 10 MB, 100,000 matches, closed file -> disk (median of ${ITERATIONS})`,
        value: ms(e),
        baseline: `${ms(p)} read + String.replace + write`,
        ratio: `${(e / p).toFixed(2)}x`,
        target: '<= 2x',
      });
    }

    // A catastrophic pattern on a small file: the server answers another request meanwhile.
    writeFileSync(path.join(dir, 'evil.txt'), 'a'.repeat(40) + '!\n');
    writeFileSync(path.join(dir, 'ok.txt'), 'fine\n');
    const t0 = performance.now();
    const stuck = server.conn
      .sendRequest('workspace/executeCommand', { command: 'editls.searchAndReplace', arguments: [{ path: 'evil.txt', search: '(a+)+$', replace: '', use_regex: true }] })
      .catch((e) => e);
    const t1 = performance.now();
    await server.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchAndReplace', arguments: [{ path: 'ok.txt', search: 'fine', replace: 'good' }] });
    const other = performance.now() - t1;
    const err = await stuck;
    const stopped = performance.now() - t0;
    results.push({
      name: `catastrophic regex stopped (regexTimeoutMs 2000) -> ${err?.data?.kind ?? 'no error?'}`,
      value: ms(stopped),
      baseline: `${ms(other)} for a request sent meanwhile`,
    });
    await stopServer(server);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await runSearchAndReplaceBench()) console.log(r);
}
