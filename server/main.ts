// Process entry point: reads argv, creates the stdio connection and starts the server. The only
// module that touches `process`; it also exits within a second when the client process dies or
// stdin closes, even when libuv's threadpool is stuck. `editls mcp` starts the MCP server instead.
// It answers `initialize` with what sessionStart.ts needs alone, and loads the rest of editls
// (session.ts: a second bundle, dist/editls-session.js, with its own code cache) once the answer is
// written, holding the client's later messages until then (sessionGate.ts).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as lsp from 'vscode-languageserver/node';
import { createConnection, ProposedFeatures, type ResponseMessage } from 'vscode-languageserver/node';
import { FrameWriter } from './protocol/frameWriter.js';
import { ResilientMessageReader } from './protocol/resilientReader.js';
import { SessionGate } from './protocol/sessionGate.js';
import { answerInitialize, sessionStart } from './sessionStart.js';
import { SERVER_VERSION } from './version.js';
import { SHARED_LSP } from './sharedLsp.js';
import { startIndexAhead } from './indexAhead.js';
import { lowerBackgroundThreads } from './backgroundThreads.js';

const argv = process.argv.slice(2);
const USAGE =
  'usage: editls [--stdio]\n' +
  '  A language server for exact editing commands; speaks LSP on stdin/stdout, logs to stderr.\n' +
  'usage: editls mcp [--root DIR]\n' +
  "  An MCP server (stdio) for coding agents: attaches to the editor's editls for DIR (default: the working directory), else works headless.\n" +
  'usage: editls --version | --help\n';
