// The VS Code extension's manifest and source agree with the server: every command editls serves is
// registered and in package.json's commands, every setting it contributes is the server's (same
// default; summary deliberately "message") or the extension's own (serverPath, trace.server).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_IDS } from '../../../server/commands/index.js';
import { SETTINGS_DEFAULTS } from '../../../server/settings.js';
import { EXTENSION_SRC } from './codeServer.js';

const manifest = JSON.parse(readFileSync(path.join(EXTENSION_SRC, 'package.json'), 'utf8'));
const source = readFileSync(path.join(EXTENSION_SRC, 'src', 'extension.ts'), 'utf8');

describe('client-examples/vscode', () => {
  it('registers every server command, and lists it in package.json', () => {
    const listed = /export const SERVER_COMMANDS = \[([^\]]*)\]/u.exec(source)![1]!.match(/'editls\.[A-Za-z]+'/gu)!.map((s) => s.slice(1, -1));
    expect([...listed].sort()).toEqual([...COMMAND_IDS].sort());
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const id of COMMAND_IDS) expect(contributed).toContain(id);
    // The extension's own commands have handlers too.
    for (const id of contributed.filter((c: string) => !COMMAND_IDS.includes(c))) expect(source).toContain(`'${id}'`);
  });

  it("contributes the server's settings with the server's defaults, and its own apart", () => {
    const props: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;
    const own = new Set(['editls.serverPath', 'editls.trace.server']);
    for (const [key, prop] of Object.entries(props)) {
      if (own.has(key)) continue;
      const name = key.replace(/^editls\./u, '') as keyof typeof SETTINGS_DEFAULTS;
      expect(Object.keys(SETTINGS_DEFAULTS)).toContain(name);
      if (name !== 'summary') expect(prop.default).toEqual(SETTINGS_DEFAULTS[name]);
    }
    expect(props['editls.summary']!.default).toBe('message');
    expect(source).toMatch(/CLIENT_ONLY_SETTINGS = \['serverPath', 'trace'\]/u);
  });

  it('carries what a published extension needs', () => {
    expect(manifest).toMatchObject({ publisher: 'editls', license: 'MIT', engines: { vscode: expect.stringMatching(/^\^1\.\d+\.0$/u) } });
    expect(manifest.repository.url).toMatch(/^git\+https:/u);
    expect(manifest.scripts.package).toContain('vsce package');
  });
});
