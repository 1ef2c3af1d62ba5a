// editls.replaceInFiles: workspace-wide search and replace — searchAndReplace's matching in every
// file ripgrep selects (open buffers as the user sees them), computed in full before anything is
// applied, then one WorkspaceEdit for the open buffers and atomic writes for closed files; all or
// nothing, previewable, cancellable until the writes start, undone as one command by editls.undo.
import { z } from 'zod';
import { fail, type Result } from '../core/result.js';
import { literalPrefilter } from '../core/edits/replaceInFiles.js';
import { prepareSearchAndReplace } from '../core/edits/searchAndReplace.js';
import { applyOptions, filePattern, flag, pathString, text, wholeNumber } from './args.js';
import type { PlannedChange, WriteAhead } from './ports/apply.js';
import type { ResolvedPath } from './ports/files.js';
import type { ProgressPort } from './ports/progress.js';
import type { SearchPort } from './ports/search.js';
import { DIFF_FILES, diffPlan, editResult, resultDiffs, TOTAL_DIFF_CHARS, type EditPorts, type EditResult, type ResultDiff } from './fileEdit.js';
import { defineCommand } from './registry.js';
import { heldBytes, READ_AHEAD, ReadAhead, type ReplaceSpec } from './replaceInFilesRead.js';
import { editToolText } from './toolText.js';

const ID = 'editls.replaceInFiles';
const DEFAULT_MAX_FILES = 1000;
/** Progress shows when the command takes longer than this (a client-sent token shows at once). */
const PROGRESS_DELAY_MS = 300;

const args = () =>
  z
    .object({
      path: pathString().optional().describe('Folder (or file) to replace in, relative to the workspace folder; default the whole workspace.'),
      // Matched on \n-normalised text.
      search: text().min(1, 'must not be empty').describe('Text to find (a JavaScript regular expression with use_regex).'),
      replace: text().describe("Replacement text: verbatim, or with use_regex $1 $& $$ $<name> (and $` $')."),
      use_regex: flag().optional().describe('search is a JavaScript regular expression.'),
      ignore_case: flag().optional().describe('Case-insensitive.'),
      preserve_case: flag().optional().describe("Each replacement takes the case shape of the text it replaces (foo/Foo/FOO -> bar/Bar/BAR; VS Code's Preserve Case)."),
      // Never re-includes ignored files.
      file_pattern: z.string().optional().describe('Glob narrowing the files, e.g. "*.ts" or "src/**/*.ts".'),
      respect_gitignore: flag().optional().describe('false also replaces in files .gitignore excludes (default true).'),
      max_files: wholeNumber(1, 'must be 1 or more').optional().describe(`Refuse (too_large, nothing changed) when more files than this would change (default ${DEFAULT_MAX_FILES}).`),
      ...applyOptions(),
    })
    .strict();

export interface SkippedFile {
  path: string;
  reason: string;
}

