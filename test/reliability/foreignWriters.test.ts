// Another program writing a file editls edits: a real child process appending a line every 2 ms
// (opening the file each time), and a shell writer holding it open in append mode (`>>`). No
// appended line may vanish behind a success reply that could have seen it.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

let ws: TempWorkspace;
let client: TestClient;

beforeAll(async () => {
  ws = tempWorkspace({});
  client = await TestClient.start({ root: ws.root });
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
});

/** Runs until its stdin closes, then prints how many lines it wrote. */
const APPENDER = `
const fs = require('node:fs');
let n = 0;
const timer = setInterval(() => fs.appendFileSync(process.argv[1], 'line ' + n++ + '\\n'), 2);
process.stdin.on('data', () => {});
process.stdin.on('end', () => { clearInterval(timer); process.stdout.write(String(n)); });
`;

function finished(child: ChildProcess): Promise<string> {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

/** Edits the header line `head N` -> `head N+1` `edits` times; returns how the attempts ended. */
async function editHeader(rel: string, edits: number, until?: () => boolean) {
  let head = 0;
  let applied = 0;
  let stale = 0;
  const other: string[] = [];
  const notes: string[] = [];
  let firstSuccessSent: number | undefined;
  for (let attempt = 0; attempt < edits * 3 && applied < edits && !(until?.() ?? false); attempt++) {
    const sent = Date.now();
    try {
      const r = await client.exec('editls.edit', { file_path: rel, old_string: `head ${head}\n`, new_string: `head ${head + 1}\n` });
      firstSuccessSent ??= sent;
      notes.push(...(r.notes ?? []));
      head++;
      applied++;
    } catch (e: any) {
      if (e?.data?.kind === 'stale') stale++;
      else other.push(String(e?.message));
    }
  }
  return { head, applied, stale, other, notes, firstSuccessSent };
}

describe('foreign writers', () => {
  it('a program appending every 2 ms while editls edits the (closed) file: no line silently lost', async () => {
    const rel = 'appended.log';
    ws.write(rel, 'head 0\n');
    const appender = spawn(process.execPath, ['-e', APPENDER, ws.file(rel)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const count = finished(appender);
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const run = await editHeader(rel, 1_000_000, () => Date.now() - started > size(20_000, 2_500));
    const ms = Date.now() - started;
    appender.stdin!.end();
    const written = Number(await count);
    const lines = ws.read(rel).split('\n').filter((l) => l !== '');
    const present = new Set(lines.filter((l) => l.startsWith('line ')));
    let lost = 0;
    for (let i = 0; i < written; i++) if (!present.has(`line ${i}`)) lost++;
    const duplicated = lines.length - new Set(lines).size;
    const carried = run.notes.filter((n) => n.includes('appended again')).length;
    report('foreign writer: appender every 2 ms vs repeated edits of the same closed file', {
      linesAppended: written,
      linesLost: lost,
      duplicated,
      editsApplied: run.applied,
      staleRefusals: run.stale,
      appendsCarriedOverAfterRename: carried,
      otherErrors: run.other.length,
      seconds: (ms / 1000).toFixed(1),
    });
    expect(run.other).toEqual([]);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(lines[0]).toBe(`head ${run.head}`);
  });

  it('a writer holding the file open in append mode (`>>`): what is guaranteed, measured', async () => {
    const rel = 'held.log';
    ws.write(rel, 'head 0\n');
    const total = size(300, 60);
    // Each line carries the time it was written (ms since the epoch); a copy goes to stderr so that
    // lines lost into a replaced file are still known.
    const writer = spawn('bash', ['-c', `for i in $(seq 0 ${total - 1}); do l="held $i $(date +%s%3N)"; echo "$l"; echo "$l" >&2; sleep 0.01; done >> ${JSON.stringify(ws.file(rel))}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    writer.stderr!.on('data', (d) => (log += d));
    let done = false;
    const exited = new Promise((resolve) => writer.on('close', resolve)).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    const run = await editHeader(rel, 1_000_000, () => done);
    await exited;
    const written = log.split('\n').filter((l) => l !== '').map((l) => ({ n: Number(l.split(' ')[1]), t: Number(l.split(' ')[2]) }));
    const lines = ws.read(rel).split('\n').filter((l) => l.startsWith('held '));
    const numbers = lines.map((l) => Number(l.split(' ')[1]));
    // Kept lines are in order and none twice: a prefix of what was written.
    expect(numbers).toEqual(numbers.map((_, i) => i));
    const firstSent = run.firstSuccessSent ?? Infinity;
    // Lines written before the first successful edit was sent were in the file editls read: all kept.
    const lostEarly = written.filter((w) => w.t < firstSent && !numbers.includes(w.n)).length;
    expect(run.other).toEqual([]);
    expect(lostEarly).toBe(0);
    report('foreign writer: `>>` writer holding the file open, repeated edits', {
      linesWritten: written.length,
      linesKept: lines.length,
      linesLostIntoAReplacedFile: written.length - lines.length,
      lostThatEditlsCouldSee: lostEarly,
      editsApplied: run.applied,
      staleRefusals: run.stale,
      appendsCarriedOverAfterRename: run.notes.filter((n) => n.includes('appended again')).length,
    });
  });
});
