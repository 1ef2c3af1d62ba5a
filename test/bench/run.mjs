// `npm run bench`: measures editls against plain Node and raw tools side by side in one run and
// prints ratios. Not part of `npm test`: timings are reported, never asserted.
import { runEditBench } from './editBench.mjs';
import { runCodeActionBench } from './codeActionBench.mjs';
import { runSearchBench } from './searchBench.mjs';
import { runSearchAndReplaceBench } from './searchAndReplaceBench.mjs';
import { runReplaceInFilesBench } from './replaceInFilesBench.mjs';
import { runMcpBench } from './mcpBench.mjs';
import { runMcpStartBench } from './mcpStartBench.mjs';
import { runSymbolQuality } from './symbolQuality.mjs';
import { runDuringBuildBench } from './duringBuildBench.mjs';
import { runStartBench } from './startBench.mjs';
import { runSymbolScaleBench } from './symbolScaleBench.mjs';
import { runScalingBench } from './scalingBench.mjs';
import { runBigEditBench } from './bigEditBench.mjs';

const results = [];
results.push(...(await runEditBench()));
results.push(...(await runCodeActionBench()));
results.push(...(await runSearchBench()));
results.push(...(await runSearchAndReplaceBench()));
results.push(...(await runReplaceInFilesBench()));
results.push(...(await runMcpBench()));
results.push(...(await runMcpStartBench()));
results.push(...(await runStartBench({ print: false })));
results.push(...(await runSymbolQuality({ print: false })));
results.push(...(await runDuringBuildBench()));
results.push(...(await runSymbolScaleBench()));
results.push(...(await runScalingBench()));
results.push(...(await runBigEditBench()));

console.log('\n| benchmark | editls | baseline | ratio | target |');
console.log('|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.name} | ${r.value} | ${r.baseline ?? '-'} | ${r.ratio ?? '-'} | ${r.target ?? '-'} |`);
}
