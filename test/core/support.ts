// Test helpers for core: checking a computed edit against whole before/after texts, and one-call
// forms of computations editls runs in steps (search and replace, closest match, symbol extraction, ranking).

import { expect } from 'vitest';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import type { Failure, Result } from '../../server/core/result.js';
import { finishSearchAndReplace, prepareSearchAndReplace, scanHere, type SearchAndReplaceArgs, type SearchAndReplaceComputed } from '../../server/core/edits/searchAndReplace.js';
import { findCandidates, type ClosestCandidate } from '../../server/core/edits/closest.js';
import { FileExtractor, scanText } from '../../server/core/symbols/extract.js';
import type { Language } from '../../server/core/symbols/languages.js';
import { rankKey, type Query, type Ranked } from '../../server/core/symbols/rank.js';
import type { SymbolDef, SymbolKindName } from '../../server/core/symbols/types.js';

/** Asserts success, that the edits turn `before` into `newText`, and that it equals `after`. */
export function expectApplied<T extends { newText: string; edits: SpanEdit[] }>(
  before: string,
  result: Result<T>,
  after: string,
): T {
  if (!result.ok) throw new Error(`expected success, got ${result.kind}: ${result.message}`);
  expect(applySpanEdits(before, result.edits)).toBe(result.newText);
  expect(result.newText).toBe(after);
  return result;
}

/** Asserts failure of the given kind and returns it. */
export function expectFailure(result: Result<unknown>, kind: Failure['kind']): Failure {
  if (result.ok) throw new Error(`expected failure ${kind}, got success`);
  expect(result.kind).toBe(kind);
  expect(result.message).not.toContain('\n');
  return result;
}

/** editls.searchAndReplace's computation on this thread: prepare, scan here, finish (the command runs a regex scan in a worker). */
export function computeSearchAndReplace(text: string, args: SearchAndReplaceArgs, file: string): Result<SearchAndReplaceComputed> {
  const prepared = prepareSearchAndReplace(text, args, file);
  if (!prepared.ok) return prepared;
  return finishSearchAndReplace(prepared.prepared, scanHere(prepared.prepared));
}

/** The region most like `needle`, if any (the first of findCandidates). */
export function findClosest(normalizedText: string, needle: string): ClosestCandidate | undefined {
  return findCandidates(normalizedText, needle)[0];
}

/** Every definition in a whole text, as the index extracts them line by line. */
export function extractSymbols(language: Language, text: string): SymbolDef[] {
  return scanText(new FileExtractor(language), text).symbols;
}

/** A ranked item as the symbol index makes one (its rank key from the query, name, tier and kind). */
export function rankOf<T>(item: T, q: Query, name: string, tier: number, kind: SymbolKindName, order: number, line: number, column = 0): Ranked<T> {
  return { item, key: rankKey(q, name, tier, kind), order, line, column };
}
