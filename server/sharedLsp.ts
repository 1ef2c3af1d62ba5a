// Where the second bundle finds vscode-languageserver: main.ts puts its own module here before it
// loads dist/editls-session.js, which esbuild.mjs builds to read it (sharedLsp plugin) instead of
// bundling a second copy; one copy, so that a ResponseError the session throws is the one the
// connection recognises, and only one is evaluated.
export const SHARED_LSP = Symbol.for('editls.vscode-languageserver');
