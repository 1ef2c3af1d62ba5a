// Temporary workspaces for tests: a fresh folder under the OS temp dir filled with the given files
// (strings are written as UTF-8, Buffers byte for byte), removed again after the test file.
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempWorkspace {
  root: string;
  file(rel: string): string;
  read(rel: string): string;
  bytes(rel: string): Buffer;
  write(rel: string, content: string | Buffer): void;
  cleanup(): void;
}

export function tempWorkspace(files: Record<string, string | Buffer> = {}, prefix = 'editls-ws-'): TempWorkspace {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  const ws: TempWorkspace = {
    root,
    file: (rel) => path.join(root, rel),
    read: (rel) => readFileSync(path.join(root, rel), 'utf8'),
    bytes: (rel) => readFileSync(path.join(root, rel)),
    write: (rel, content) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), content);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
  for (const [rel, content] of Object.entries(files)) ws.write(rel, content);
  return ws;
}
