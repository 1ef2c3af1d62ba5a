// Sentences several tools' descriptions share (what a model reads in the MCP tool list): where an
// edit lands and what a failure looks like. Kept here, next to the commands whose descriptors use them.

export const LANDS_IN_EDITOR =
  "When an editor is attached, the edit goes into the user's open buffer (unsaved, one undo step in the editor) instead of writing behind it; files not open are written to disk atomically. " +
  'Line endings, BOM and encoding are kept.';

export const ERRORS =
  'On failure nothing changes and the result is an error whose text starts with its kind: not_found (old text not in the file; the message shows the closest region — read_file and copy the text exactly), ' +
  'ambiguous (several matches: add context or use replace_all), stale (the file changed meanwhile: read it again), outside_workspace, file_not_found, binary_file, invalid_args, apply_rejected (the user or the editor refused the edit: do not retry without asking).';

/** An edit tool's description: what it does, then where it lands and how it fails. */
export function editToolText(what: string): string {
  return `${what} ${LANDS_IN_EDITOR} ${ERRORS}`;
}
