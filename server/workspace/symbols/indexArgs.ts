// A symbol index build's ripgrep arguments as editls's build computed them (indexArgsBefore of
// symbolIndex.ts with the default maxFileSize, defined by esbuild.mjs), and how they end: with the
// folders. Apart from symbolIndex.ts so that main.ts's build started ahead (indexAhead.ts) makes
// them as the build does, without its code.

/** Set by esbuild.mjs (define) in the bundles; absent when the sources run as they are (the tests). */
declare const EDITLS_INDEX_ARGS: { maxFileSize: number; before: readonly string[] } | undefined;

/** The arguments up to the folders computed when editls was built, for this maxFileSize (any, when not given); undefined otherwise. */
export function builtIndexArgs(maxFileSize?: number): readonly string[] | undefined {
  if (typeof EDITLS_INDEX_ARGS === 'undefined') return undefined;
  return maxFileSize === undefined || maxFileSize === EDITLS_INDEX_ARGS.maxFileSize ? EDITLS_INDEX_ARGS.before : undefined;
}

/** A build's arguments for these folders: one folder is searched as `.` from inside it (see symbolIndex.ts's runBuild). */
export function indexRunArgs(before: readonly string[], folders: readonly string[]): string[] {
  return [...before, ...(folders.length === 1 ? ['.'] : folders)];
}
