// An agent's tools drop a result's TextEdits (mcp/results.ts), so none are built for an agent's
// changes written to disk: an attached agent's request (requester agent:…) and `editls mcp`'s headless
// session (maxResultEdits 0 in its initializationOptions) answer `editOmitted` where the editor's own
// request gets the full WorkspaceEdit. Real files; the headless session as `editls mcp` makes it.
import { afterEach, describe, expect, it } from 'vitest';
import { Sessions } from '../../server/mcp/sessions.js';
import { diskContext, plannedReplacements } from '../helpers/inProcessContext.js';
import { privateRuntimeDir } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FILES = { 'a.ts': 'one two\r\none two\r\n', 'sub/b.ts': '😀 one\none\n' };

describe('no TextEdits for an agent\'s changes written to disk', () => {
  it("an attached agent's request: editOmitted; the editor's: the full edit", async () => {
    for (const requester of ['editor', 'agent:claude-1']) {
      const ws = tempWorkspace(FILES);
      cleanups.push(ws.cleanup);
      const ctx = diskContext(ws.root, requester);
      const changes = await plannedReplacements(ctx, Object.keys(FILES), 'one', 'ONE');
      const outcome = await ctx.apply(changes, 'disk', { confirm: false, label: 'test' });
      if (!outcome.ok) throw new Error(outcome.message);
      expect(ws.read('a.ts')).toBe('ONE two\r\none two\r\n');
      expect(ws.read('sub/b.ts')).toBe('😀 ONE\none\n');
      if (requester === 'editor') {
        expect(outcome.editOmitted).toBeUndefined();
        expect(Object.values(outcome.edit?.changes ?? {}).flat().length + (outcome.edit?.documentChanges?.length ?? 0)).toBeGreaterThan(0);
      } else {
        expect(outcome.edit).toBeUndefined();
        expect(outcome.editOmitted).toEqual({ textEdits: 2, reason: expect.stringContaining('written to disk') });
      }
    }
  });

  it("editls mcp's headless session: the command's own result has no edit", async () => {
    const ws = tempWorkspace(FILES);
    const rt = privateRuntimeDir();
    cleanups.push(ws.cleanup, rt.cleanup);
    const sessions = new Sessions({ root: ws.root, clientInfo: { name: 'test agent' }, xdgRuntimeDir: rt.xdg, tmpdir: rt.xdg, uid: process.getuid!(), isProcessAlive: () => false });
    cleanups.push(() => sessions.dispose());
    const { reply, session } = await sessions.call('workspace/executeCommand', { command: 'editls.replaceInFiles', arguments: [{ search: 'one', replace: 'ONE' }] });
    expect(session.mode).toBe('headless');
    const result = reply as { filesChanged: number; replacements: number; edit?: unknown; editOmitted?: { textEdits: number }; unifiedDiff: string };
    expect({ filesChanged: result.filesChanged, replacements: result.replacements, edit: result.edit, editOmitted: result.editOmitted?.textEdits }).toEqual({ filesChanged: 2, replacements: 4, edit: undefined, editOmitted: 4 });
    expect(result.unifiedDiff).toContain('+😀 ONE');
    expect(ws.read('a.ts')).toBe('ONE two\r\nONE two\r\n');
  });
});
