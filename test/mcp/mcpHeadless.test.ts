// `editls mcp` without an editor (headless): the SDK's MCP client against `node dist/editls.js mcp`
// — every tool, each error kind as an `isError` result starting with its kind, escapes refused,
// endings kept on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { privateRuntimeDir, startMcp, type McpAgent } from '../helpers/mcpClient.js';
import { tempWorkspace } from '../helpers/tempWorkspace.js';
import { childrenOf, commandLine, isGone, reapedChildrenFaults } from '../helpers/processes.js';
import { waitFor } from '../helpers/waitFor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function agentOn(files: Record<string, string | Buffer>) {
  const ws = tempWorkspace(files);
  const rt = privateRuntimeDir();
  cleanups.push(ws.cleanup, rt.cleanup);
  const agent = await startMcp({ root: ws.root, xdg: rt.xdg });
  cleanups.push(() => agent.close());
  return { ws, agent };
}

describe('editls mcp headless: the tools', () => {
  it('lists every tool with an input schema and a description', async () => {
    const { agent } = await agentOn({});
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['apply_preview', 'discard_preview', 'edit', 'insert', 'read_file', 'replace_in_files', 'replace_range', 'search_and_replace', 'search_files', 'str_replace', 'undo', 'workspace_symbols'].sort(),
    );
    const edit = tools.find((t) => t.name === 'edit')!;
    expect(edit.inputSchema.required).toEqual(['file_path', 'old_string', 'new_string']);
    expect(Object.keys(edit.inputSchema.properties ?? {})).toContain('apply');
    expect(edit.description).toMatch(/open buffer/);
    // Whole-number arguments say their least value: a model reads it, and a -1 is refused before editls sees it.
    const minimums = Object.fromEntries(
      tools.flatMap((t) => Object.entries((t.inputSchema.properties ?? {}) as Record<string, { type?: string; minimum?: number }>).filter(([, p]) => p.type === 'integer').map(([k, p]) => [`${t.name}.${k}`, p.minimum])),
    );
    expect(minimums).toEqual({
      'read_file.offset': 1,
      'read_file.limit': 1,
      'search_and_replace.start_line': 1,
      'search_and_replace.end_line': 1,
      'replace_range.startLine': 1,
      'replace_range.startColumn': 1,
      'replace_range.endLine': 1,
      'replace_range.endColumn': 1,
      'insert.insert_line': 0,
      'search_files.context_lines': 0,
      'search_files.max_results': 1,
      'replace_in_files.max_files': 1,
    });
  });

  it('edit writes to disk keeping CRLF; the result is summary + diff, structuredContent the result object; the first result says headless', async () => {
    const { ws, agent } = await agentOn({ 'a.txt': 'one\r\ntwo\r\n' });
    const r = await agent.call('edit', { file_path: 'a.txt', old_string: 'two', new_string: 'deux' });
    expect(r.isError).toBe(false);
    expect(ws.read('a.txt')).toBe('one\r\ndeux\r\n');
    expect(r.text).toMatch(/^editls\.edit: 1 replacement in a\.txt; written to disk\n\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n/);
    expect(r.text).toContain('+deux');
    expect(r.text).toContain('note: working headless on');
    expect(r.structured).toMatchObject({ success: true, status: 'applied', filesChanged: 1, session: { mode: 'headless' } });
    expect(r.structured.edit).toBeUndefined();
    // The note comes once, not on every call.
    expect((await agent.call('read_file', { file_path: 'a.txt' })).text).toBe('     1\tone\n     2\tdeux');
  });

  it('str_replace, search_and_replace, replace_range, insert, undo', async () => {
    const { ws, agent } = await agentOn({ 'b.ts': 'let a = 1;\nlet b = 2;\nlet c = 3;\n' });
    expect((await agent.call('str_replace', { path: 'b.ts', replacements: [{ old: 'a = 1', new: 'a = 10' }, { old: 'b = 2', new: 'b = 20' }] })).isError).toBe(false);
    expect((await agent.call('search_and_replace', { path: 'b.ts', search: 'let', replace: 'const' })).structured.replacements).toBe(3);
    const rr = await agent.call('replace_range', { filePath: 'b.ts', startLine: 3, startColumn: 7, endLine: 3, endColumn: 8, expectedText: 'c', replacementText: 'z' });
    expect(rr.isError).toBe(false);
    expect(rr.text).toContain('+const z = 3;');
    await agent.call('insert', { path: 'b.ts', insert_line: 0, new_str: '// top' });
    expect(ws.read('b.ts')).toBe('// top\nconst a = 10;\nconst b = 20;\nconst z = 3;\n');
    const u = await agent.call('undo', { path: 'b.ts' });
    expect(u.isError).toBe(false);
    expect(ws.read('b.ts')).toBe('const a = 10;\nconst b = 20;\nconst z = 3;\n');
  });

  it('replace_in_files replaces in every file at once, preserve_case, and one undo reverts it all', async () => {
    const { ws, agent } = await agentOn({ 'a.ts': 'getUser(); GetUser();\r\n', 'sub/b.ts': 'GETUSER\n', 'c.md': 'nothing\n' });
    const r = await agent.call('replace_in_files', { search: 'getuser', replace: 'fetchUser', ignore_case: true, preserve_case: true });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ filesChanged: 2, replacements: 3 });
    expect(ws.read('a.ts')).toBe('fetchUser(); FetchUser();\r\n');
    expect(ws.read('sub/b.ts')).toBe('FETCHUSER\n');
    const tooMany = await agent.call('replace_in_files', { search: 'U', replace: 'u', max_files: 1 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toMatch(/^too_large: /);
    expect((await agent.call('undo', {})).isError).toBe(false);
    expect(ws.read('a.ts')).toBe('getUser(); GetUser();\r\n');
    expect(ws.read('sub/b.ts')).toBe('GETUSER\n');
  });

  it('previews: apply: "preview" changes nothing; apply_preview applies it, discard_preview forgets another', async () => {
    const { ws, agent } = await agentOn({ 'p.txt': 'alpha beta\n' });
    const p = await agent.call('edit', { file_path: 'p.txt', old_string: 'alpha', new_string: 'ALPHA', apply: 'preview' });
    expect(ws.read('p.txt')).toBe('alpha beta\n');
    expect(p.structured.status).toBe('preview');
    const applied = await agent.call('apply_preview', { id: p.structured.previewId });
    expect(applied.isError).toBe(false);
    expect(ws.read('p.txt')).toBe('ALPHA beta\n');
    const q = await agent.call('edit', { file_path: 'p.txt', old_string: 'beta', new_string: 'BETA', apply: 'preview' });
    expect((await agent.call('discard_preview', { id: q.structured.previewId })).isError).toBe(false);
    const gone = await agent.call('apply_preview', { id: q.structured.previewId });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/^not_found: /);
    expect(ws.read('p.txt')).toBe('ALPHA beta\n');
  });

  it('search_files, read_file with offset/limit, workspace_symbols', async () => {
    const { agent } = await agentOn({ 'src/x.ts': 'export function helloWorld() {}\n// TODO here\n', 'src/y.py': 'class Greeter:\n    pass\n' });
    const s = await agent.call('search_files', { path: '.', regex: 'TODO' });
    expect(s.text).toContain('# src/x.ts');
    expect(s.text).toContain('2 | // TODO here');
    const r = await agent.call('read_file', { file_path: 'src/x.ts', offset: 2, limit: 1 });
    expect(r.text).toBe('     2\t// TODO here');
    // The index is built after initialize: ask until it answers.
    let sym = await agent.call('workspace_symbols', { query: 'helloWorld' });
    for (let i = 0; i < 50 && !sym.text.includes('helloWorld'); i++) {
      await new Promise((res) => setTimeout(res, 100));
      sym = await agent.call('workspace_symbols', { query: 'helloWorld' });
    }
    expect(sym.text).toMatch(/helloWorld {2}function {2}.*src\/x\.ts:1:/);
    expect(sym.structured.symbols[0].name).toBe('helloWorld');
  });

  it.skipIf(process.platform !== 'linux')('going headless starts ripgrep\'s helper process: searches fork ripgrep from it, and it exits with editls mcp', async () => {
    const { agent } = await agentOn({ 'src/x.ts': 'const a = 1; // TODO one\n', 'src/y.ts': 'TODO two\r\n' });
    const helpers = () => childrenOf(agent.pid).filter((pid) => commandLine(pid)[1] === '-e');
    // Not before a call: an agent whose editor is attached never needs one.
    await new Promise((res) => setTimeout(res, 300));
    expect(helpers()).toEqual([]);
    const s = await agent.call('search_files', { path: '.', regex: 'TODO', context_lines: 0 });
    expect(s.structured.count).toBe(2);
    expect(s.text).toContain('1 | TODO two');
    const [helper, ...more] = helpers();
    expect(more).toEqual([]);
    // The helper ran ripgrep and reaped it (the index build spawns its ripgrep from editls mcp itself).
    expect(reapedChildrenFaults(helper!)).toBeGreaterThan(0);
    const again = await agent.call('search_files', { path: 'src', regex: 'TODO t' });
    expect(again.structured.count).toBe(1);
    expect(helpers()).toEqual([helper]);
    await agent.close();
    expect(await waitFor(() => isGone(helper!), 3000)).toBe(true);
  });
});

