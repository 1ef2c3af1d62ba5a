// Process entry point: reads argv, creates the stdio connection and starts the server. The only
// module that touches `process`; it also exits within a second when the client process dies or
// stdin closes, even when libuv's threadpool is stuck.
import { spawn } from 'node:child_process';
import { createConnection, ProposedFeatures, StreamMessageWriter, type ResponseMessage } from 'vscode-languageserver/node';
import { ResilientMessageReader } from './protocol/resilientReader.js';
import { SessionGate } from './protocol/sessionGate.js';
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

// A reader that survives malformed frames (the stock one stops reading after a bad header), behind
// the session gate (lifecycle order, ids, message shapes), and exit when stdin ends, as the stock
// stdio set-up does.
const stdout = new StreamMessageWriter(process.stdout);
const gate = new SessionGate((message) => void stdout.write(message));
const reader = new ResilientMessageReader(process.stdin, (error) => {
  process.stderr.write(`editls: ${error.message}\n`);
  if (error.code !== -32603) void stdout.write({ jsonrpc: '2.0', id: error.id, error: { code: error.code, message: error.message } } as ResponseMessage);
});
const connection = createConnection(ProposedFeatures.all, gate.reader(reader), gate.writer(stdout));
let shutdownReceived = false;
let exiting = false;

/** Exits (0 after `shutdown`, 1 otherwise, as LSP asks) and never hangs doing it. */
function exitNow(): void {
  if (exiting) return;
  exiting = true;
  armExitWatchdog();
  process.exit(shutdownReceived ? 0 : 1);
}

/**
 * process.exit joins libuv's threadpool threads (uv_library_shutdown), so one thread stuck in a
 * blocking open() or read() (a FIFO, a hung network mount) would keep editls alive for ever. A
 * shell started just before exiting sends SIGTERM (then SIGKILL) if editls is still alive 300 ms
 * later; it learns of a normal exit from its stdin pipe (EOF once editls is gone) and then does
 * nothing, so it can never signal a reused pid.
 */
function armExitWatchdog(): void {
  if (process.platform === 'win32') return;
  const pid = process.pid;
  try {
    const watchdog = spawn('/bin/sh', ['-c', `(sleep 0.3; kill -TERM ${pid}; sleep 0.2; kill -KILL ${pid}) & cat >/dev/null; kill $! 2>/dev/null`], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    watchdog.on('error', () => undefined);
    watchdog.stdin.on('error', () => undefined);
  } catch {
    // No shell: exit as usual.
  }
}

process.stdin.on('end', exitNow);
process.stdin.on('close', exitNow);

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
  onExit: exitNow,
  // Polled every 200 ms, so that the server is gone within a second of its client.
  watchClientProcess: (pid) => {
    const timer = setInterval(() => {
      if (!isProcessAlive(pid)) exitNow();
    }, 200);
    timer.unref();
  },
});

process.on('uncaughtException', (error) => {
  process.stderr.write(`editls: uncaught exception: ${error.stack ?? error.message}\n`);
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`editls: unhandled rejection: ${String(reason)}\n`);
});