/** --version and --help answer on stdout and exit, before any protocol uses it. */
function printAndExit(text: string): never {
  process.stdout.write(text); // before any protocol: --version, --help
  process.exit(0);
}
if (argv.includes('--version') || argv.includes('-v')) printAndExit(`editls ${SERVER_VERSION}\n`);
if (argv.includes('--help') || argv.includes('-h')) printAndExit(USAGE);
/** A wrong command line: says what is wrong, then the usage, on stderr; exit status 2. */
function usageError(message: string): never {
  process.stderr.write(`editls: ${message}\n${USAGE}`);
  process.exit(2);
}
// stdio is the only transport editls serves: `--stdio` is accepted (editors pass it) and implied;
// VS Code's client adds `--clientProcessId=N`.
if (argv[0] !== 'mcp') {
  const unknown = argv.find((a) => a !== '--stdio' && !/^--clientProcessId(=\d+)?$/.test(a));
  if (unknown !== undefined) usageError(unknown.startsWith('-') ? `unknown option ${unknown}` : `unknown command ${unknown}`);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// No top-level await: the bundle is CommonJS, so that dist/editls.js can run it through V8's code
// cache (launch.ts).
if (argv[0] === 'mcp') void runMcp(argv.slice(1));
else startLsp();

/**
 * The rest of editls (session.ts). In the build it is the second bundle, dist/editls-session.js (its
 * require stays a require: esbuild.mjs), which takes this bundle's vscode-languageserver rather
 * than a copy of its own (sharedLsp.ts); run from the sources it is the module itself.
 */
function loadSession(): typeof import('./session.js') {
  (globalThis as Record<symbol, unknown>)[SHARED_LSP] = lsp;
  const session = require('./session.js') as typeof import('./session.js');
  // Copies of unsaved buffers a search still had when the process ends (editor or editls mcp) go with it.
  process.on('exit', session.removeBufferCopies);
  return session;
}

/**
 * `editls mcp`: the MCP server for agents (server/mcp/), initialised only here so LSP start-up does
 * not pay for it. It never returns: the process ends when the agent closes stdin.
 */
async function runMcp(rest: string[]): Promise<void> {
  const rootAt = rest.indexOf('--root');
  const extra = rest.filter((_, i) => rootAt < 0 || (i !== rootAt && i !== rootAt + 1));
  if (extra.length > 0) usageError(`editls mcp takes no ${extra[0]!.startsWith('-') ? 'option' : 'argument'} ${extra[0]}`);
  const root = rootAt >= 0 ? rest[rootAt + 1] : process.cwd();
  if (root === undefined || root === '') usageError('editls mcp: --root needs a folder');
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) {
    process.stderr.write(`editls mcp: --root ${root}: no such folder\n`);
    process.exit(2);
  }
  process.on('uncaughtException', (error) => process.stderr.write(`editls mcp: uncaught exception: ${error.stack ?? error.message}\n`));
  process.on('unhandledRejection', (reason) => process.stderr.write(`editls mcp: unhandled rejection: ${String(reason)}\n`));
  const { runMcpServer, startWarmRipgrepHelper } = loadSession();
  // An agent's edits without an editor are written here: the same priorities as the LSP server's (backgroundThreads.ts).
  void lowerBackgroundThreads();
  try {
    const { closed } = await runMcpServer({
      root,
      version: SERVER_VERSION,
      xdgRuntimeDir: process.env.XDG_RUNTIME_DIR || undefined,
      tmpdir: os.tmpdir(),
      uid: os.userInfo().uid,
      isProcessAlive,
      // Not on Windows, where libuv's IPC passes only TCP sockets (see below).
      ...(process.platform !== 'win32' ? { startRipgrepHelper: () => startWarmRipgrepHelper(process.execPath) } : {}),
      stdin: process.stdin,
      stdout: process.stdout,
      log: (message) => process.stderr.write(`${message}\n`),
    });
    process.stdin.on('end', () => process.exit(0));
    process.stdin.on('close', () => process.exit(0));
    await closed;
  } catch (error) {
    process.stderr.write(`editls mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.exit(0);
}

/** The language server on stdin/stdout. */
function startLsp(): void {
  // A reader that survives malformed frames (the stock one stops reading after a bad header), behind
  // the session gate (lifecycle order, ids, message shapes), and exit when stdin ends, as the stock
  // stdio set-up does.
  const stdout = new FrameWriter(process.stdout);
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
    // A JavaScript signal handler cannot run once process.exit blocks the main thread, and while one
    // is installed the signal does not end the process: give the watchdog's SIGTERM its default action.
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.removeAllListeners(signal);
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

  // An `exit` before `initialize` (the rest of editls is not loaded then) exits as after it.
  connection.onExit(exitNow);
  const start = sessionStart(connection);
  connection.onInitialize((params) => {
    // Once the answer is written (vscode-languageserver writes it when this returns): the symbol
    // index's ripgrep, the rest of editls, then the messages that came meanwhile; also when making
    // the answer fails (the client hears why, and is served as before). A broken install cannot
    // serve: it says why and exits.
    setImmediate(() => {
      // ripgrep first: it works through the symbol index on another core while the rest loads.
      const indexAhead = startIndexAhead(start.folders.list);
      // Not left running when editls ends first (kill does nothing once ripgrep has exited).
      if (indexAhead !== undefined) process.once('exit', () => indexAhead.kill());
      let session: typeof import('./session.js');
      try {
        session = loadSession();
      } catch (error) {
        process.stderr.write(`editls: cannot load the rest of editls (dist/editls-session.js): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
      }
      session.serveSession(start, { ...sessionHooks(session), indexAhead });
      gate.release(session.MESSAGE_CHECKS);
    });
    // Polled every 200 ms, so that the server is gone within a second of its client.
    return answerInitialize(start, params, (pid) => {
      const timer = setInterval(() => {
        if (!isProcessAlive(pid)) exitNow();
      }, 200);
      timer.unref();
    });
  });
  connection.listen();

  function sessionHooks(session: typeof import('./session.js')): import('./server.js').ServerHooks {
    return {
      isProcessAlive,
      pendingWrites: () => stdout.pendingWrites(),
      onShutdown: () => {
        shutdownReceived = true;
      },
      onExit: exitNow,
      // The discovery record and socket agents attach to (`editls mcp`), removed however the process ends.
      attach: {
        xdgRuntimeDir: process.env.XDG_RUNTIME_DIR || undefined,
        tmpdir: os.tmpdir(),
        claudeConfigDir: process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'),
        uid: os.userInfo().uid,
        pid: process.pid,
        windows: process.platform === 'win32',
        onExit: (cleanup) => {
          process.on('exit', cleanup);
          for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]] as const) {
            process.once(signal, () => {
              cleanup();
              process.exit(code);
            });
          }
        },
      },
      // ripgrep's helper process, started once `initialize` is answered (spawning it costs the answer 10-20 ms)
      // and while this process is still small (the index is built after `initialized`): searches fork ripgrep
      // from it, not from the indexed server (workspace/search/ripgrepHelper.ts). Until it runs, and without it
      // (Windows, where libuv's IPC passes only TCP sockets, not pipes), ripgrep is spawned directly.
      // Then the background threads (libuv's threadpool, V8's helpers) below the main thread's priority
      // (backgroundThreads.ts; Linux only).
      afterInitialize: () => {
        if (process.platform !== 'win32') session.startWarmRipgrepHelper(process.execPath);
        void lowerBackgroundThreads();
      },
    };
  }

  process.on('uncaughtException', (error) => {
    process.stderr.write(`editls: uncaught exception: ${error.stack ?? error.message}\n`);
  });
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`editls: unhandled rejection: ${String(reason)}\n`);
  });
}
