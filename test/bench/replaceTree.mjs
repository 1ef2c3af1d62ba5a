// Source trees for the replaceInFiles benches: N real source files (this project's node_modules, the
// agent CLIs' cache, Python's and Perl's libraries, /usr/include), copied with their folders kept into
// each of several temp folders, and the literal that changes about a fifth of them.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_EXT = /\.(js|mjs|cjs|ts|mts|cts|py|pm|pl|h|hpp|c|cc|rb|go|rs|java|sh)$/;
const MAX_SIZE = 1_000_000;

function sourceRoots() {
  const roots = [path.join(ROOT, 'node_modules'), path.join(os.homedir(), '.cache/editls-ci/agents/node_modules'), '/usr/lib/node_modules'];
  try {
    for (const n of readdirSync('/usr/lib')) if (/^python3(\.\d+)?$/.test(n)) roots.push(path.join('/usr/lib', n));
  } catch {
    // no Python
  }
  roots.push('/usr/share/perl5', '/usr/include');
  return roots;
}

function walk(dir, out, limit) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (out.length >= limit) return;
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out, limit);
    else if (e.isFile() && SOURCE_EXT.test(e.name)) {
      const size = statSync(p).size;
      if (size > 0 && size < MAX_SIZE) out.push(p);
    }
  }
}

/** The tree's folder for a source root (no folder named node_modules: some tools skip those). */
function label(root) {
  return root.replace(/^\//, '').replace(/node_modules/g, 'nm').replace(/[/.]/g, '_');
}

/**
 * `n` real source files as { from, rel }: distinct files from the source roots in order, taken
 * evenly across them for small trees; copies of the same files under `copyK/` when there are fewer.
 */
export function treeFiles(n) {
  const seen = new Set();
  const all = [];
  for (const root of sourceRoots()) {
    const files = [];
    walk(root, files, 4 * n);
    for (const f of files) {
      let real;
      try {
        real = realpathSync(f);
      } catch {
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      all.push({ from: f, rel: path.join(label(root), path.relative(root, f)) });
    }
    if (all.length >= 4 * n) break;
  }
  if (all.length === 0) throw new Error('no source files found for the bench tree');
  const picked = [];
  if (all.length >= n) {
    // Evenly spread, so 200 files are not 200 files of one package.
    const step = all.length / n;
    for (let i = 0; i < n; i++) picked.push(all[Math.floor(i * step)]);
  } else {
    for (let i = 0; i < n; i++) {
      const f = all[i % all.length];
      picked.push({ from: f.from, rel: path.join(`copy${Math.floor(i / all.length)}`, f.rel) });
    }
  }
  return picked;
}

/** Copies the files into every folder of `dirs`; returns the total bytes of one copy. */
export function copyTree(files, dirs) {
  let bytes = 0;
  const made = new Set();
  for (const f of files) {
    const size = statSync(f.from).size;
    bytes += size;
    for (const dir of dirs) {
      const target = path.join(dir, f.rel);
      const folder = path.dirname(target);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      copyFileSync(f.from, target);
    }
  }
  return bytes;
}

const CANDIDATES = ['return', 'self', 'const ', 'value', 'error', 'length', 'result', 'name', 'data', 'this.', 'function', 'if (', 'None', 'define', 'options', 'type'];

/** The literal whose file share comes closest to a fifth with about four matches per changed file. */
export function pickLiteral(files) {
  const texts = files.map((f) => readFileSync(f.from, 'latin1'));
  let best;
  for (const word of CANDIDATES) {
    let nFiles = 0;
    let matches = 0;
    for (const t of texts) {
      const k = t.split(word).length - 1;
      if (k > 0) {
        nFiles++;
        matches += k;
      }
    }
    if (nFiles === 0) continue;
    const score = Math.abs(Math.log(nFiles / (files.length / 5))) + 0.5 * Math.abs(Math.log(matches / nFiles / 4));
    if (!best || score < best.score) best = { word, files: nFiles, matches, score };
  }
  return best;
}
