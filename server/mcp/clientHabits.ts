// What each agent's MCP client does that editls has to meet (found by running the real CLIs, see
// test/agents/): arguments its harness adds to every call, and how it shows a tool's failure to its
// model. Keyed by the client's name from MCP initialize.

/**
 * Arguments that agent harnesses add to every tool call on their own; accepted and dropped. Gemini
 * CLI adds `wait_for_previous` to every tool's schema and tells its model to set it.
 */
export const HARNESS_KEYS: ReadonlySet<string> = new Set(['wait_for_previous']);

export interface ClientHabits {
  /**
   * The client shows a failed result (isError) to its model wrapped in its own error text, not the
   * result's text: failures then go as plain results whose text starts with the kind. Gemini CLI
   * 0.61 shows `{"error":"MCP tool 'edit' reported tool error for function call: {…} with response: [{…}]"}`.
   */
  failuresAsText: boolean;
}

export function clientHabits(clientName: string | undefined): ClientHabits {
  return { failuresAsText: clientName === 'gemini-cli-mcp-client' };
}

/** The closest of `known` to an unknown key (at most a third of its letters different), for "did you mean". */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(key.length, best.length) / 3)) ? best : undefined;
}

/** Levenshtein distance (keys are short). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
