// Polls a condition until it holds or a deadline passes, for tests that wait on another process.

/** True as soon as `check()` holds, false if it still does not after `ms` milliseconds. */
export async function waitFor(check: () => boolean, ms: number, everyMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}
