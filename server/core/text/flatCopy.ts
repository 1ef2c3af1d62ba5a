// A string in memory of its own. V8 makes a slice of 13 characters or more a view of the whole string
// it was cut from, which then lives as long as the slice: a name kept from a line of ripgrep's output,
// or a span kept from a file's text (the undo journal's inverse edits), would keep all of it.

/** A flat copy of `s` that shares nothing with the string it may have been sliced from. */
export function flatCopy(s: string): string {
  // The concatenation is made flat (copied) by the slice that reads it; the slice then holds only that copy.
  return (' ' + s).slice(1);
}
