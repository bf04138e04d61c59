import type { ViewRow } from '@teamlog/projections';
import type { ViewTable } from './view-table';

/**
 * A row as the codecs read it: `pg` returns bigint columns as text (they may exceed a double),
 * which the views' seqs never do, so those become numbers; json columns arrive parsed.
 */
export const viewRowOf = (table: ViewTable, row: Record<string, unknown>): ViewRow => {
  const converted: ViewRow = { ...row };
  for (const [column, type] of table.columns) {
    const value = row[column];
    if (type === 'bigint' && typeof value === 'string') converted[column] = Number(value);
  }
  return converted;
};

/** A JSON column's value to send (null stays NULL). */
export const jsonColumn = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);
