// Set-up for stdio server tests: temp workspaces and started clients registered for clean-up after
// each test (clients shut down first, then folders removed), or one client per position encoding
// kept for a whole file.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CAPS_HELIX, CAPS_LSPMODE_8, CAPS_VSCODE, TestClient, type ClientOptions, type Encoding } from './lspClient.js';
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

/**
 * One client per position encoding (Helix utf-8, VS Code utf-16, lsp-mode utf-32) on one empty
 * temp workspace, started before the file's tests and shut down after them.
 */
export function clientsPerEncoding(): { clients: Record<Encoding, TestClient>; workspace(): TempWorkspace } {
  let ws: TempWorkspace | undefined;
  const clients = {} as Record<Encoding, TestClient>;
  beforeAll(async () => {
    ws = tempWorkspace({});
    clients['utf-8'] = await TestClient.start({ root: ws.root, capabilities: CAPS_HELIX });
    clients['utf-16'] = await TestClient.start({ root: ws.root, capabilities: CAPS_VSCODE });
    clients['utf-32'] = await TestClient.start({ root: ws.root, capabilities: CAPS_LSPMODE_8, clientName: 'emacs' });
  });
  afterAll(async () => {
    for (const c of Object.values(clients)) await c.shutdown();
    ws?.cleanup();
  });
  return { clients, workspace: () => ws! };
}
