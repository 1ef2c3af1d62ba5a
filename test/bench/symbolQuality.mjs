// Symbol quality against Universal Ctags on real corpora found on this machine (npm packages'
// TypeScript/JavaScript, the CPython standard library, /usr/include C headers, libstdc++'s headers,
// the JDK's java.base, shell scripts): recall of ctags' definitions per language and kind, and a
// sampled rate of editls symbols ctags has nowhere on their line (upper bound of false symbols),
// with the sampled lines listed. `node test/bench/symbolQuality.mjs [--full] [--samples N] [--lang X]`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { familyOf, judge, lexRegions } from './symbolJudge.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const FULL = args.includes('--full') || process.env.EDITLS_RELIABILITY === 'full';
const SAMPLES = Number(args[args.indexOf('--samples') + 1]) || 40;
const ONLY = args.includes('--lang') ? args[args.indexOf('--lang') + 1] : undefined;
/** Files per corpus in a normal run (every file with --full). */
const CAP = FULL ? Infinity : 1500;

function walk(dir, test, out = [], skip = () => false) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && !skip(p)) walk(p, test, out, skip);
    } else if (e.isFile() && test(e.name)) {
      const size = statSync(p).size;
      if (size > 0 && size < 10_000_000) out.push(p);
    }
  }
  return out;
}

function pythonStdlib() {
  const pyenv = '/root/.pyenv/versions';
  const cands = existsSync(pyenv) ? readdirSync(pyenv).filter((v) => /^3\.1\d/.test(v)).sort().map((v) => path.join(pyenv, v, 'lib', `python${v.split('.').slice(0, 2).join('.')}`)) : [];
  for (const d of readdirSync('/usr/lib').filter((n) => /^python3\.\d+$/.test(n))) cands.push(path.join('/usr/lib', d));
  return cands.find((d) => existsSync(path.join(d, 'os.py')));
}

function javaBase(tmp) {
  const zips = ['/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip', '/usr/lib/jvm/openjdk-17/src.zip'];
  for (const dir of existsSync('/usr/lib/jvm') ? readdirSync('/usr/lib/jvm') : []) zips.push(path.join('/usr/lib/jvm', dir, 'lib/src.zip'));
  const zip = zips.find((z) => existsSync(z));
  if (!zip) return undefined;
  const out = path.join(tmp, 'jdk');
  mkdirSync(out, { recursive: true });
  const r = spawnSync('unzip', ['-q', '-o', zip, 'java.base/*', '-d', out], { stdio: 'ignore' });
  return r.status === 0 ? path.join(out, 'java.base') : undefined;
}

/** Every corpus: a label, the ctags language it is judged by (forced for headers), its files. */
function corpora(tmp) {
  const nm = path.join(ROOT, 'node_modules');
  const ts = [];
  const tsLib = path.join(nm, '@typescript/typescript-linux-x64/lib');
  walk(tsLib, (n) => n.endsWith('.d.ts'), ts);
  for (const pkg of ['zod', 'vscode-languageserver', 'vscode-languageserver-protocol', 'vscode-jsonrpc', '@modelcontextprotocol', '@types/node', 'vitest', 'vite', 'fast-check', 'diff', 'express', 'ajv']) {
    walk(path.join(nm, pkg), (n) => /\.(ts|mts|cts)$/.test(n), ts);
  }
  const js = [];
  for (const pkg of ['zod', 'vscode-jsonrpc', 'vscode-languageserver', 'vscode-languageserver-protocol', 'diff', 'express', 'body-parser', 'ajv', 'fast-check', 'vite', 'chai', 'debug', 'cross-spawn']) {
    walk(path.join(nm, pkg), (n) => /\.(js|mjs|cjs)$/.test(n) && !n.endsWith('.min.js'), js);
  }
  const py = pythonStdlib();
  const cpp = readdirSync('/usr/include/c++').sort().map((v) => path.join('/usr/include/c++', v, 'bits')).filter(existsSync).pop();
  const list = [
    { id: 'typescript', ctags: 'TypeScript', files: ts },
    { id: 'javascript', ctags: 'JavaScript', files: js },
    { id: 'python', ctags: 'Python', files: py ? walk(py, (n) => n.endsWith('.py'), [], (p) => p.endsWith('site-packages')) : [] },
    { id: 'c', ctags: 'C', force: 'C', files: walk('/usr/include', (n) => n.endsWith('.h'), [], (p) => p.startsWith('/usr/include/c++')) },
    { id: 'cpp', ctags: 'C++', force: 'C++', files: cpp ? walk(cpp, (n) => /\.(h|tcc)$/.test(n)) : [] },
    { id: 'java', ctags: 'Java', files: (() => {
      const jb = javaBase(tmp);
      return jb ? walk(jb, (n) => n.endsWith('.java')) : [];
    })() },
    { id: 'shell', ctags: 'Sh', files: walk('/usr', (n) => n.endsWith('.sh'), [], (p) => p.startsWith('/usr/include')) },
  ];
  return list.filter((c) => c.files.length > 0 && (!ONLY || c.id === ONLY)).map((c) => ({ ...c, files: spread(c.files, CAP) }));
}

