// Neovim 0.7.2 (headless) with editls on a buffer, and an agent (the MCP SDK client on `editls mcp`)
// editing that buffer: the text changes in Neovim (not on disk, unsaved work kept) and one `u` undoes it.
import { describe, expect } from 'vitest';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EDITORS_DIR, FIXTURE, editorTest, hasCommand, runDriver, workspace } from './harness.js';
import { privateRuntimeDir, startMcp } from '../helpers/mcpClient.js';

describe('Neovim 0.7 + editls mcp (headless)', () => {
  editorTest('an agent edit lands in the Neovim buffer and one u undoes it', hasCommand('nvim') ? [] : ['nvim'], async () => {
    const ws = workspace();
    const rt = privateRuntimeDir();
    const savedXdg = process.env.XDG_RUNTIME_DIR;
    // runDriver passes this process's environment to Neovim, and so to its editls.
    process.env.XDG_RUNTIME_DIR = rt.xdg;
    try {
      const ready = path.join(ws.root, '.driver-out.json.ready');
      const run = runDriver('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${path.join(EDITORS_DIR, 'nvim-mcp-driver.lua')}`], ws);
      const deadline = Date.now() + 30_000;
      while (!existsSync(ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(ready)).toBe(true);
      rmSync(ready);
      const agent = await startMcp({ root: ws.root, xdg: rt.xdg, name: 'claude-code' });
      try {
        // Neovim's editls publishes its record after initialized; the driver is ready after that.
        const r = await agent.call('edit', { file_path: 'a.txt', old_string: 'hello world', new_string: 'hello AGENT' });
        expect(r.isError).toBe(false);
        expect(r.structured.session).toMatchObject({ mode: 'attached', editor: 'Neovim' });
        expect(r.structured.files[0].via).toBe('editor');
      } catch (error) {
        throw new Error(`${String(error)}\nagent stderr: ${agent.stderr()}\nready dir: ${JSON.stringify(readdirSync(rt.dir))}`);
      } finally {
        await agent.close();
        // The driver records and quits only now, so Neovim's editls is still there to answer the call.
        writeFileSync(path.join(ws.root, '.driver-out.json.done'), 'done');
      }
      const { out, stderr } = await run;
      if (out.ok !== true) throw new Error(`driver failed: ${out.error ?? JSON.stringify(out)}\n${stderr}`);
      expect(out.attached).toBe(true);
      expect(out.agent_edit_seen).toBe(true);
      expect(out.buffer).toBe('hello AGENT\nsecond line UNSAVED\nxé😀 target here\n');
      expect(out.modified).toBe(true);
      expect(out.disk).toBe(FIXTURE['a.txt']);
      expect(out.after_one_undo).toBe(out.before);
    } finally {
      if (savedXdg === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = savedXdg;
      ws.cleanup();
      rt.cleanup();
    }
  });
});
