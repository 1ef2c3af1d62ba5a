// A Context over real files in this process, with no editor (every change goes to disk): for tests
// that must act at a precise point of a command's work (between two renames of a batch), which a
// server in another process cannot offer. The same createContext, batch writer and journal as editls.
import type { Context } from '../../server/commands/context.js';
import type { PlannedChange } from '../../server/commands/ports/apply.js';
import { clientTraits } from '../../server/protocol/clientTraits.js';
import { SETTINGS_DEFAULTS } from '../../server/settings.js';
import { createContext, type ServerState } from '../../server/workspace/context.js';
import { KeyedMutex } from '../../server/workspace/keyedMutex.js';
import { OpenDocuments } from '../../server/workspace/editor/openDocuments.js';
import { Previews } from '../../server/workspace/editor/previews.js';
import { ProgressReporter } from '../../server/workspace/progress.js';
import type { SymbolIndex } from '../../server/workspace/symbols/symbolIndex.js';
import { UndoJournal } from '../../server/workspace/editor/undoJournal.js';

export function diskContext(root: string, requester = 'editor'): Context {
  const state: ServerState = {
    folders: [root],
    requester,
    settings: { ...SETTINGS_DEFAULTS },
    encoding: 'utf-16',
    traits: clientTraits({}),
    documents: new OpenDocuments(() => 'utf-16'),
    mutex: new KeyedMutex(),
    sendApplyEdit: () => Promise.reject(new Error('no editor in this test')),
    unconfirmed: new Map(),
    log: () => undefined,
    showMessage: () => undefined,
    previews: new Previews({ encoding: () => 'utf-16', publish: () => undefined, log: () => undefined }),
    progress: new ProgressReporter({ supported: () => false, create: () => Promise.resolve(), send: () => undefined }),
    symbols: {} as SymbolIndex,
    journal: new UndoJournal(() => 20),
  };
  return createContext(state, { signal: new AbortController().signal });
}

/** Planned changes replacing the first `from` of each file with `to`, as a command computes them. */
export async function plannedReplacements(ctx: Context, rels: readonly string[], from: string, to: string): Promise<PlannedChange[]> {
  const changes: PlannedChange[] = [];
  for (const rel of rels) {
    const resolved = await ctx.resolvePath(rel);
    if (!resolved.ok) throw new Error(resolved.message);
    const snapshot = await ctx.snapshot(resolved);
    if (!snapshot.ok) throw new Error(snapshot.message);
    const at = snapshot.text.indexOf(from);
    if (at < 0) throw new Error(`${from} not in ${rel}`);
    changes.push({ snapshot, newText: snapshot.text.slice(0, at) + to + snapshot.text.slice(at + from.length), edits: [{ start: at, end: at + from.length, newText: to }], created: false, replacements: 1 });
  }
  return changes;
}
