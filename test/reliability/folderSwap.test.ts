// Folder swaps against the real server: the workspace folder replaced by a symlink (or removed)
// mid-session, searchFiles' scope swapped for a link by another process while searches run, and one
// file open under two URIs with one closed. Nothing outside may be read, listed or written, and
// no edit may go to disk under an open buffer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const SECRET = 'TOP-SECRET-CONTENT';

describe('workspace folder replaced by a symlink or removed mid-session', () => {
  let base: TempWorkspace;
  let client: TestClient;
  let proj: string;
  beforeAll(async () => {
    base = tempWorkspace({ 'proj/a.ts': 'export function insideFn() {}\n', 'elsewhere/a.ts': `export function secretFn() {} // ${SECRET}\n` }, 'editls-swap-');
    proj = base.file('proj');
    client = await TestClient.start({ root: proj });
  });
  afterAll(async () => {
    await client.shutdown();
    base.cleanup();
  });

  /** Every path-taking request, aimed at the folder's path; each must be refused (or answer nothing from elsewhere). */
  function attacks(): (() => Promise<unknown>)[] {
    const exec = (command: string, args: unknown) => () => client.exec(command, args);
    return [
      exec('editls.edit', { file_path: 'a.ts', old_string: 'secretFn', new_string: 'pwned' }),
      exec('editls.edit', { file_path: path.join(proj, 'a.ts'), old_string: 'secretFn', new_string: 'pwned' }),
      exec('editls.edit', { file_path: 'planted.ts', old_string: '', new_string: 'planted\n' }),
      exec('editls.strReplace', { path: pathToFileURL(path.join(proj, 'a.ts')).href, replacements: [{ old: 'secretFn', new: 'pwned' }] }),
      exec('editls.searchAndReplace', { path: 'a.ts', search: 'secretFn', replace: 'pwned' }),
      exec('editls.replaceRange', { filePath: 'a.ts', startLine: 1, startColumn: 1, endLine: 1, endColumn: 7, expectedText: 'export', replacementText: 'pwned' }),
      exec('editls.trimTrailingWhitespace', { path: 'a.ts' }),
      exec('editls.searchFiles', { path: '.', regex: 'secretFn|TOP-SECRET' }),
      exec('editls.proposeStrReplace', { path: 'a.ts', replacements: [{ old: 'secretFn', new: 'pwned' }] }),
      () => client.conn.sendRequest('workspace/symbol', { query: 'secretFn' }),
      () => client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: client.uri('a.ts') }, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, context: { diagnostics: [] } }),
    ];
  }

  it('every command is refused while the folder leads elsewhere or is gone, and works again once it is back', async () => {
    const trials = size(40, 6);
    let attempts = 0;
    let held = 0;
    let refusedAsOutside = 0;
    let worksAfterRestore = 0;
    const started = Date.now();
    for (let t = 0; t < trials; t++) {
      const removed = t % 2 === 1;
      renameSync(proj, base.file('proj.bak'));
      if (!removed) symlinkSync(base.file('elsewhere'), proj, 'dir');
      const before = base.read('elsewhere/a.ts');
      for (const attack of attacks()) {
        attempts++;
        const outcome = await attack().then(
          (r) => ({ ok: true as const, r }),
          (e: { data?: { kind?: string } }) => ({ ok: false as const, kind: e?.data?.kind }),
        );
        const leaked = outcome.ok && JSON.stringify(outcome.r ?? null).match(/secretFn|TOP-SECRET/) !== null;
        const wrote = base.read('elsewhere/a.ts') !== before || existsSync(base.file('elsewhere/planted.ts')) || existsSync(base.file('proj.bak/planted.ts'));
        if (!outcome.ok && outcome.kind === 'outside_workspace') refusedAsOutside++;
        if (!leaked && !wrote) held++;
      }
      if (!removed) unlinkSync(proj);
      renameSync(base.file('proj.bak'), proj);
      const back = await client.exec('editls.searchFiles', { path: '.', regex: 'insideFn' });
      if (back.count === 1) worksAfterRestore++;
    }
    report('folder swap (workspace folder replaced by a symlink / removed, every path-taking request)', {
      trials,
      attempts,
      held,
      refusedAsOutsideWorkspace: refusedAsOutside,
      worksAgainAfterRestore: worksAfterRestore,
      ms: Date.now() - started,
    });
    expect(held).toBe(attempts);
    expect(worksAfterRestore).toBe(trials);
  });
});

