// editls.searchFiles and workspace/symbol on >= 5,000 real source files (this project's
// node_modules, npm's own node_modules and the Python standard library, copied into a temp
// folder): searchFiles against the same ripgrep binary run as users run it (`rg --json -e Q .`), the
// symbol index build against `ctags -R`, warm query latency, and the index's resident memory.
// Also the same small search through a headless `editls mcp`, as an agent with no editor runs it.
// After each editls answer both sides pause AFTER_ANSWER_MS, as an agent reading the answer would.
// Run alone with `npm run build && node test/bench/searchBench.mjs` (EDITLS_BENCH_SEARCH_ONLY=1: the search rows only).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { rgPath } from '@vscode/ripgrep';
import { buildSync } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { corpusFiles } from './corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = process.env.EDITLS_BIN ?? path.join(ROOT, 'dist/editls.js');
const MIN_FILES = 5000;
const SOURCE_EXT = /\.(js|mjs|cjs|ts|mts|cts|py|rb|go|rs|c|h|cc|cpp|hpp|java|kt|cs|php|lua|sh|swift)$/;
/** Extra real source trees, used in this order until the corpus holds MIN_FILES files. */
const EXTRA_ROOTS = [path.join(ROOT, 'node_modules'), '/usr/lib/node_modules', '/usr/local/lib/node_modules', '/usr/lib/python3', ...pythonLibs(), '/usr/share/perl5'];

function pythonLibs() {
  try {
    return readdirSync('/usr/lib').filter((n) => /^python3\.\d+$/.test(n)).map((n) => path.join('/usr/lib', n));
  } catch {
    return [];
  }
}

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && SOURCE_EXT.test(e.name)) {
      const size = statSync(p).size;
      if (size > 0 && size < 2_000_000) out.push(p);
    }
  }
}

/** Copies real source files into `dir` until there are at least MIN_FILES; returns the count and bytes. */
export function buildCorpus(dir) {
  const seen = new Set();
  const picked = [];
  const add = (files) => {
    for (const f of files) {
      const real = realpathSync(f);
      if (seen.has(real)) continue;
      seen.add(real);
      picked.push(f);
    }
  };
  add(corpusFiles(ROOT));
  for (const root of EXTRA_ROOTS) {
    if (picked.length >= MIN_FILES) break;
    const files = [];
    walk(root, files);
    add(files.sort());
  }
  let bytes = 0;
  picked.forEach((f, i) => {
    // Flatten into numbered folders, keeping the file name (and so its language).
    const target = path.join(dir, `p${String(Math.floor(i / 200)).padStart(3, '0')}`, `${String(i).padStart(5, '0')}-${path.basename(f)}`);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(f, target);
    bytes += statSync(target).size;
  });
  return { files: picked.length, bytes };
}

/**
 * The pause after each editls answer before the next run on either side: an agent reads an answer
 * before it searches again, and editls uses that time to start the next search's ripgrep (waiting for
 * its pattern); without the pause that start would be timed in the plain rg run that follows.
 */
export const AFTER_ANSWER_MS = 25;
/** CPU-bound processes run beside the busy-machine row: twice the cores and one more (load about 5 on 2 cores). */
const BUSY_PROCESSES = 2 * os.cpus().length + 1;
export const afterAnswer = () => new Promise((resolve) => setTimeout(resolve, AFTER_ANSWER_MS));

function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const ms = (v) => `${v.toFixed(1)} ms`;
const median = (v) => pct(v, 50);

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

/** An editls server on `root` (dist/editls.js, or `bundle` run with `nodeFlags`); `indexed` settles when its index build ends. */
export async function startServer(root, { capabilities = { window: { workDoneProgress: true } }, initializationOptions, bundle = SERVER, nodeFlags = [] } = {}) {
  const proc = spawn(process.execPath, [...nodeFlags, bundle, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const progress = [];
  const waiters = [];
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('workspace/configuration', () => [null]);
  conn.onRequest('client/registerCapability', () => null);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('$/progress', (p) => {
    progress.push({ ...p, at: performance.now() });
    for (const w of [...waiters]) w();
  });
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'bench' }],
    capabilities,
    initializationOptions,
  });
  const initializedAt = performance.now();
  conn.sendNotification('initialized', {});
  /** Resolves with the time (ms after `initialized`) at which the symbol index build ended. */
  const indexed = new Promise((resolve) => {
    const check = () => {
      const begin = progress.find((p) => p.value.kind === 'begin' && p.value.title === 'editls: indexing symbols');
      const end = begin && progress.find((p) => p.token === begin.token && p.value.kind === 'end');
      if (end) {
        waiters.splice(waiters.indexOf(check), 1);
        resolve({ ms: end.at - initializedAt, message: end.value.message });
      }
    };
    waiters.push(check);
  });
  return { proc, conn, indexed };
}

