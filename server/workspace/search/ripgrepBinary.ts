// Where ripgrep's binary is, as @vscode/ripgrep says (its platform package's bin/rg), found without
// loading @vscode/ripgrep itself: it is an ES module, and requiring one from CommonJS loads Node's ES
// module loader (about 9 ms of the symbol index build's start, measured). The same lookup as
// @vscode/ripgrep 1.18's for this machine's architecture, with its own module as the fallback when
// the lookup finds nothing (an install for another architecture through npm_config_arch, a layout
// of its packages other than 1.18's); test/workspace/ripgrepBinary.test.ts holds the two alike.

/** The binary's path, resolved through `req` (the bundle's require); throws when neither way finds it. */
export function ripgrepBinary(req: NodeJS.Require): string {
  try {
    return req.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${process.platform === 'win32' ? 'rg.exe' : 'rg'}`);
  } catch {
    return (req('@vscode/ripgrep') as typeof import('@vscode/ripgrep')).rgPath;
  }
}
