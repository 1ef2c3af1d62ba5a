// The symbol index build's ripgrep, started by main.ts once `initialize` is answered and before it
// loads the rest of editls: ripgrep then works on another core while that code loads, and the
// build, once `initialized` starts it, reads this run if it would have started it with the same
// arguments (symbolIndex.ts), else stops it. The arguments up to the folders are the build's with
// the default settings, computed when editls is built (esbuild.mjs, from indexArgsBefore): this
// module needs none of the index's code. Run from the sources there are none, and nothing starts.
import { ripgrepBinary } from './workspace/search/ripgrepBinary.js';
import { startRipgrepToFile, type RipgrepToFile } from './workspace/search/ripgrepToFile.js';
import { builtIndexArgs, indexRunArgs } from './workspace/symbols/indexArgs.js';

/** The build's ripgrep for these folders, running; undefined when it cannot be started here (the build then starts its own). */
export function startIndexAhead(folders: readonly string[]): RipgrepToFile | undefined {
  const before = builtIndexArgs();
  if (before === undefined || folders.length === 0) return undefined;
  try {
    return startRipgrepToFile(ripgrepBinary(require), indexRunArgs(before, folders), folders[0]);
  } catch {
    // No ripgrep, or no spawn: the build says so.
    return undefined;
  }
}
