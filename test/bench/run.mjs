// `npm run bench`: measures editls against plain Node and raw tools side by side in one run and
// prints ratios. Not part of `npm test`: timings are reported, never asserted.
import { runEditBench } from './editBench.mjs';

const results = [];
results.push(...(await runEditBench()));

console.log('\n| benchmark | editls | baseline | ratio | target |');
console.log('|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.name} | ${r.value} | ${r.baseline ?? '-'} | ${r.ratio ?? '-'} | ${r.target ?? '-'} |`);
}
