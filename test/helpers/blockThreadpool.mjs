// Test preload (`node --import`): on SIGUSR2, blocks libuv's threadpool of the process it is loaded
// into by opening the FIFOs named in EDITLS_TEST_BLOCK_FIFOS for reading (each open waits for a
// writer that never comes), then says on stderr whether a threadpool call still completes.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const fifos = (process.env.EDITLS_TEST_BLOCK_FIFOS ?? '').split(',').filter(Boolean);
process.on('SIGUSR2', () => {
  for (const fifo of fifos) fs.promises.open(fifo, 'r').catch(() => undefined);
  let done = false;
  fs.promises.stat(fileURLToPath(import.meta.url)).then(() => (done = true), () => (done = true));
  setTimeout(() => process.stderr.write(done ? 'threadpool free\n' : 'threadpool blocked\n'), 300);
});
process.stderr.write('threadpool blocker ready\n');
