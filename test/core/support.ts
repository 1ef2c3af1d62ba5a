// Test helpers for core: checking a computed edit against whole before/after texts.

import { expect } from 'vitest';
import { applySpanEdits, type SpanEdit } from '../../server/core/text/spanEdit.js';
import type { Failure, Result } from '../../server/core/result.js';

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
