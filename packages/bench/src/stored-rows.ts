import { createWriteStream, readFileSync } from 'node:fs';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { decodeWith } from '@teamlog/events';
import type { SqliteEventStore } from '@teamlog/store-sqlite';

/* The rows a send case stored, carried to the raw-insert baseline as JSON lines. */

/** A stored event row exactly as the SQLite store's `events` table keeps it (position aside). */
export const StoredRow = t.type(
  {
    stream_name: t.string,
    revision: t.number,
    event_id: t.string,
    type: t.string,
    data: t.string,
    metadata: t.union([t.string, t.null]),
    recorded_at: t.number,
  },
  'StoredRow',
);
export type StoredRow = t.TypeOf<typeof StoredRow>;

export const readRows = (file: string): StoredRow[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line, index) => {
      const decoded = decodeWith(StoredRow, 'row')(JSON.parse(line));
      if (isLeft(decoded)) throw decoded.left.at({ file, line: index + 1 });
      return decoded.right;
    });

/** An event row as better-sqlite3 returns it (safe integers on: bigints). */
interface EventRow {
  readonly stream_name: string;
  readonly revision: number | bigint;
  readonly event_id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
  readonly recorded_at: number | bigint;
}

export const lastPosition = (store: SqliteEventStore): bigint =>
  BigInt(
    (
      store.database.prepare('SELECT COALESCE(MAX(position), 0) AS position FROM events').get() as {
        position: number | bigint;
      }
    ).position,
  );

/** Write the rows stored after `after` as JSON lines (bigints as numbers): the raw-insert baseline's input. */
export const dumpRowsAfter = async (store: SqliteEventStore, after: bigint, file: string): Promise<number> => {
  const out = createWriteStream(file);
  let rows = 0;
  const select = store.database.prepare(
    'SELECT stream_name, revision, event_id, type, data, metadata, recorded_at FROM events WHERE position > ? ORDER BY position',
  );
  for (const row of select.iterate(after) as Iterable<EventRow>) {
    out.write(`${JSON.stringify({ ...row, revision: Number(row.revision), recorded_at: Number(row.recorded_at) })}\n`);
    rows += 1;
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return rows;
};
