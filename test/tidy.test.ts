// Keeps the architecture honest (ARCHITECTURE.md, "Invariants"): core is pure, the dependency
// rule holds, nothing under server/ writes to stdout, every file says what it owns, and every
// registered command and setting is documented in docs/commands.md (and every command named in the
// README), every link in the README and docs/ resolves, and the repository's top level is the
// design's.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { COMMAND_IDS, COMMANDS } from '../server/commands/index.js';
import { LANGUAGE_NAMES } from '../server/core/symbols/languages.js';
import { SETTINGS_DEFAULTS } from '../server/settings.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const serverFiles = tsFiles(path.join(ROOT, 'server'));

function imports(file: string): { spec: string; typeOnly: boolean }[] {
  const src = readFileSync(file, 'utf8');
  const out: { spec: string; typeOnly: boolean }[] = [];
  for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]/gm)) {
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  }
  for (const m of src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

function layerOf(file: string): string {
  const rel = path.relative(path.join(ROOT, 'server'), file).split(path.sep);
  return rel.length === 1 ? 'top' : rel[0]!;
}

function targetLayer(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return layerOf(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
}

describe('architecture invariants', () => {
  it('core imports no LSP, no IO and nothing outside core', () => {
    const bad: string[] = [];
    for (const f of serverFiles.filter((f) => layerOf(f) === 'core')) {
      for (const { spec } of imports(f)) {
        // node:path computes on strings (core/containment.ts); it does no IO.
        const outside = spec.startsWith('.') ? targetLayer(f, spec) !== 'core' : !['diff', 'node:path'].includes(spec);
        if (outside) bad.push(`${path.relative(ROOT, f)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('follows main -> server -> handlers -> commands -> protocol -> core (workspace implements the ports)', () => {
    // Which layers each layer may import. workspace implements the ports commands own
    // (commands/ports/, composed in commands/context.ts): it imports those types and nothing else of commands.
    const allowed: Record<string, string[]> = {
      top: ['top', 'handlers', 'commands', 'protocol', 'core', 'workspace', 'attach', 'mcp', 'ide'],
      // The agent side (ARCHITECTURE.md): attach serves agents inside the editor's session (it reaches
      // commands only for their descriptors: what is reviewed follows each command's effect), mcp is the
      // `editls mcp` entry that starts a headless session (top), derives its tools from the command
      // descriptors, and holds the agent's folder with workspace's own check of a folder changed since (folders.ts).
      attach: ['attach', 'commands', 'protocol', 'core'],
      // The agent CLIs' own IDE protocols (Claude Code's, Gemini CLI's): their reviews are attach's
      // review prompts over previews; the server state they need comes from the top (ideServers.ts).
      ide: ['ide', 'attach', 'commands', 'protocol', 'core'],
      mcp: ['mcp', 'attach', 'top', 'commands', 'protocol', 'core', 'workspace'],
      handlers: ['handlers', 'commands', 'protocol', 'core'],
      commands: ['commands', 'protocol', 'core', 'top'],
      protocol: ['protocol', 'core'],
      workspace: ['workspace', 'protocol', 'core', 'top', 'commands'],
      core: ['core'],
    };
    const bad: string[] = [];
    for (const f of serverFiles) {
      const from = layerOf(f);
      for (const { spec, typeOnly } of imports(f)) {
        const to = targetLayer(f, spec);
        if (to === undefined) continue;
        const port = /(^|\/)commands\/(ports\/[a-z]+|context)\.js$/.test(spec);
        if (from === 'workspace' && to === 'commands' && !(typeOnly && port)) bad.push(`${path.relative(ROOT, f)} imports ${spec}: only the ports' types`);
        else if (!(allowed[from] ?? []).includes(to)) bad.push(`${path.relative(ROOT, f)} (${from}) imports ${spec} (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('commands take only the ports they use, never the whole Context', () => {
    // A command (and each helper of one) names the ports it reaches (commands/ports/), so a test can
    // run it against a small fake of those alone (test/commands/); only the registry, which runs any
    // command, takes the whole Context.
    const COMMANDS_DIR = path.join(ROOT, 'server', 'commands');
    const bad = serverFiles
      .filter((f) => f.startsWith(COMMANDS_DIR + path.sep) && !['context.ts', 'registry.ts'].includes(path.relative(COMMANDS_DIR, f)))
      .filter((f) => /\bContext\b/.test(readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')))
      .map((f) => path.relative(ROOT, f));
    expect(bad).toEqual([]);
  });

  it('workspace/ is split by concern: disk <- editor <- search <- symbols, context.ts wires them', () => {
    // Which of workspace/'s subfolders each may import; the small shared helpers at its top
    // (keyedMutex, limited, progress, spareBuffer, timeSlice) are open to all, context.ts and strayTemps.ts to none.
    const WS = path.join(ROOT, 'server', 'workspace');
    const SHARED = new Set(['keyedMutex.ts', 'limited.ts', 'progress.ts', 'spareBuffer.ts', 'timeSlice.ts']);
    const allowed: Record<string, string[]> = {
      disk: ['disk'],
      editor: ['editor', 'disk'],
      search: ['search', 'editor', 'disk'],
      symbols: ['symbols', 'search', 'editor', 'disk'],
    };
    const part = (file: string): string => {
      const rel = path.relative(WS, file).split(path.sep);
      return rel.length === 1 ? (SHARED.has(rel[0]!) ? 'shared' : `top:${rel[0]}`) : rel[0]!;
    };
    const bad: string[] = [];
    const wsFiles = serverFiles.filter((f) => f.startsWith(WS + path.sep));
    expect(new Set(wsFiles.map(part).filter((p) => !p.startsWith('top:') && p !== 'shared'))).toEqual(new Set(Object.keys(allowed)));
    for (const f of wsFiles) {
      const from = part(f);
      for (const { spec } of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(f), spec.replace(/\.js$/, '.ts'));
        if (!target.startsWith(WS + path.sep)) continue;
        const to = part(target);
        if (from.startsWith('top:') || to === 'shared') continue;
        if (from === 'shared' ? true : !allowed[from]!.includes(to)) bad.push(`${path.relative(ROOT, f)} (${from}) imports ${spec} (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing under server/ writes to stdout', () => {
    const bad = serverFiles.filter((f) => {
      const src = readFileSync(f, 'utf8');
      // any console (the global or connection.console): logs go through window/logMessage explicitly
      if (/\bconsole\.(log|info|debug|warn|error|trace|dir|table)\b/.test(src)) return true;
      // main.ts hands stdout to the protocol writer (LSP), or in `editls mcp` to the MCP transport, and
      // nothing else touches it but --version and --help, which answer before any protocol starts
      const uses = src.match(/process\.stdout/g)?.length ?? 0;
      const handovers = src.match(/new FrameWriter\(process\.stdout\)|stdout: process\.stdout,|process\.stdout\.write\(text\); \/\/ before any protocol: --version, --help/g)?.length ?? 0;
      return f.endsWith(path.join('server', 'main.ts')) ? uses !== handovers || !/new FrameWriter\(process\.stdout\)/.test(src) : uses > 0;
    });
    expect(bad.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('only the process entries (main.ts, and launch.ts before it) touch process', () => {
    // ripgrepHelper.ts's HELPER_SOURCE is the helper process's own program (run with `node -e`), not code of this process.
    const code = (f: string) => readFileSync(f, 'utf8').replace(/const HELPER_SOURCE = `[^`]*`;/, '');
    const entries = [path.join('server', 'main.ts'), path.join('server', 'launch.ts')];
    const bad = serverFiles.filter((f) => !entries.some((e) => f.endsWith(e)) && /\bprocess\.(exit|argv|stdin|stdout|on|kill|env)\b/.test(code(f)));
    expect(bad.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('every server file opens with a comment saying what it owns', () => {
    const bad = serverFiles.filter((f) => !/^\/\/ \S/.test(readFileSync(f, 'utf8')));
    expect(bad.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('every command id and setting is in docs/commands.md, every command in the README, and every link resolves', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const reference = readFileSync(path.join(ROOT, 'docs/commands.md'), 'utf8');
    expect(COMMAND_IDS.filter((id) => !readme.includes(`\`${id}\``))).toEqual([]);
    expect(COMMAND_IDS.filter((id) => !reference.includes(`### \`${id}\``))).toEqual([]);
    const settingsTable = reference.slice(reference.indexOf('## Settings'), reference.indexOf('## Position encodings'));
    expect(Object.keys(SETTINGS_DEFAULTS).filter((name) => !settingsTable.includes(`\`${name}\``))).toEqual([]);
    const broken: string[] = [];
    const mdFiles = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir)).flatMap((f) => (statSync(path.join(ROOT, dir, f)).isDirectory() ? mdFiles(`${dir}/${f}`) : f.endsWith('.md') ? [`${dir}/${f}`] : []));
    for (const doc of ['README.md', 'ARCHITECTURE.md', ...mdFiles('docs')]) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/.test(target)) continue;
        if (!existsSync(path.resolve(ROOT, path.dirname(doc), target))) broken.push(`${doc}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('docs/commands.md documents each command\'s arguments exactly (apply and confirm once, for every edit command)', () => {
    const reference = readFileSync(path.join(ROOT, 'docs/commands.md'), 'utf8');
    const drift: string[] = [];
    for (const command of COMMANDS) {
      const start = reference.indexOf(`### \`${command.id}\``);
      const rest = reference.slice(start + 4);
      const end = rest.search(/\n##+ /);
      const section = end === -1 ? rest : rest.slice(0, end);
      // The first cell of each argument table row: `a`, `b` / `c`.
      const documented = new Set(section.split('\n').filter((l) => /^\| `/.test(l)).flatMap((l) => [...l.split('|')[1]!.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]!)));
      const common = (k: string) => command.effect === 'edit' && (k === 'apply' || k === 'confirm');
      const keys = Object.keys(((command.args as z.ZodObject).shape ?? {}) as object).filter((k) => !common(k));
      for (const k of documented) if (common(k)) documented.delete(k);
      // A section that says its arguments are another command's (proposeStrReplace) has no table.
      if (documented.size === 0 && /^Same arguments/m.test(section)) continue;
      for (const k of keys) if (!documented.has(k)) drift.push(`${command.id}: ${k} is not documented`);
      for (const k of documented) if (!keys.includes(k)) drift.push(`${command.id}: ${k} is documented but not an argument`);
    }
    expect(drift).toEqual([]);
  });

  it('the README counts the symbol languages the index has', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`definitions in ${LANGUAGE_NAMES.length} languages`);
    const counts = [...readme.matchAll(/(\d+) languages/g)].map((m) => Number(m[1]));
    expect(counts.filter((n) => n !== LANGUAGE_NAMES.length)).toEqual([]);
  });

  it('the code map names every folder of server/ and every file at its top', () => {
    // ARCHITECTURE.md maps folders (what each owns, where to start, its invariants); a file's own
    // header says what it owns. A folder is named as `server/x/`, or as `x/` in its parent's section.
    const arch = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const rels = serverFiles.map((f) => path.relative(path.join(ROOT, 'server'), f).replace(/\\/g, '/'));
    const folders = [...new Set(rels.filter((r) => r.includes('/')).map((r) => r.slice(0, r.lastIndexOf('/'))))];
    const unnamed = folders.filter((d) => !arch.includes(`server/${d}/`) && !arch.includes(`\`${d.split('/').pop()}/\``));
    const topFiles = rels.filter((r) => !r.includes('/')).filter((r) => !arch.includes(r));
    expect([...unnamed, ...topFiles]).toEqual([]);
  });

  it('the repository\'s top level is the design\'s: no scratch file committed beside it', () => {
    // shared/design fixes the top level: package.json, tsconfig.json, server/, client-examples/,
    // test/, README.md, esbuild.mjs, with ARCHITECTURE.md, docs/ and .ci/ beside them (and the
    // files every npm project has). A developer's script belongs in a scratch folder, not here.
    const listed = spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' });
    // Outside a git checkout (an unpacked tarball) there is nothing tracked to check.
    if (listed.status !== 0) return;
    const allowed = new Set(['package.json', 'package-lock.json', 'tsconfig.json', 'vitest.config.ts', 'esbuild.mjs', 'README.md', 'ARCHITECTURE.md', 'CHANGELOG.md', 'LICENSE', '.gitignore', 'server', 'client-examples', 'test', 'docs', '.ci']);
    const top = [...new Set(listed.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('/')[0]!))];
    expect(top.filter((name) => !allowed.has(name))).toEqual([]);
  });
});