export async function stop(server) {
  await server.conn.sendRequest('shutdown');
  server.conn.sendNotification('exit');
  await new Promise((r) => server.proc.on('exit', r));
  server.conn.dispose();
}

/**
 * The same ripgrep binary as users run it: `rg --json -e Q .` in the folder, ripgrep's defaults
 * (parallel walk, unsorted), output read to the end.
 */
export function rawRipgrep(corpus, regex) {
  const args = ['--json', '-e', regex, '.'];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(rgPath, args, { cwd: corpus, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - t0, lines }));
  });
}

function countMatchingLines(corpus, regex) {
  const out = spawnSync(rgPath, ['--no-config', '--no-require-git', '--crlf', '--count-matches', '--no-filename', '-e', regex, '--', corpus], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const lines = spawnSync(rgPath, ['--no-config', '--no-require-git', '--crlf', '--count', '--no-filename', '-e', regex, '--', corpus], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const sum = (s) => s.split('\n').filter(Boolean).reduce((a, n) => a + Number(n), 0);
  return { matches: sum(out.stdout), lines: sum(lines.stdout) };
}

/** Bundles the index with esbuild (a dev dependency) and builds it on the corpus under --expose-gc. */
function indexHeap(corpus, dir) {
  const entry = path.join(dir, 'heap-entry.mjs');
  // Under node_modules so that the bundle finds @vscode/ripgrep (kept external, as in dist/).
  mkdirSync(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
  const out = path.join(ROOT, 'node_modules/.cache', `editls-heap-bench-${process.pid}.mjs`);
  const source = [
    `import { SymbolIndex } from ${JSON.stringify(path.join(ROOT, 'server/workspace/symbols/symbolIndex.ts'))};`,
    'globalThis.gc(); globalThis.gc();',
    'const before = process.memoryUsage().heapUsed;',
    `const index = new SymbolIndex({ folders: () => [${JSON.stringify(corpus)}], encoding: () => 'utf-16', documents: { get: () => undefined, getByPath: () => undefined }, maxFileSize: () => 10485760, log: (m) => console.error(m), startProgress: () => ({ signal: new AbortController().signal, report() {}, done() {} }) });`,
    'await index.rebuild();',
    "await index.query('x', 200, new AbortController().signal);",
    'globalThis.gc(); globalThis.gc();',
    'const bytes = process.memoryUsage().heapUsed - before;',
    'console.log(JSON.stringify({ symbols: index.symbolCount, mib: (bytes / 1048576).toFixed(1), perSymbol: Math.round(bytes / index.symbolCount) }));',
  ].join('\n');
  writeFileSync(entry, source);
  try {
    // The ES module bundle gets a `require` of its own: the server finds ripgrep through
    // require('@vscode/ripgrep'), which esbuild's ES module output cannot do by itself (without it the
    // build failed, was logged nowhere, and the row read 0 symbols).
    buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      external: ['@vscode/ripgrep'],
      banner: { js: "import { createRequire as editlsCreateRequire } from 'node:module'; const require = editlsCreateRequire(import.meta.url);" },
      logLevel: 'error',
    });
    const r = spawnSync(process.execPath, ['--expose-gc', out], { encoding: 'utf8', cwd: ROOT });
    const measured = JSON.parse(r.stdout.trim().split('\n').pop());
    // An index that found nothing measures nothing: say so rather than print a figure.
    if (!(measured.symbols > 0)) throw new Error(`the index found no symbol: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return measured;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    rmSync(out, { force: true });
  }
}

/** Reads every file of the corpus once (ripgrep counting an impossible pattern), so that both sides of a comparison start from the page cache. */
function readAll(corpus) {
  spawnSync(rgPath, ['--no-config', '--no-ignore', '--hidden', '-c', '-e', 'editls-bench-no-such-text', '--', corpus], { stdio: 'ignore' });
}

function ctagsVersion() {
  const r = spawnSync('ctags', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return undefined;
  return /Universal Ctags/.test(r.stdout) ? r.stdout.split('\n')[0].split(',')[0] : undefined;
}

export async function runSearchBench() {
  const results = [];
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'editls-search-bench-')));
  const corpus = path.join(dir, 'corpus');
  const empty = path.join(dir, 'empty');
  mkdirSync(corpus);
  mkdirSync(empty);
  try {
    const { files, bytes } = buildCorpus(corpus);
    results.push({ name: 'corpus (real source files copied to a temp folder)', value: `${files} files, ${(bytes / 1e6).toFixed(1)} MB`, target: `>= ${MIN_FILES} files` });

    // Queries: one with fewer than 300 matching lines, one with tens of thousands.
    const candidates = ['createConnection', 'fileURLToPath', 'levenshtein', 'WorkspaceFolder', 'isinstance\\(\\w+, str\\)', 'deprecated'];
    let small;
    for (const c of candidates) {
      const n = countMatchingLines(corpus, c);
      if (n.lines >= 30 && n.lines < 300) {
        small = { regex: c, ...n };
        break;
      }
    }
    small ??= { regex: candidates[0], ...countMatchingLines(corpus, candidates[0]) };
    const big = { regex: 'return', ...countMatchingLines(corpus, 'return') };

    const server = await startServer(corpus);
    const build = await server.indexed;
    const execOn = async (s, regex, extra = {}) => {
      const t0 = performance.now();
      const r = await s.conn.sendRequest('workspace/executeCommand', { command: 'editls.searchFiles', arguments: [{ path: '.', regex, ...(typeof extra === 'function' ? extra() : extra) }] });
      const ms = performance.now() - t0;
      await afterAnswer();
      return { ms, r };
    };
    /** `runs` searches on server `s`, each paired with a plain rg run (after one of each to warm up, and `warm` more searches). */
    const measure = async (s, q, runs, extra, warm = 0) => {
      await execOn(s, q.regex, extra); // warm the page cache and the process
      await rawRipgrep(corpus, q.regex);
      for (let i = 0; i < warm; i++) await execOn(s, q.regex, extra);
      const ours = [];
      const raw = [];
      let last;
      for (let i = 0; i < runs; i++) {
        // alternate so that background load hits both sides alike, each side going first half the time
        const rawFirst = i % 2 === 1;
        if (rawFirst) raw.push((await rawRipgrep(corpus, q.regex)).ms);
        const a = await execOn(s, q.regex, extra);
        ours.push(a.ms);
        last = a.r;
        if (!rawFirst) raw.push((await rawRipgrep(corpus, q.regex)).ms);
      }
      return { ours, raw, last };
    };
    /** The first searches of FRESH_SERVERS servers: this one's, and those of servers started for them alone. */
    const FRESH_SERVERS = 3;
    const onFreshServers = async (q, runs, extra) => {
      const all = await measure(server, q, runs, extra);
      for (let k = 1; k < FRESH_SERVERS; k++) {
        const s = await startServer(corpus);
        await s.indexed;
        const m = await measure(s, q, runs, extra);
        await stop(s);
        all.ours.push(...m.ours);
        all.raw.push(...m.raw);
      }
      return all;
    };
    /**
     * A session's very first search: `n` servers, each started (its index built, so that the build
     * is not what is timed) and asked once, the plain rg run just before or just after it in turns.
     */
    const firstSearches = async (q, n) => {
      await rawRipgrep(corpus, q.regex); // the page cache
      const ours = [];
      const raw = [];
      let last;
      for (let k = 0; k < n; k++) {
        const s = await startServer(corpus);
        await s.indexed;
        if (k % 2 === 1) raw.push((await rawRipgrep(corpus, q.regex)).ms);
        const a = await execOn(s, q.regex);
        ours.push(a.ms);
        last = a.r;
        if (k % 2 === 0) raw.push((await rawRipgrep(corpus, q.regex)).ms);
        await stop(s);
      }
      return { ours, raw, last };
    };
    const none = { regex: 'editls-bench-no-such-text', lines: 0 };
    // Another max_results each time (the same 60 lines): no search can take the ripgrep started ahead
    // after the one before it, as for a first search or one with other options.
    let flip = 0;
    const noSpare = () => ({ max_results: 300 + (flip++ % 2) });
    // Each row warms both sides once; the `warm` row first runs 30 more searches, so that V8 has
    // compiled the search path (a long-lived server's steady state; the row above it is a fresh one's).
    for (const [label, q, runs, target, ratioOf, extra, warm = 0] of [
      [`searchFiles, ${small.lines} matching lines (/${small.regex}/), a session's first search (7 servers)`, small, 7, '<= 1.10x plain rg', 'same', {}, 'first'],
      [`searchFiles, ${small.lines} matching lines (/${small.regex}/), fresh server (searches 2-10 of ${FRESH_SERVERS} servers)`, small, 9, '<= 1.10x plain rg', 'same', {}, 'fresh'],
      [`searchFiles, the same after 40 searches (V8's JIT warm)`, small, 15, '<= 1.10x plain rg', 'same', {}, 30],
      [`searchFiles, the same with context_lines 0 (the lines plain rg prints)`, small, 9, '(for comparison)', 'same', { context_lines: 0 }],
      [`searchFiles, the same with other options each time (no ripgrep started ahead: its spawn timed too)`, small, 9, '(for comparison)', 'same', noSpare],
      ['searchFiles, no matching line (the cost of a search: JSON-RPC, the exit report)', none, 9, '(for comparison)', 'same', {}],
      [`searchFiles, ${big.lines} matching lines (/${big.regex}/), capped at 300`, big, 7, '<= 0.5x plain rg', 'full', {}],
    ]) {
      const { ours, raw, last } = warm === 'first' ? await firstSearches(q, runs) : warm === 'fresh' ? await onFreshServers(q, runs, extra) : await measure(server, q, runs, extra, warm);
      const o = median(ours);
      const b = median(raw);
      results.push({
        name: `${label}, median of ${ours.length}`,
        value: `${ms(o)} (${last.count} lines, truncated: ${last.truncated})`,
        baseline: `${ms(b)} rg --json -e Q . (parallel${ratioOf === 'full' ? ', full run' : ''})`,
        ratio: `${(o / b).toFixed(2)}x`,
        target,
      });
    }

    // The capped search on a busy machine: BUSY_PROCESSES CPU-bound processes (a load of about 5 on
    // this 2-core machine) run while both sides are timed, as on a machine also compiling or testing.
    {
      const burners = Array.from({ length: BUSY_PROCESSES }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
      try {
        await new Promise((res) => setTimeout(res, 1000)); // the load is there before the first timing
        const { ours, raw, last } = await measure(server, big, 7, {});
        const o = median(ours);
        const b = median(raw);
        results.push({
          name: `searchFiles, ${big.lines} matching lines (/${big.regex}/), capped at 300, on a busy machine (${BUSY_PROCESSES} CPU-bound processes on ${os.cpus().length} cores), median of 7`,
          value: `${ms(o)} (${last.count} lines, truncated: ${last.truncated})`,
          baseline: `${ms(b)} rg --json -e Q . (parallel, full run, as busy)`,
          ratio: `${(o / b).toFixed(2)}x`,
          target: '<= 0.5x plain rg',
        });
      } finally {
        for (const b of burners) b.kill('SIGKILL');
      }
    }

    // The same small search as an agent with no editor runs it: search_files through a headless
    // `editls mcp` (its own editls session in the same process, ripgrep forked by its helper).
    {
      const xdg = mkdtempSync(path.join(dir, 'xdg-'));
      const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, 'mcp', '--root', corpus], env: { ...process.env, XDG_RUNTIME_DIR: xdg }, stderr: 'ignore' });
      const agent = new Client({ name: 'bench-agent', version: '1.0' });
      await agent.connect(transport);
      const call = (name, args) => agent.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      // The first call goes headless and starts the index build: ask until it answers, then let it settle.
      for (let i = 0; i < 100; i++) {
        const r = await call('workspace_symbols', { query: 'createConnection' });
        if ((r.structuredContent?.symbols?.length ?? 0) > 0) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      await new Promise((res) => setTimeout(res, 1000));
      await call('search_files', { path: '.', regex: small.regex });
      await rawRipgrep(corpus, small.regex);
      const ours = [];
      const raw = [];
      let last;
      for (let i = 0; i < 9; i++) {
        const rawFirst = i % 2 === 1;
        if (rawFirst) raw.push((await rawRipgrep(corpus, small.regex)).ms);
        const t0 = performance.now();
        last = await call('search_files', { path: '.', regex: small.regex });
        ours.push(performance.now() - t0);
        await afterAnswer();
        if (!rawFirst) raw.push((await rawRipgrep(corpus, small.regex)).ms);
      }
      await agent.close();
      const o = median(ours);
      const b = median(raw);
      results.push({
        name: `search_files through a headless editls mcp (an agent, no editor), ${small.lines} matching lines, fresh session, median of 9`,
        value: `${ms(o)} (${last.structuredContent?.count} lines)`,
        baseline: `${ms(b)} rg --json -e Q . (parallel)`,
        ratio: `${(o / b).toFixed(2)}x`,
        target: '(for comparison)',
      });
    }

    // EDITLS_BENCH_SEARCH_ONLY=1: the searchFiles rows only (while tuning them).
    if (process.env.EDITLS_BENCH_SEARCH_ONLY) {
      await stop(server);
      return results;
    }

    // Index build against ctags -R on the same corpus: fresh servers and ctags runs taking turns,
    // each after a pass that reads every file (this machine's kernel reclaims idle page cache
    // within seconds, which would otherwise time the disk for whichever side runs first).
    const version = ctagsVersion();
    const builds = [];
    const ctagsRuns = [];
    for (let i = 0; i < 5; i++) {
      readAll(corpus);
      const s = await startServer(corpus);
      builds.push((await s.indexed).ms);
      await stop(s);
      if (!version) continue;
      readAll(corpus);
      const t0 = performance.now();
      execFileSync('ctags', ['-R', '-f', path.join(dir, `tags-${i}`), corpus], { stdio: 'ignore' });
      ctagsRuns.push(performance.now() - t0);
    }
    const buildMs = median(builds);
    const list = (v) => v.map((x) => x.toFixed(0)).join(', ');
    if (version) {
      const c = median(ctagsRuns);
      const tagCount = readFileSync(path.join(dir, 'tags-0'), 'utf8').split('\n').filter((l) => l && !l.startsWith('!')).length;
      results.push({
        name: `symbol index build, initialized -> $/progress end (median of ${builds.length}: ${list(builds)} ms); ${build.message}`,
        value: ms(buildMs),
        baseline: `${ms(c)} ctags -R (median of ${ctagsRuns.length}: ${list(ctagsRuns)} ms; ${tagCount} tags; ${version})`,
        ratio: `${(c / buildMs).toFixed(1)}x faster`,
        target: '>= 7x faster',
      });
    } else {
      results.push({ name: `symbol index build (${list(builds)} ms; ${build.message})`, value: ms(buildMs), baseline: 'ctags row skipped: universal-ctags not installed', target: '>= 7x faster than ctags -R' });
    }

    // Warm queries: prefixes of real symbol names, 1 to 8 characters, as a picker sends them per keystroke.
    const names = (await server.conn.sendRequest('workspace/symbol', { query: '' })).map((s) => s.name);
    const queries = [];
    for (let i = 0; queries.length < 300; i++) {
      const n = names[(i * 7919) % names.length] ?? 'parse';
      queries.push(n.slice(0, 1 + (i % 8)));
    }
    for (const q of queries.slice(0, 20)) await server.conn.sendRequest('workspace/symbol', { query: q });
    const times = [];
    for (const q of queries) {
      const t0 = performance.now();
      await server.conn.sendRequest('workspace/symbol', { query: q });
      times.push(performance.now() - t0);
    }
    results.push({ name: `workspace/symbol warm query p50 (${queries.length} queries, 1-8 chars)`, value: ms(pct(times, 50)), target: '<= 20 ms' });
    results.push({ name: 'workspace/symbol warm query p99', value: ms(pct(times, 99)), target: '<= 60 ms' });

    // Resident memory: the indexed server against one on an empty folder (same code, no index).
    const idle = await startServer(empty);
    await idle.indexed.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const idleRss = rssKiB(idle.proc.pid);
    const indexedRss = rssKiB(server.proc.pid);
    await stop(idle);
    results.push({
      name: 'symbol index resident memory (RSS of the indexed server minus an idle one)',
      value: `${((indexedRss - idleRss) / 1024).toFixed(1)} MiB`,
      baseline: `${(indexedRss / 1024).toFixed(1)} MiB total, ${(idleRss / 1024).toFixed(1)} MiB idle`,
    });
    await stop(server);

    // The index's live heap, measured in a process of its own with forced garbage collections.
    const heap = indexHeap(corpus, dir);
    if (heap.error) results.push({ name: 'symbol index live heap after GC', value: `not measured: ${heap.error}` });
    else results.push({ name: `symbol index live heap after GC (${heap.symbols} symbols, server code bundled for the bench)`, value: `${heap.mib} MiB`, baseline: `${heap.perSymbol} bytes per symbol` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runSearchBench();
  console.log('\n| benchmark | editls | baseline | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.value} | ${r.baseline ?? '-'} | ${r.ratio ?? '-'} | ${r.target ?? '-'} |`);
}
