// How a symbol index build's ripgrep arguments end: with the folders. Apart from symbolIndex.ts so
// that main.ts's build started ahead (indexAhead.ts) makes them as the build does, without its code.

/** A build's arguments for these folders: one folder is searched as `.` from inside it (see symbolIndex.ts's runBuild). */
export function indexRunArgs(before: readonly string[], folders: readonly string[]): string[] {
  return [...before, ...(folders.length === 1 ? ['.'] : folders)];
}
