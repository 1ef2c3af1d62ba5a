// editls.replaceInFiles' file list: the files ripgrep would search under the scope with searchFiles'
// rules (ignore files also outside git, hidden and binary files skipped, a file_pattern that never
// re-includes ignored files), narrowed by an exact literal prefilter when there is one, plus the open
// buffers there (searched as the user sees them, whatever their disk copy holds), in path order; each
// file ripgrep names is also handed on at once (onListed), so that reading can start while it walks.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fail, type Result } from '../../core/result.js';
import type { LiteralPrefilter } from '../../core/edits/replaceInFiles.js';
import type { CompiledGlob } from '../../core/search/glob.js';
import { comparePaths } from '../../core/search/pathOrder.js';
import type { OpenDocuments } from '../editor/openDocuments.js';
import { realpathOrSelf, uriToPath } from '../disk/paths.js';
import { runRipgrep, RipgrepUnavailable } from './ripgrep.js';
import { baseFlags, listEligible, typeFlags } from './ripgrepSearch.js';
import type { CandidateRequest } from '../../commands/ports/search.js';

export interface CandidateDeps {
  documents: Pick<OpenDocuments, 'all'>;
}

/** Longest literal handed to ripgrep on its command line (Linux allows 128 KiB per argument). */
const MAX_PREFILTER_CHARS = 32 * 1024;

/** Absolute real paths of the files to read, in ripgrep's path order (by path relative to the scope). */
export async function listReplaceCandidates(deps: CandidateDeps, req: CandidateRequest): Promise<Result<{ files: string[]; notes: string[] }>> {
  const { scope } = req;
  if (!scope.directory) return { ok: true, files: [scope.absPath], notes: [] };
  const relToScope = (abs: string) => path.relative(scope.absPath, abs).split(path.sep).join('/');
  const typed = req.glob?.fileNameGlob !== undefined;
  const accepts = (abs: string): boolean => {
    if (typed && path.basename(abs).startsWith('.')) return false;
    return req.glob ? req.glob.test(relToScope(abs)) : true;
  };
  const open = openBuffersIn(deps, scope.absPath).filter(accepts);
  const prefilter = req.prefilter && req.prefilter.text.length <= MAX_PREFILTER_CHARS && !req.prefilter.text.includes('\0') ? req.prefilter : undefined;
  const notes: string[] = [];
  try {
    const listed = await listFiles(req, typed, prefilter, notes, req.onListed ? (abs) => {
      if (accepts(abs)) req.onListed!(abs);
    } : undefined);
    if (!listed.ok) return listed;
    const files = new Set([...listed.files].filter(accepts));
    if (open.length > 0) {
      // An open buffer counts when ripgrep would search its file (ignore rules): without a prefilter
      // the listing says so; with one, its disk copy may not match, so ask ripgrep about those names.
      const eligible = prefilter ? await listEligible(scope, req.respectIgnore, open, req.signal) : listed.files;
      if (req.signal.aborted) return fail('cancelled', 'replaceInFiles was cancelled while listing files; nothing changed');
      // A buffer with no file on disk (new, unsaved) cannot be checked against ignore rules: it is read.
      for (const abs of open) if (eligible.has(abs) || !existsSync(abs)) files.add(abs);
    }
    // Each file's relative path worked out once, not at every comparison.
    const keyed = [...files].map((abs) => ({ abs, rel: relToScope(abs) }));
    keyed.sort((a, b) => comparePaths(a.rel, b.rel));
    return { ok: true, files: keyed.map((k) => k.abs), notes };
  } catch (error) {
    if (error instanceof RipgrepUnavailable) return fail('io_error', error.message);
    throw error;
  }
}

/** Real paths of open documents inside `folder`. */
function openBuffersIn(deps: CandidateDeps, folder: string): string[] {
  const out: string[] = [];
  for (const doc of deps.documents.all()) {
    const p = uriToPath(doc.uri);
    if (p === undefined) continue;
    const abs = realpathOrSelf(p);
    const rel = path.relative(folder, abs);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) out.push(abs);
  }
  return out;
}

/** ripgrep's walk of the scope: `-l` with the literal when there is one, else `--files`. */
async function listFiles(
  req: CandidateRequest,
  typed: boolean,
  prefilter: LiteralPrefilter | undefined,
  notes: string[],
  onListed: ((abs: string) => void) | undefined,
): Promise<Result<{ files: Set<string> }>> {
  const files = new Set<string>();
  const args = [
    ...(prefilter ? ['--files-with-matches', '--fixed-strings', ...(prefilter.ignoreCase ? ['--ignore-case'] : ['--case-sensitive'])] : ['--files']),
    ...baseFlags(req.respectIgnore),
    ...(typed ? typeFlags('editls', req.glob!.fileNameGlob!) : []),
    '--',
    req.scope.absPath,
  ];
  const exit = await runRipgrep({
    args,
    // The literal apart from the other arguments: the next replace like this one (another literal, the
    // same scope and options) takes a ripgrep started ahead, waiting for it on its stdin.
    ...(prefilter ? { pattern: prefilter.text } : {}),
    cwd: req.scope.absPath,
    signal: req.signal,
    onLine: (line) => {
      if (line === '') return 'continue';
      const abs = path.resolve(req.scope.absPath, line);
      if (!files.has(abs)) {
        files.add(abs);
        onListed?.(abs);
      }
      return 'continue';
    },
  });
  if (exit.cancelled) return fail('cancelled', 'replaceInFiles was cancelled while listing files; nothing changed');
  if (exit.code === 2) {
    const detail = exit.stderr.replace(/^rg: /gm, '').trim();
    if (files.size === 0 && !exit.sawSummary && /error parsing|regex/i.test(detail)) return fail('io_error', `ripgrep failed: ${detail.split('\n')[0]}`);
    if (detail !== '') notes.push(...detail.split('\n').slice(0, 5).map((l) => `ripgrep: ${l}`));
  }
  return { ok: true, files };
}

