// Letting go the texts of a change bound for disk once its temp file is written (a large
// replaceInFiles holds every changed file's old text otherwise: 150 MB at 20,000 files): what the
// rest of the command needs of them is worked out first (PlannedChange.released: the inverse edits,
// the result's TextEdits, the digest of the bytes written), the write's rollback is pointed at those
// bytes read back (`restoreWritten`), and reading the texts again throws rather than give a wrong answer.
import type { PositionEncoding } from '../../core/text/positions.js';
import { applySpanEdits, type SpanEdit } from '../../core/text/spanEdit.js';
import type { PlannedChange, ReleasedText } from '../../commands/ports/apply.js';
import { toTextEdits } from '../../protocol/toProto.js';
import type { BatchWrite } from '../disk/atomicWrite.js';
import type { FileEncoding, Snapshot } from '../../commands/ports/files.js';
import { decodeText, encodeText } from '../disk/fileCodec.js';
import { inverseEdits } from './undoJournal.js';

/**
 * Lets go `c`'s texts, its temp file (of `write`) written with bytes of digest `writtenDigest`:
 * `c.released` holds what is still needed, `write`'s rollback restores from the bytes it wrote. The
 * TextEdits are built only when the result will show them (at most `maxResultEdits`).
 */
export function releaseTexts(c: PlannedChange, write: BatchWrite, writtenDigest: string, encoding: PositionEncoding, maxResultEdits: number): void {
  const disk = c.snapshot.disk;
  const expect = write.options.expect;
  if (c.released || c.created || !disk || !expect) return;
  const released = releasedOf(c.snapshot.text, c.edits, c.newText.length, writtenDigest, encoding, maxResultEdits);
  const { encoding: fileEncoding, bom } = disk;
  const inverse = released.inverse;
  write.options.expect = { stamp: expect.stamp, restore: (written) => restoreWritten(written, inverse, fileEncoding, bom, released.newLength) };
  c.released = released;
  const what = `${c.snapshot.resolved.relPath}'s text`;
  letGo(c.snapshot, 'text', what);
  letGo(disk, 'text', what);
  letGo(c, 'newText', what);
}

/** What a change of `text` by `edits` keeps once its texts go (the TextEdits only with at most `maxResultEdits`). */
export function releasedOf(text: string, edits: readonly SpanEdit[], newLength: number, writtenDigest: string, encoding: PositionEncoding, maxResultEdits: number): ReleasedText {
  return {
    oldLength: text.length,
    newLength,
    inverse: inverseEdits(text, edits),
    ...(edits.length <= maxResultEdits ? { textEdits: toTextEdits(text, edits, encoding) } : {}),
    writtenDigest,
  };
}

/**
 * A change worked out without its texts ever being made (SearchPort.matchLiteral):
 * `released` as releaseTexts would have made it, with the bytes its temp file is written from.
 */
export function releasedChange(snapshot: Snapshot, edits: SpanEdit[], replacements: number, released: ReleasedText): PlannedChange {
  const change: PlannedChange = { snapshot, newText: '', edits, created: false, replacements, released };
  const what = `${snapshot.resolved.relPath}'s text`;
  letGo(snapshot, 'text', what);
  if (snapshot.disk) letGo(snapshot.disk, 'text', what);
  letGo(change, 'newText', what);
  return change;
}

/**
 * The bytes a file held before a change, from the bytes the change wrote: decoded as the file's
 * encoding, the inverse edits applied, encoded back (exact: encodeText(decodeText(b)) is b).
 * Undefined when `written` is not what the change wrote (not decodable, or another length).
 */
export function restoreWritten(written: Buffer, inverse: readonly SpanEdit[], encoding: FileEncoding, bom: boolean, newLength: number): Buffer | undefined {
  const decoded = decodeText(written, 'the file');
  if (!decoded.ok || decoded.encoding !== encoding || decoded.bom !== bom || decoded.text.length !== newLength) return undefined;
  return encodeText(applySpanEdits(decoded.text, inverse), encoding, bom);
}

function letGo(o: object, key: string, what: string): void {
  Object.defineProperty(o, key, {
    get() {
      throw new Error(`editls: ${what} was let go once its temp file was written (PlannedChange.released); read what released holds`);
    },
    enumerable: true,
    configurable: true,
  });
}
