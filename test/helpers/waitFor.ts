// Polls a condition until it holds or a deadline passes, for tests that wait on another process.

/**
 * The bound for something that must happen, not a guess at how long it takes: a test waits on the
 * event itself, and this only turns a hang into a failed assertion before the test's own timeout
 * (30 s). On a busy machine an event may take seconds; one that never comes is a bug.
 */
export const EVENTUALLY_MS = 20_000;

/** True as soon as `check()` holds, false if it still does not after `ms` milliseconds. */
export async function waitFor(check: () => boolean, ms: number = EVENTUALLY_MS, everyMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}
