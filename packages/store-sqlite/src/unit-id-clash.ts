import { type EventToAppend, type StreamName, duplicateEventId } from '@teamlog/store';
import type { StagedRow } from './staged-row-buffer';

const isUniqueConstraint = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * A unique-id clash while a unit writes a batch: which id, and whether it was stored before the unit
 * or staged twice in it. The insert rolled the whole transaction back (OR ROLLBACK), so the store
 * holds only what was committed: an id of the batch found there (`storedStreamOf`) was stored
 * before; otherwise an id of the batch was staged in an earlier batch of the unit (a batch repeating
 * an id of its own is refused before: assertValidBatch), whose ids are not kept to name it. Any
 * other error is returned as it is.
 */
export const explainUnitIdClash = (
  error: unknown,
  stream: StreamName,
  rows: readonly StagedRow[],
  storedStreamOf: (id: string) => string | undefined,
): unknown => {
  if (!isUniqueConstraint(error)) return error;
  for (const [id] of rows) {
    const stored = storedStreamOf(id);
    if (stored !== undefined)
      return duplicateEventId(
        id as EventToAppend['id'],
        stored as StreamName,
        'the id is already stored; nothing of the unit was written',
      );
  }
  return duplicateEventId(
    (rows[0]?.[0] ?? '') as EventToAppend['id'],
    stream,
    'an id of the batch starting with this one is staged twice in one unit; nothing of the unit was written',
  );
};
