// Process entry point: reads argv, creates the stdio connection and starts the server. The only
// module that touches `process`; it also exits promptly when the client process dies.
import { createConnection, ProposedFeatures, StreamMessageWriter, type ResponseMessage } from 'vscode-languageserver/node';
import { ResilientMessageReader } from './protocol/resilientReader.js';
import { SERVER_VERSION, startServer } from './server.js';

const argv = process.argv.slice(2);
if (argv.includes('--version') || argv.includes('-v')) {
  process.stderr.write(`editls ${SERVER_VERSION}\n`);
  process.exit(0);
}
if (argv.includes('--help') || argv.includes('-h')) {
  process.stderr.write('usage: editls --stdio\n  A language server for exact editing commands; speaks LSP on stdin/stdout, logs to stderr.\n');
  process.exit(0);
}
// stdio is the only transport editls serves; `--stdio` is accepted (editors pass it) and implied.

// A reader that survives malformed frames (the stock one stops reading after a bad header), and
// exit when stdin ends, as the stock stdio set-up does.
const writer = new StreamMessageWriter(process.stdout);
const reader = new ResilientMessageReader(process.stdin, (error) => {
  process.stderr.write(`editls: ${error.message}\n`);
  void writer.write({ jsonrpc: '2.0', id: null, error: { code: error.code, message: error.message } } as ResponseMessage);
});
const connection = createConnection(ProposedFeatures.all, reader, writer);
let shutdownReceived = false;
process.stdin.on('end', () => process.exit(shutdownReceived ? 0 : 1));
process.stdin.on('close', () => process.exit(shutdownReceived ? 0 : 1));

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

startServer(connection, {
  isProcessAlive,
  onShutdown: () => {
    shutdownReceived = true;
  },
  watchClientProcess: (pid) => {
    const timer = setInterval(() => {
      if (!isProcessAlive(pid)) process.exit(1);
    }, 500);
    timer.unref();
  },
});

process.on('uncaughtException', (error) => {
  process.stderr.write(`editls: uncaught exception: ${error.stack ?? error.message}\n`);
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`editls: unhandled rejection: ${String(reason)}\n`);
});