describe('editls mcp headless: failures are isError results that start with their kind', () => {
  it('every kind the tools can produce', async () => {
    const { ws, agent } = await agentOn({ 'a.txt': 'x x\n', 'bin.dat': Buffer.from([0, 1, 2, 0, 3]) });
    const cases: [string, Record<string, unknown>, string][] = [
      ['edit', { file_path: 'a.txt', old_string: 'nope', new_string: 'y' }, 'not_found'],
      ['edit', { file_path: 'a.txt', old_string: 'x', new_string: 'y' }, 'ambiguous'],
      ['edit', { file_path: 'a.txt', old_string: 'x x', new_string: 'x x' }, 'no_change'],
      ['edit', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }, 'file_not_found'],
      ['edit', { file_path: 'a.txt', old_string: 1, new_string: 'b' }, 'invalid_args'],
      ['edit', { file_path: 'a.txt' }, 'invalid_args'],
      ['read_file', { file_path: 'bin.dat' }, 'binary_file'],
      ['read_file', { file_path: 'a.txt', offset: 9 }, 'invalid_range'],
      ['search_and_replace', { path: 'a.txt', search: '(', replace: '', use_regex: true }, 'invalid_regex'],
      ['replace_range', { filePath: 'a.txt', startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, expectedText: 'q', replacementText: 'z' }, 'stale'],
      ['apply_preview', { id: 'p-none' }, 'not_found'],
      ['undo', { path: 'a.txt' }, 'no_change'],
      ['edit', { file_path: '../outside.txt', old_string: '', new_string: 'x' }, 'outside_workspace'],
      ['no_such_tool', {}, 'invalid_args'],
    ];
    for (const [tool, args, kind] of cases) {
      const r = await agent.call(tool, args);
      expect({ tool, args, isError: r.isError, start: r.text.split(':')[0] }).toEqual({ tool, args, isError: true, start: kind });
    }
    expect(ws.read('a.txt')).toBe('x x\n');
  });

  it("arguments agents' harnesses add (Gemini CLI's wait_for_previous) are accepted; any other unknown key is refused naming the closest known one", async () => {
    const { ws, agent } = await agentOn({ 'a.txt': 'one\n' });
    const ok = await agent.call('edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two', wait_for_previous: true });
    expect(ok.isError).toBe(false);
    expect(ws.read('a.txt')).toBe('two\n');
    const typo = await agent.call('edit', { file_pth: 'a.txt', old_string: 'two', new_string: 'three' });
    expect(typo.isError).toBe(true);
    expect(typo.text).toMatch(/^invalid_args: edit takes no argument "file_pth" \(did you mean "file_path"\?\); it takes file_path, old_string, new_string, replace_all, apply/);
    const other = await agent.call('read_file', { file_path: 'a.txt', colour: 'red' });
    expect(other.text).toMatch(/^invalid_args: read_file takes no argument "colour"; it takes/);
    expect(ws.read('a.txt')).toBe('two\n');
  });

  it('escapes are refused and nothing outside changes: .., absolute, file://, symlinked file and folder', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'editls-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
    const { ws, agent } = await agentOn({ 'in.txt': 'in\n' });
    symlinkSync(path.join(outside, 'secret.txt'), ws.file('link.txt'));
    symlinkSync(outside, ws.file('dirlink'));
    const targets = ['../' + path.relative(path.dirname(ws.root), path.join(outside, 'secret.txt')), path.join(outside, 'secret.txt'), `file://${path.join(outside, 'secret.txt')}`, 'link.txt', 'dirlink/secret.txt'];
    for (const t of targets) {
      for (const [tool, args] of [
        ['read_file', { file_path: t }],
        ['edit', { file_path: t, old_string: 'secret', new_string: 'pwned' }],
        ['insert', { path: t, insert_line: 0, new_str: 'pwned' }],
      ] as const) {
        const r = await agent.call(tool, args);
        expect({ t, tool, isError: r.isError, start: r.text.split(':')[0], leaked: r.text.includes('secret\n') }).toEqual({ t, tool, isError: true, start: 'outside_workspace', leaked: false });
      }
    }
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });
});