describe('searchFiles scope swapped by another process during searches', () => {
  let ws: TempWorkspace;
  let outside: TempWorkspace;
  let client: TestClient;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`sub/f${i}.txt`] = `needle ${i}\n`;
    for (let i = 0; i < 200; i++) files[`other/g${i}.txt`] = `needle ${i}\n`;
    ws = tempWorkspace(files, 'editls-scopeswap-');
    outside = tempWorkspace({ 'secret.txt': `needle ${SECRET}\n`, 'deep/secret2.txt': `needle ${SECRET}\n` }, 'editls-outside-');
    client = await TestClient.start({ root: ws.root });
  });
  afterAll(async () => {
    await client.shutdown();
    ws.cleanup();
    outside.cleanup();
  });

  it('no search reports a line from outside while sub/ flips between itself and a link', async () => {
    const searches = size(400, 40);
    const stop = ws.file('.stop');
    // The swapper: mv sub sub.real; ln -s outside sub; ...; rm sub; mv sub.real sub — as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const [sub, real, out, stop] = process.argv.slice(1); let n = 0;
         const pause = () => { const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 2000000n); };
         while (!fs.existsSync(stop)) { fs.renameSync(sub, real); fs.symlinkSync(out, sub, 'dir'); pause(); fs.unlinkSync(sub); fs.renameSync(real, sub); n++; pause(); }
         process.stdout.write(String(n));`,
        ws.file('sub'),
        ws.file('sub.real'),
        outside.root,
        stop,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let swaps = '';
    swapper.stdout.on('data', (d: Buffer) => (swaps += d.toString()));
    const exited = new Promise((resolve) => swapper.on('exit', resolve));
    let held = 0;
    let answered = 0;
    let refused = 0;
    let slowest = 0;
    const started = Date.now();
    try {
      for (let i = 0; i < searches; i++) {
        const t0 = Date.now();
        const scope = i % 2 === 0 ? 'sub' : '.';
        const outcome = await client.exec('editls.searchFiles', { path: scope, regex: 'needle', max_results: 1000 }).then(
          (r) => ({ ok: true as const, text: JSON.stringify(r) }),
          (e: { data?: { kind?: string } }) => ({ ok: false as const, text: JSON.stringify(e?.data ?? {}) }),
        );
        slowest = Math.max(slowest, Date.now() - t0);
        if (outcome.ok) answered++;
        else refused++;
        if (!outcome.text.includes(SECRET)) held++;
      }
    } finally {
      writeFileSync(stop, '');
      await exited;
      rmSync(stop);
    }
    report('searchFiles scope swapped for a link by another process during searches', {
      searches,
      swaps: swaps || '?',
      held,
      answered,
      refused,
      slowestMs: slowest,
      ms: Date.now() - started,
    });
    expect(held).toBe(searches);
    expect(existsSync(ws.file('sub/f0.txt'))).toBe(true);
  });
});

describe('one file open under two URIs, one closed', () => {
  let ws: TempWorkspace;
  let client: TestClient;
  beforeAll(async () => {
    ws = tempWorkspace({}, 'editls-twouri-');
    client = await TestClient.start({ root: ws.root });
  });
  afterAll(async () => {
    await client.shutdown();
    ws.cleanup();
  });

  it('an edit of the file goes to the editor while any URI is open, never to disk', async () => {
    const trials = size(200, 20);
    let toEditor = 0;
    let diskIdentical = 0;
    let toDiskOnceAllClosed = 0;
    const started = Date.now();
    for (let t = 0; t < trials; t++) {
      const real = `real${t}.ts`;
      ws.write(real, `const v${t} = 0;\n`);
      symlinkSync(ws.file(real), ws.file(`link${t}.ts`));
      // The third name reaches the file through a linked folder: sub{t}/ -> the workspace itself.
      symlinkSync('.', ws.file(`sub${t}`), 'dir');
      const names = [real, `link${t}.ts`, `sub${t}/${real}`];
      const opened = names.slice().sort(() => Math.random() - 0.5).slice(0, 2 + (t % 2));
      for (const n of opened) await client.open(n, `const v${t} = 0;\n`);
      const kept = opened[Math.floor(Math.random() * opened.length)]!;
      await client.type(kept, ' = 0', ' = 1');
      for (const n of opened) if (n !== kept) await client.close(n);
      const disk = ws.bytes(real);
      const target = names[t % names.length]!;
      const r = await client.exec('editls.edit', { file_path: target, old_string: 'const', new_string: 'let' });
      if (r.files[0].via === 'editor' && client.bufferText(kept) === `let v${t} = 1;\n`) toEditor++;
      if (ws.bytes(real).equals(disk)) diskIdentical++;
      await client.close(kept);
      const after = await client.exec('editls.edit', { file_path: real, old_string: 'const', new_string: 'var' });
      if (after.files[0].via === 'disk' && ws.read(real) === `var v${t} = 0;\n`) toDiskOnceAllClosed++;
    }
    report('one file open under two or three URIs (symlinked file and folder), all but one closed', {
      trials,
      editsToEditor: toEditor,
      diskByteIdentical: diskIdentical,
      diskOnceAllClosed: toDiskOnceAllClosed,
      ms: Date.now() - started,
    });
    expect(toEditor).toBe(trials);
    expect(diskIdentical).toBe(trials);
    expect(toDiskOnceAllClosed).toBe(trials);
  });
});
