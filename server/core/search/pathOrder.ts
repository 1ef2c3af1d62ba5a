// The order ripgrep's `--sort path` walks a tree in: depth-first, the entries of each folder sorted
// by name in byte (UTF-8, so code point) order. Needed to merge open buffers into ripgrep's stream.

/**
 * Compares two `/`-separated paths (relative to the same folder) in ripgrep's `--sort path` order: name
 * by name in code point order, read in one pass (a `/` where the other path goes on means its name
 * ended first, a prefix, so that path sorts first).
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    return compareUnits(x, y);
  }
  return a.length - b.length;
}

const SLASH = 0x2f;

/** Two different UTF-16 units in code point order: a surrogate stands for a code point above U+FFFF, so it sorts after every other BMP unit. */
function compareUnits(x: number, y: number): number {
  const xs = x >= 0xd800 && x <= 0xdfff;
  const ys = y >= 0xd800 && y <= 0xdfff;
  if (xs !== ys) return xs ? 1 : -1;
  return x - y;
}