/** At most `cap` files, spread over the whole list (every k-th), so a capped run still sees every package. */
function spread(files, cap) {
  if (files.length <= cap) return files;
  const step = files.length / cap;
  return Array.from({ length: cap }, (_, i) => files[Math.floor(i * step)]);
}

/**
 * The ctags kinds that count as definitions editls should find, per ctags language (locals,
 * parameters, struct members, enumerators, fields and imports are left out; variables and
 * constants count at module level only, and Java fields only as UPPER_CASE constants).
 */
const COUNTED = {
  TypeScript: { kinds: ['function', 'class', 'interface', 'enum', 'method', 'namespace', 'alias', 'generator'], topLevel: ['constant', 'variable'] },
  JavaScript: { kinds: ['function', 'class', 'method', 'generator', 'getter', 'setter'], topLevel: ['constant', 'variable'] },
  Python: { kinds: ['class', 'function', 'member'], topLevel: ['variable'] },
  C: { kinds: ['function', 'macro', 'struct', 'union', 'enum', 'typedef'] },
  'C++': { kinds: ['function', 'macro', 'struct', 'union', 'enum', 'typedef', 'class', 'namespace'] },
  Java: { kinds: ['class', 'interface', 'enum', 'method', 'annotation', 'record'], upperField: true },
  Sh: { kinds: ['function'] },
};

/** A TypeScript constant, variable or alias tag whose line declares that name (`const|let|var` … name before any `:` or `=`, `type name`, an import). */
function declaredOnLine(tag) {
  const line = tag.pattern ?? '';
  const name = tag.name.replace(/[$]/g, '\\$');
  if (tag.kind === 'constant' || tag.kind === 'variable') return new RegExp(`\\b(?:const|let|var)\\s+[^:=]*(?<![\\w$])${name}(?![\\w$])`).test(line);
  if (tag.kind === 'alias') return new RegExp(`\\btype\\s+${name}(?![\\w$])|\\bimport\\b`).test(line);
  return true;
}

