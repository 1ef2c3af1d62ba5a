// who imports X: node graph.mjs <substring>  -- prints import chains from server/main.ts to modules matching substring (shortest)
import { build } from 'esbuild';
const r = await build({ entryPoints: ['server/main.ts'], write: false, bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['@vscode/ripgrep'], metafile: true, outfile: '/tmp/x.js', logLevel: 'error' });
const ins = r.metafile.inputs; const target = process.argv[2];
const edges = new Map(Object.entries(ins).map(([k, v]) => [k, v.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path)]));
// BFS from main over static imports only
const prev = new Map([['server/main.ts', null]]); const q = ['server/main.ts'];
while (q.length) { const n = q.shift(); for (const m of edges.get(n) ?? []) if (!prev.has(m)) { prev.set(m, n); q.push(m); } }
const hits = [...prev.keys()].filter((k) => k.includes(target));
console.log('statically reachable matching:', hits.length);
for (const h of hits.slice(0, Number(process.argv[3] ?? 5))) { const chain = []; for (let n = h; n; n = prev.get(n)) chain.push(n); console.log(chain.reverse().join(' -> ')); }
