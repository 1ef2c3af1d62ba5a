// Which commands an agent's edit can be reviewed as a preview: a command whose schema takes `apply`
// can run with `apply: "preview"`; other registered commands change files without one (editls.undo).
import { findCommand } from '../commands/index.js';

export function commandKind(id: string): 'previewable' | 'other' | 'unknown' {
  const command = findCommand(id);
  if (!command) return 'unknown';
  const parsed = command.args.safeParse({ apply: 'preview' });
  if (parsed.success) return 'previewable';
  const refusesApply = parsed.error.issues.some((i) => i.code === 'unrecognized_keys' && (i as { keys?: string[] }).keys?.includes('apply'));
  return refusesApply ? 'other' : 'previewable';
}
