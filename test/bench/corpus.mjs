// Builds benchmark inputs from real source text: the JavaScript/TypeScript shipped in this
// project's node_modules (typescript, zod, vscode-languageserver...), copied into a temp folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['typescript/lib', 'zod', 'vscode-languageserver', 'vscode-languageserver-protocol', 'vscode-jsonrpc', 'diff', 'fast-check', 'vitest', 'vite'];

export function corpusFiles(root) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(js|mjs|cjs|ts|mts)$/.test(name) && st.size < 2_000_000) out.push(p);
    }
  };
  for (const s of SOURCES) walk(path.join(root, 'node_modules', s));
  return out.sort();
}

/** Real source text of at least `bytes` bytes (whole files concatenated, cut at a line end). */
export function corpusText(root, bytes) {
  let text = '';
  for (const f of corpusFiles(root)) {
    text += readFileSync(f, 'utf8').replace(/\uFEFF/g, '');
    if (text.length >= bytes) break;
  }
  const cut = text.lastIndexOf('\n', bytes);
  return text.slice(0, cut + 1);
}
