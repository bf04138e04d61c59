import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type SqliteEventStoreOptions, sqliteProjections } from '@teamlog/store-sqlite';
import { importSessionLogs } from '../src';
import { realLogsRoot } from './real-logs';

/*
 * An import written by the SQLite store's writer thread (its rows cross as transferred bytes, the
 * views' rows as values) ends with the same store and the same views as one written on this
 * thread: every row of every table, the hash chains and the views' rows included.
 */

const syntheticRoot = join(__dirname, '..', '..', '..', 'fixtures', 'synthetic');

/** Every table's rows (in a stable order), but the wall-clock columns (when a row was written). */
const tablesOf = async (file: string): Promise<Record<string, string[]>> => {
  const store = SqliteEventStore.openReadOnly(file);
  const db = store.database;
  const wallClock = new Set(['recorded_at', 'updated_at', 'applied_at']);
  const textOf = (row: object): string =>
    JSON.stringify(
      Object.entries(row).filter(([column]) => !wallClock.has(column)),
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all();
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        db
          .prepare(`SELECT * FROM ${name}`)
          .all()
          .map((row) => textOf(row as object))
          .sort(),
      ]),
    );
  } finally {
    await store.close();
  }
};

/** `maxBufferedUnitBytes` 1: the unit's writer takes the write lock at its first batch and writes each as it comes. */
const importInto = async (root: string, directory: string, name: string, options: SqliteEventStoreOptions) => {
  const file = join(directory, `${name}.sqlite`);
  const store = SqliteEventStore.open(file, options);
  const projections = await sqliteProjections(store);
  const detach = projections.foldInline();
  try {
    const report = await importSessionLogs(root, store, { batchEvents: 64 });
    return { file, report };
  } finally {
    detach?.();
    await store.close();
  }
};

const variants: ReadonlyArray<readonly [string, SqliteEventStoreOptions]> = [
  ['its units kept in memory until the commit', { writerThread: true }],
  ['each unit written as it comes under the held lock', { writerThread: true, maxBufferedUnitBytes: 1 }],
];

describe('an import written on a second thread', () => {
  it.each(
    (
      [
        ['the synthetic team logs', syntheticRoot],
        ['the real logs', realLogsRoot],
      ] as const
    ).flatMap(([name, root]) => variants.map(([variant, options]) => [name, variant, root, options] as const)),
  )(
    'stores %s (%s) and folds their views exactly as one written on this thread',
    async (_name, _variant, root, options) => {
      const directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-writer-thread-'));
      try {
        const single = await importInto(root, directory, 'single', {});
        expect(single.report.files.some((file) => (file.appended ?? 0) > 0)).toBe(true);
        const threaded = await importInto(root, directory, 'threaded', options);
        expect(threaded.report.files.map((file) => [file.file, file.rejected?.reason, file.appended])).toEqual(
          single.report.files.map((file) => [file.file, file.rejected?.reason, file.appended]),
        );
        expect(await tablesOf(threaded.file)).toEqual(await tablesOf(single.file));
      } finally {
        await fs.rm(directory, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
