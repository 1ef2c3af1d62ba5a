// The rest of editls, as main.ts loads it once `initialize` is answered (the second bundle,
// dist/editls-session.js): the session's services and handlers (serveSession, server.ts), ripgrep's
// helper and the unsaved-buffer copies main.ts wires to the process, and the MCP front end.
import { z } from 'zod';
import type { runMcpServer as RunMcpServer } from './mcp/mcpServer.js';

// zod compiles each object schema into a parser with new Function at its first parse (1-2 ms each,
// once per schema); interpreted, a parse of an LSP message or a command's arguments costs ~1 µs
// more. Both front ends load this first.
z.config({ jitless: true });

export { serveSession } from './server.js';
export { MESSAGE_CHECKS } from './protocol/messageSchemas.js';
export { startWarmRipgrepHelper } from './workspace/search/ripgrep.js';
export { removeBufferCopies } from './workspace/search/bufferCopies.js';

/** `editls mcp` (mcp/mcpServer.ts), loaded on this call: an editor session never evaluates the MCP SDK. */
export function runMcpServer(...args: Parameters<typeof RunMcpServer>): ReturnType<typeof RunMcpServer> {
  // require, not import(): esbuild hoists a dynamically imported module into the bundle's eager code
  // (the SDK's schemas would be built at every LSP start); a required one is initialised on this call.
  return (require('./mcp/mcpServer.js') as typeof import('./mcp/mcpServer.js')).runMcpServer(...args);
}