export const replaceInFilesCommand = defineCommand({
  id: ID,
  title: 'Replace a text or regex in every file of the workspace (or a folder), reviewed as one edit',
  args,
  effect: 'edit',
  idempotent: true,
  tool: {
    name: 'replace_in_files',
    render: 'edit',
    params: ['path', 'search', 'replace', 'use_regex', 'ignore_case', 'preserve_case', 'file_pattern', 'max_files', 'apply'],
    description: editToolText(
      'Replace a literal string (or a JavaScript regex with use_regex) in every file under a folder of the workspace at once, honouring .gitignore; open buffers are replaced as the user sees them. ' +
        'All or nothing: every file is computed first; if one changed meanwhile or the editor refuses, nothing changes. Use apply "preview" first for big renames, then apply_preview; undo (without path) reverts the whole command. ' +
        `preserve_case keeps each match's case shape (foo/Foo/FOO -> bar/Bar/BAR). More changed files than max_files (${DEFAULT_MAX_FILES}) is too_large: narrow with path or file_pattern.`,
    ),
  },
  run: async (ctx: EditPorts & SearchPort & ProgressPort, a) => {
    const pattern = filePattern(a.file_pattern);
    if (!pattern.ok) return pattern;
    const glob = pattern.glob;
    const useRegex = a.use_regex ?? false;
    const ignoreCase = a.ignore_case ?? false;
    if (useRegex) {
      // A bad pattern is refused before any file is listed.
      const probe = prepareSearchAndReplace('', { search: a.search, replace: a.replace, useRegex, ignoreCase }, 'the pattern');
      if (!probe.ok) return probe;
    }
    const scope = await ctx.resolveSearchScope(a.path ?? '.');
    if (!scope.ok) return scope;
    if (!scope.exists) {
      return fail('file_not_found', `${scope.relPath} does not exist; pass a folder or file inside the workspace (default: the whole folder)`, { path: scope.relPath });
    }
    const prefilter = literalPrefilter(a.search, useRegex, ignoreCase);
    const started = performance.now();
    const progress = ctx.startProgress(`editls: replace in ${scope.relPath === '.' ? 'the workspace' : scope.relPath}`, { delayMs: PROGRESS_DELAY_MS });
    const signal = AbortSignal.any([ctx.signal, progress.signal]);
    const spec: ReplaceSpec = { search: a.search, replace: a.replace, useRegex, ignoreCase, preserveCase: a.preserve_case ?? false };
    const maxFiles = a.max_files ?? DEFAULT_MAX_FILES;
    // The change is gathered in memory before anything is written: refused (too_large) as soon as what
    // it holds could not fit in the heap, rather than crash the server half-way.
    const room = ctx.memoryRoom();
    // Each change's temp file is written while the next files are read and matched (not when a person
    // confirms the edit first: the temp files would wait in the folders while they review).
    const ahead = a.confirm ? undefined : ctx.writeAhead?.(a.apply ?? 'auto');
    // Files are read and matched as ripgrep names them, while it still walks the tree. The first
    // DIFF_FILES changes keep their texts for the result's diffs; the others' are let go once their
    // temp files are written (a large command would otherwise hold every changed file's text), or
    // never have them (a literal worked out on a file's bytes: SearchPort.matchLiteral).
    let added = 0;
    const reading = new ReadAhead(ctx, spec, { maxFiles, room, signal }, {
      onChange: (change) => ahead?.add(change, added++ < DIFF_FILES),
      onRead: (read, changed) => progress.report(`${read} files scanned, ${changed} matched (listing)`),
      keepText: () => !ahead?.writesClosedFiles || added < DIFF_FILES,
    });
    try {
      const listed = await ctx.listReplaceCandidates({
        scope,
        ...(glob ? { glob } : {}),
        respectIgnore: a.respect_gitignore ?? true,
        ...(prefilter ? { prefilter } : {}),
        signal,
        onListed: (abs) => reading.listed(abs),
      });
      if (!listed.ok) return listed;
      const listMs = performance.now() - started;
      const skipped: SkippedFile[] = [];
      const targets: ResolvedPath[] = [];
      for (const abs of listed.files) {
        const r = await reading.resolve(abs);
        if (r.ok) targets.push(r.target);
        else skipped.push({ path: abs, reason: `${r.failure.kind}: ${r.failure.message}` });
      }
      return await ctx.withFiles(
        targets.map((t) => t.absPath),
        async () => {
          reading.lock();
          const changes: PlannedChange[] = [];
          let held = 0;
          let scanned = 0;
          let matches = 0;
          // In path order, as if read now: what was read before the lock is used when unchanged since.
          for (let i = 0; i < targets.length; i++) {
            if (signal.aborted) return cancelled();
            const target = targets[i]!;
            const taking = reading.outcome(target);
            for (let k = i + 1; k < Math.min(targets.length, i + 1 + READ_AHEAD); k++) reading.ensure(targets[k]!);
            const outcome = await taking;
            scanned++;
            if (outcome.kind === 'skipped') skipped.push({ path: target.relPath, reason: outcome.reason });
            else if (outcome.kind === 'failed') return outcome.cancelled ? cancelled() : outcome.failure;
            else if (outcome.kind === 'changed') {
              changes.push(outcome.change);
              matches += outcome.change.replacements;
              held += heldBytes(outcome.change);
              // With what the files read ahead of the lock hold: all of it is the command's change.
              if (held + reading.heldAhead > room) return tooMuchText(a.search, held + reading.heldAhead, room, scanned + reading.changedAhead, targets.length);
              // Refused as soon as the count passes max_files: the rest of the files are not read.
              if (changes.length > maxFiles) return tooManyFiles(a.search, maxFiles, scanned, targets.length);
            }
            progress.report(`${scanned}/${targets.length} files scanned, ${changes.length} matched, ${matches} replacement${matches === 1 ? '' : 's'}`, Math.round((100 * scanned) / Math.max(1, targets.length)));
          }
          if (signal.aborted) return cancelled();
          const computeMs = performance.now() - started - listMs;
          return await finish(ctx, a, scope.relPath, changes, skipped, scanned, listed.notes, { listMs, computeMs }, ahead);
        },
      );
    } finally {
      // Nothing read ahead may reach the temp files once they are cleaned up.
      await reading.stop();
      await ahead?.close();
      progress.done();
    }
  },
});

