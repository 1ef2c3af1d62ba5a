// The ids of the commands and code-action kinds editls announces in its `initialize` answer, listed
// here so that answering needs none of the commands' code (main.ts answers before it loads them).
// commands/index.ts and codeActions.ts define each one; test/commandIds.test.ts holds the lists to them.
export const COMMAND_IDS: readonly string[] = [
  'editls.readFile',
  'editls.edit',
  'editls.strReplace',
  'editls.proposeStrReplace',
  'editls.searchAndReplace',
  'editls.replaceRange',
  'editls.insert',
  'editls.replaceInFiles',
  'editls.undo',
  'editls.searchFiles',
  'editls.applyPreview',
  'editls.discardPreview',
  'editls.trimTrailingWhitespace',
  'editls.normalizeLineEndings',
  'editls.sendToAgent',
];

export const CODE_ACTION_KINDS = ['refactor.rewrite', 'source.trimTrailingWhitespace', 'source.normalizeLineEndings', 'source.applyPreviews', 'source.sendToAgent'] as const;
