// Per-test set-up for stdio server tests: temp workspaces and started clients registered for
// clean-up after each test (clients shut down first, then folders removed).
import { afterEach } from 'vitest';
import { TestClient, type ClientOptions } from './lspClient.js';
import { tempWorkspace, type TempWorkspace } from './tempWorkspace.js';

export function serverFixture() {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    cleanups,
    /** A fresh temp workspace holding `files`, removed after the test. */
    setup(files: Record<string, string | Buffer>): TempWorkspace {
      const ws = tempWorkspace(files);
      cleanups.push(() => ws.cleanup());
      return ws;
    },
    /** The real server on `ws`, shut down after the test. */
    async start(ws: TempWorkspace, options: Partial<ClientOptions> = {}): Promise<TestClient> {
      const client = await TestClient.start({ root: ws.root, ...options });
      cleanups.push(() => client.shutdown());
      return client;
    },
  };
}
