// Process entry point: reads argv, creates the stdio connection and starts the server. The only
// module that touches `process`; it also exits promptly when the client process dies.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
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
// stdio is the only transport editls documents; default to it so `editls` alone works too.
if (!argv.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'))) {
  process.argv.push('--stdio');
}

const connection = createConnection(ProposedFeatures.all);

startServer(connection, {
  watchClientProcess: (pid) => {
    const timer = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch (error) {
        // EPERM means the process exists but belongs to someone else: still alive.
        if ((error as NodeJS.ErrnoException).code !== 'EPERM') process.exit(1);
      }
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