function tooManyFiles(search: string, maxFiles: number, scanned: number, candidates: number) {
  const what = search.length > 40 ? 'the search' : JSON.stringify(search);
  const counted = scanned < candidates ? ` (counting stopped at ${maxFiles + 1} after reading ${scanned} of ${candidates} candidate files)` : '';
  return fail('too_large', `${what} would change more than max_files (${maxFiles}) files${counted}; nothing changed; narrow it with path or file_pattern, or raise max_files`, {
    files: maxFiles + 1,
    maxFiles,
    filesScanned: scanned,
    candidates,
  });
}

function tooMuchText(search: string, held: number, room: number, scanned: number, candidates: number) {
  const what = search.length > 40 ? 'the search' : JSON.stringify(search);
  const mb = (n: number) => `${Math.round(n / 1048576)} MB`;
  return fail(
    'too_large',
    `${what} changes more text than editls can hold in memory at once (about ${mb(held)} needed after reading ${scanned} of ${candidates} candidate files, ${mb(room)} free in its heap); nothing changed; narrow it with path or file_pattern`,
    { heldBytes: held, roomBytes: room, filesScanned: scanned, candidates },
  );
}

function cancelled() {
  return fail('cancelled', 'replaceInFiles was cancelled before anything was written; nothing changed');
}

async function finish(
  ctx: EditPorts,
  a: z.infer<ReturnType<typeof args>>,
  where: string,
  changes: PlannedChange[],
  skipped: SkippedFile[],
  scanned: number,
  notes: string[],
  timings: { listMs: number; computeMs: number },
  ahead: WriteAhead | undefined,
): Promise<Result<{ value: EditResult }>> {
  const mode = a.apply ?? 'auto';
  const applyStart = performance.now();
  const round = (n: number) => Math.round(n * 10) / 10;
  const extra = { filesScanned: scanned, ...(skipped.length > 0 ? { skipped } : {}), ...(notes.length > 0 ? { warnings: notes } : {}) };
  if (changes.length === 0) {
    const message = `${ID}: no match for ${JSON.stringify(a.search.length > 60 ? `${a.search.slice(0, 57)}...` : a.search)} in ${scanned} file${scanned === 1 ? '' : 's'} under ${where}; nothing changed`;
    ctx.summarize(message);
    const value: EditResult = { success: true, status: mode === 'preview' ? 'preview' : 'applied', applied: mode !== 'preview', filesChanged: 0, replacements: 0, files: [], unifiedDiff: '', edit: { changes: {} }, message, ...extra };
    return { ok: true, value };
  }
  // The diffs share TOTAL_DIFF_CHARS (each file's part of it, at least 2,000 characters, as long as it lasts).
  const maxDiffChars = TOTAL_DIFF_CHARS;
  // The result's diffs are worked out while the disk writes wait on the disk (or after, if they never do).
  let diffs: ResultDiff[] | undefined;
  const outcome = await ctx.apply(changes, mode, { confirm: a.confirm ?? false, label: `${ID} ${where}`, whileWriting: () => (diffs ??= resultDiffs(changes, diffPlan(changes.length, maxDiffChars))), ...(ahead ? { ahead } : {}) });
  if (!outcome.ok) return outcome;
  // Where the time went (ms): listing the files (ripgrep), reading and matching them, applying (editor +
  // disk, checks included), and of the disk part: temp files written and fsynced (one step), renamed.
  const disk = outcome.diskTimings;
  const spent = {
    listMs: round(timings.listMs),
    computeMs: round(timings.computeMs),
    applyMs: round(performance.now() - applyStart),
    ...(disk ? { writeMs: round(disk.writeMs), renameMs: round(disk.renameMs) } : {}),
  };
  const previewId = mode === 'preview' ? ctx.previews.add(ID, changes) : undefined;
  const value = editResult(ctx, ID, changes, outcome, { previewId, extra: { ...extra, timings: spent }, maxDiffChars, diffs });
  return { ok: true, value };
}
