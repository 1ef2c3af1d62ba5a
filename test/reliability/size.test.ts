// Size: 1,000 open documents of 10 KB (resident memory of the server), and a 100 MB file answered
// `too_large` without being read.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { TestClient } from '../helpers/lspClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { report, size } from './budget.js';

const ws = tempWorkspace({});
afterAll(() => ws.cleanup());

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

describe('size', () => {
  it('holds 1,000 open 10 KB documents and still edits them', async () => {
    const docs = size(1000, 200);
    const client = await TestClient.start({ root: ws.root });
    try {
      const before = rssMiB(client.proc.pid!);
      const line = 'export const value = "some text here, é and 😀";\n';
      const text = line.repeat(Math.ceil(10240 / line.length));
      for (let i = 0; i < docs; i++) await client.open(`docs/d${i}.ts`, `// doc ${i}\n${text}`);
      const r = await client.exec('editls.edit', { file_path: `docs/d${docs - 1}.ts`, old_string: `// doc ${docs - 1}\n`, new_string: '// edited\n' });
      expect(r.files[0].via).toBe('editor');
      await new Promise((res) => setTimeout(res, 300));
      const after = rssMiB(client.proc.pid!);
      report('size (open documents)', { documents: docs, docBytes: text.length, rssBeforeMiB: before, rssAfterMiB: after });
      expect(client.bufferText(`docs/d${docs - 1}.ts`)!.startsWith('// edited\n')).toBe(true);
    } finally {
      await client.shutdown();
    }
  });

  it('answers too_large for a 100 MB file without reading it', async () => {
    writeFileSync(ws.file('huge.log'), '');
    truncateSync(ws.file('huge.log'), 100 * 1024 * 1024);
    const client = await TestClient.start({ root: ws.root });
    try {
      const t0 = performance.now();
      const err = await client.execError('editls.edit', { file_path: 'huge.log', old_string: 'a', new_string: 'b' });
      const ms = Math.round(performance.now() - t0);
      report('size (100 MB file)', { kind: err.data.kind, answeredInMs: ms });
      expect(err.data.kind).toBe('too_large');
    } finally {
      await client.shutdown();
    }
  });
});
