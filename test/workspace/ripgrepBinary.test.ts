// ripgrep's binary found without loading @vscode/ripgrep (ripgrepBinary.ts) is the one @vscode/ripgrep
// names, and when the platform package cannot be resolved that way, @vscode/ripgrep's own answer is used.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ripgrepBinary } from '../../server/workspace/search/ripgrepBinary.js';

const req = createRequire(import.meta.url);

describe("ripgrep's binary", () => {
  it("is @vscode/ripgrep's rgPath", async () => {
    const { rgPath } = await import('@vscode/ripgrep');
    expect(ripgrepBinary(req)).toBe(rgPath);
    expect(existsSync(rgPath)).toBe(true);
  });

  it('falls back to @vscode/ripgrep when its platform package does not resolve', async () => {
    const { rgPath } = await import('@vscode/ripgrep');
    const asked: string[] = [];
    const noPlatformPackage = Object.assign((id: string) => (asked.push(id), req(id)), {
      resolve: () => {
        throw new Error('Cannot find module');
      },
    }) as unknown as NodeJS.Require;
    expect(ripgrepBinary(noPlatformPackage)).toBe(rgPath);
    expect(asked).toEqual(['@vscode/ripgrep']);
  });
});
