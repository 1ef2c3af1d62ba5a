// Path escapes: `..`, absolute paths, file:// URIs (percent-encoded too), symlinked files and
// folders pointing out, dangling links, and a workspace folder removed mid-session, against every
// command that takes a path. Nothing outside the workspace may be read, listed or written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/tempWorkspace.js';
import { report } from './budget.js';

let ws: TempWorkspace;
let second: TempWorkspace;
let outside: TempWorkspace;
let client: TestClient;
const SECRET = 'TOP-SECRET-CONTENT';

beforeAll(async () => {
  ws = tempWorkspace({ 'inside.txt': 'inside\n' });
  second = tempWorkspace({ 'removed.txt': `${SECRET} in a removed folder\n` }, 'editls-second-');
  outside = tempWorkspace({ 'secret.txt': `${SECRET}\n`, 'dir/deep.txt': `${SECRET} deep\n` }, 'editls-outside-');
  symlinkSync(outside.file('secret.txt'), ws.file('link-file.txt'));
  symlinkSync(outside.root, ws.file('link-dir'));
  symlinkSync(path.join(outside.root, 'not-yet.txt'), ws.file('dangling.txt'));
  mkdirSync(ws.file('nested'));
  symlinkSync('../link-dir', ws.file('nested/chain'));
  client = await TestClient.start({ root: ws.root, folders: [ws.root, second.root] });
  await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
    event: { added: [], removed: [{ uri: pathToFileURL(second.root).href, name: 'second' }] },
  });
});
afterAll(async () => {
  await client.shutdown();
  ws.cleanup();
  second.cleanup();
  outside.cleanup();
});

function escapes(): string[] {
  const o = outside.root;
  const rel = path.relative(ws.root, outside.file('secret.txt'));
  return [
    '../secret.txt',
    rel,
    `nested/../../${path.basename(o)}/secret.txt`,
    './a/../../secret.txt',
    outside.file('secret.txt'),
    outside.file('dir/deep.txt'),
    `${ws.root}/../${path.basename(o)}/secret.txt`,
    '/etc/hostname',
    pathToFileURL(outside.file('secret.txt')).href,
    pathToFileURL(outside.file('secret.txt')).href.replace(/\//g, (m, i: number) => (i > 8 ? '%2F' : m)),
    `file://${ws.root}/%2E%2E/${path.basename(o)}/secret.txt`,
    `file://${ws.root}/..%2F${path.basename(o)}%2Fsecret.txt`,
    `file://localhost${outside.file('secret.txt')}`,
    'link-file.txt',
    'link-dir/secret.txt',
    'link-dir/dir/deep.txt',
    'link-dir/new-file.txt',
    'nested/chain/secret.txt',
    'dangling.txt',
    second.file('removed.txt'),
    pathToFileURL(second.file('removed.txt')).href,
    `${ws.root}\u0000/../secret.txt`,
  ];
}

type Attack = (p: string) => [string, Record<string, unknown>];
const ATTACKS: Record<string, Attack[]> = {
  'editls.edit': [
    (p) => ['editls.edit', { file_path: p, old_string: SECRET, new_string: 'pwned' }],
    (p) => ['editls.edit', { file_path: p, old_string: '', new_string: 'created outside' }],
    (p) => ['editls.edit', { file_path: p, old_string: SECRET, new_string: 'x', apply: 'preview' }],
  ],
  'editls.strReplace': [(p) => ['editls.strReplace', { path: p, replacements: [{ old: SECRET, new: 'pwned' }] }]],
  'editls.proposeStrReplace': [(p) => ['editls.proposeStrReplace', { path: p, replacements: [{ old: SECRET, new: 'x' }] }]],
  'editls.searchAndReplace': [(p) => ['editls.searchAndReplace', { path: p, search: SECRET, replace: 'pwned' }]],
  'editls.replaceRange': [
    (p) => ['editls.replaceRange', { filePath: p, startLine: 1, startColumn: 1, endLine: 1, endColumn: 4, expectedText: 'TOP', replacementText: 'pwn' }],
  ],
  'editls.searchFiles': [(p) => ['editls.searchFiles', { path: p, regex: SECRET }]],
};

function snapshotOutside(): string {
  const list = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? list(path.join(dir, e.name)) : [`${path.join(dir, e.name)}=${readFileSync(path.join(dir, e.name), 'utf8')}`],
    );
  return [...list(outside.root), ...list(second.root)].sort().join('\n');
}

describe('path escapes', () => {
  it('no attempt succeeds, leaks, or changes anything outside', async () => {
    const served = client.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    const before = snapshotOutside();
    let attempts = 0;
    let succeeded = 0;
    let leaked = 0;
    const failures: string[] = [];
    for (const [command, attacks] of Object.entries(ATTACKS)) {
      if (!served.includes(command)) continue;
      for (const attack of attacks) {
        for (const p of escapes()) {
          const [cmd, args] = attack(p);
          attempts++;
          try {
            const r = await client.exec(cmd, args);
            const body = JSON.stringify(r);
            // a search rooted inside the workspace may succeed, but must not show outside content
            if (cmd === 'editls.searchFiles' && !body.includes(SECRET) && (r.matches?.length ?? 0) === 0) continue;
            succeeded++;
            failures.push(`${cmd} ${p} succeeded`);
          } catch (e: any) {
            if (JSON.stringify(e?.data ?? {}).includes(SECRET) || String(e?.message).includes(SECRET)) {
              leaked++;
              failures.push(`${cmd} ${p} leaked in its error`);
            }
            if (!['outside_workspace', 'invalid_args'].includes(e?.data?.kind)) failures.push(`${cmd} ${p}: unexpected ${e?.data?.kind} ${e?.message}`);
          }
        }
      }
    }
    const changedOutside = snapshotOutside() !== before ? 1 : 0;
    report('path escapes', { attempts, succeeded, leakedContent: leaked, outsideChanged: changedOutside, commands: served.filter((c) => c in ATTACKS).length });
    expect(failures).toEqual([]);
    expect(changedOutside).toBe(0);
    expect(attempts).toBeGreaterThan(60);
  });
});
