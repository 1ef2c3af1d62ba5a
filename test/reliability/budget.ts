// Sizes for the reliability suite: `npm run test:reliability` sets EDITLS_RELIABILITY=full for the
// published figures; `npm test` runs the same checks with small counts. Each check prints one
// `[reliability]` line with its counts, collected into the README's "Guarantees" table.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FULL = process.env.EDITLS_RELIABILITY === 'full';

export function size(full: number, fast: number): number {
  return FULL ? full : fast;
}

const REPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.reliability/report.txt');

export function report(check: string, figures: Record<string, number | string>): void {
  const line = `[reliability] ${check}: ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join(', ')}`;
  console.log(line);
  mkdirSync(path.dirname(REPORT), { recursive: true });
  appendFileSync(REPORT, `${new Date().toISOString()} ${FULL ? 'full' : 'fast'} ${line}\n`);
}