function counted(tag) {
  const rule = COUNTED[tag.language];
  if (!rule) return false;
  // JavaScript object literals that ctags takes for classes (`const params = {`), and its names for anonymous functions.
  if (tag.language === 'JavaScript' && (tag.name.startsWith('AnonymousFunction') || (tag.kind === 'class' && !/\bclass\b/.test(tag.pattern ?? '')))) return false;
  // `export { type A, type B }` re-exports, which ctags tags as aliases.
  if (tag.language === 'TypeScript' && tag.kind === 'alias' && /\b(?:export|import)\s*(?:type\s*)?\{/.test(tag.pattern ?? '')) return false;
  // ctags' TypeScript parser also names constants and aliases after another word of their line (`core` in
  // `export const A: core.$constructor<A> = …`, `$`, `satisfies`, `instanceof`, the type after `keyof`): only a name the line declares counts.
  if (tag.language === 'TypeScript' && !declaredOnLine(tag)) return false;
  if (rule.kinds.includes(tag.kind)) return true;
  // ctags leaves some locals without a scope (TypeScript, JavaScript): module level is also column 0 there.
  if (rule.topLevel?.includes(tag.kind)) return tag.scope === undefined && (tag.language === 'Python' || /^\/\^[^ \t]/.test(tag.pattern ?? ''));

  if (rule.upperField && tag.kind === 'field') return /^[A-Z][A-Z0-9_]*$/.test(tag.name);
  return false;
}

function runCtags(corpus, tmp) {
  const list = path.join(tmp, `${corpus.id}.list`);
  const out = path.join(tmp, `${corpus.id}.tags`);
  writeFileSync(list, corpus.files.join('\n') + '\n');
  // Prototypes (off by default) only confirm editls symbols: the kind is not counted for recall.
  const flags = ['--output-format=json', '--fields=+nKzsZl', '--kinds-C=+p', '--kinds-C++=+p', '-f', out, '-L', list];
  if (corpus.force) flags.unshift(`--language-force=${corpus.force}`);
  const t0 = performance.now();
  const r = spawnSync('ctags', flags, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ctags failed: ${r.stderr}`);
  const ms = performance.now() - t0;
  const tags = [];
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const t = JSON.parse(line);
      if (t._type === 'tag' && !t.name.startsWith('__anon')) tags.push({ ...t, language: t.language ?? corpus.ctags });
    } catch {
      // a tag line ctags could not write as JSON (binary names): ignored
    }
  }
  return { tags, ms };
}

/** The extractor bundled from the TypeScript sources (esbuild, a dev dependency). */
async function loadExtractor(tmp) {
  const entry = path.join(tmp, 'entry.ts');
  writeFileSync(entry, `export { extractSymbols } from ${JSON.stringify(path.join(ROOT, 'server/core/symbols/extract.ts'))};\nexport { languageOf } from ${JSON.stringify(path.join(ROOT, 'server/core/symbols/languages.ts'))};\n`);
  const out = path.join(tmp, 'extract.mjs');
  buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error' });
  return import(pathToFileURL(out).href);
}

/** A seeded generator (mulberry32), so that the sampled lines are the same run to run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pct = (a, b, digits = 1) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(digits)}%`);

/** Every symbol judged true or false with its reason (symbolJudge.mjs), from its file's text. */
function judgeAll(symbols, texts, anyTag, bare) {
  const out = [];
  let file;
  let regions;
  let starts;
  let text;
  let family;
  for (const s of symbols) {
    if (s.file !== file) {
      file = s.file;
      ({ text } = texts.get(file));
      family = familyOf(texts.get(file).lang.id);
      regions = family ? lexRegions(text, family) : [];
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    if (!family) continue;
    const lineText = text.slice(starts[s.line], (starts[s.line + 1] ?? text.length + 1) - 1).replace(/\r$/, '');
    const v = judge({ family, name: s.name, lineText, col: s.start, offset: starts[s.line] + s.start, regions, ctagsOnLine: anyTag.has(`${s.file}\0${s.line + 1}\0${bare(s.name)}`) });
    out.push({ ...s, ...v, lineText });
  }
  return out;
}

export async function runSymbolQuality({ print = true } = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'editls-symq-'));
  const results = [];
  const log = (s) => print && console.log(s);
  try {
    const { extractSymbols, languageOf } = await loadExtractor(tmp);
    for (const corpus of corpora(tmp)) {
      const { tags, ms: ctagsMs } = runCtags(corpus, tmp);
      const lines = new Map();
      let symbols = [];
      const texts = new Map();
      const t0 = performance.now();
      for (const file of corpus.files) {
        const lang = languageOf(file);
        if (!lang) continue;
        let text = readFileSync(file, 'utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        texts.set(file, { text, lang });
        for (const s of extractSymbols(lang, text)) symbols.push({ file, ...s });
      }
      const editlsMs = performance.now() - t0;
      // Names compare without blanks: ctags writes `operator ()` and `operator in_fun_result<_Iter2,_F2p>`.
      const bare = (name) => name.replace(/\s+/g, '');
      const ours = new Set(symbols.map((s) => `${s.file}\0${s.line + 1}\0${bare(s.name)}`));
      // Anything ctags tags on a line (any kind, locals and members too) confirms a name there.
      const anyTag = new Set(tags.map((t) => `${t.path}\0${t.line}\0${bare(t.name)}`));
      const tagged = new Set(tags.map((t) => t.path));
      const verdicts = judgeAll(symbols.filter((s) => tagged.has(s.file)), texts, anyTag, bare);
      texts.clear();
      const byKind = new Map();
      const misses = [];
      let total = 0;
      let found = 0;
      for (const t of tags) {
        if (!counted(t)) continue;
        const k = byKind.get(t.kind) ?? { total: 0, found: 0 };
        byKind.set(t.kind, k);
        k.total++;
        total++;
        // ctags names `A::m` `m` with a scope; editls names it `m` too. A TypeScript `a.b` namespace is one name in both.
        if (ours.has(`${t.path}\0${t.line}\0${bare(t.name)}`)) {
          k.found++;
          found++;
        } else {
          misses.push(t);
        }
      }
      // Only files ctags parsed (it maps fewer extensions: no .cjs, no .d.cts) are judged.
      symbols = symbols.filter((s) => tagged.has(s.file));
      const unconfirmed = symbols.filter((s) => !anyTag.has(`${s.file}\0${s.line + 1}\0${bare(s.name)}`));
      const random = rng(14);
      const sample = [];
      const pool = [...unconfirmed];
      const sampleSize = Math.min(SAMPLES, pool.length);
      for (let i = 0; i < sampleSize; i++) sample.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
      const lineOf = (file, line) => {
        let l = lines.get(file);
        if (!l) lines.set(file, (l = readFileSync(file, 'utf8').split(/\r?\n/)));
        return (l[line] ?? '').trim().slice(0, 140);
      };
      log(`\n## ${corpus.id}: ${corpus.files.length} files; ctags ${ctagsMs.toFixed(0)} ms, editls extraction ${editlsMs.toFixed(0)} ms (in-process)`);
      log(`recall ${pct(found, total)} (${found}/${total} ctags definitions); editls symbols ${symbols.length}, not tagged by ctags on their line: ${unconfirmed.length} (${pct(unconfirmed.length, symbols.length)})`);
      log('| kind | ctags | editls found | recall |\n|---|---|---|---|');
      for (const [kind, k] of [...byKind].sort((a, b) => b[1].total - a[1].total)) log(`| ${kind} | ${k.total} | ${k.found} | ${pct(k.found, k.total)} |`);
      if (process.env.EDITLS_SYMQ_DUMP) writeFileSync(path.join(process.env.EDITLS_SYMQ_DUMP, `${corpus.id}.misses.json`), JSON.stringify(misses.map((t) => ({ ...t, text: lineOf(t.path, t.line - 1) }))));
      const missRandom = rng(7);
      const MISSES = Number(process.env.EDITLS_MISSES ?? 15);
      log(`missed (sample of ${Math.min(MISSES, misses.length)}):`);
      for (let i = 0; i < Math.min(MISSES, misses.length); i++) {
        const t = misses[Math.floor(missRandom() * misses.length)];
        log(`  - ${t.kind} ${t.name}  ${path.basename(t.path)}:${t.line}  ${lineOf(t.path, t.line - 1)}`);
      }
      log(`not in ctags (sample of ${sample.length}, judge each by eye):`);
      for (const s of sample) log(`  - ${s.kind} ${s.name}  ${path.basename(s.file)}:${s.line + 1}  ${lineOf(s.file, s.line)}`);
      const falses = verdicts.filter((v) => v.verdict === 'false');
      log(`judged false symbols: ${falses.length} of ${verdicts.length} (${pct(falses.length, verdicts.length, 2)}), every symbol of the files ctags parsed judged (test/bench/symbolJudge.mjs)`);
      const byReason = new Map();
      for (const v of verdicts) {
        const key = `${v.verdict}: ${v.reason}`;
        if (!byReason.has(key)) byReason.set(key, []);
        byReason.get(key).push(v);
      }
      const reasonRandom = rng(21);
      const JUDGED = Number(process.env.EDITLS_JUDGED ?? 8);
      for (const [reason, list] of [...byReason].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        log(`  ${reason}: ${list.length}`);
        const shown = reason.startsWith('false') ? Math.min(list.length, JUDGED * 3) : Math.min(list.length, reason.includes('ctags tags it') ? 0 : JUDGED);
        // A seeded partial shuffle: `shown` distinct entries, without copying a large list.
        const picked = new Set();
        for (let i = 0; i < shown; i++) {
          let k = Math.floor(reasonRandom() * list.length);
          while (picked.has(k)) k = (k + 1) % list.length;
          picked.add(k);
          const v = list[k];
          log(`    - ${v.kind} ${v.name}  ${path.relative(ROOT, v.file).replace(/^node_modules\//, '')}:${v.line + 1}  ${v.lineText.trim().slice(0, 140)}`);
        }
      }
      results.push({ name: `symbol recall vs ctags, ${corpus.id} (${corpus.files.length} files)`, value: pct(found, total), baseline: `${total} ctags definitions`, target: '>= 95%' });
      results.push({ name: `false symbols, judged, ${corpus.id}`, value: pct(falses.length, verdicts.length, 2), baseline: `${falses.length} of ${verdicts.length} symbols`, target: '<= 0.5%' });
      results.push({ name: `editls symbols not tagged by ctags, ${corpus.id} (upper bound of false)`, value: pct(unconfirmed.length, symbols.length), baseline: `${symbols.length} symbols` });
      symbols = [];
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runSymbolQuality();
  console.log('\n| benchmark | editls | baseline | target |');
  console.log('|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.value} | ${r.baseline ?? '-'} | ${r.target ?? '-'} |`);
}
