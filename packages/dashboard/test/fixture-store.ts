import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';
import { SqliteEventStore } from '@teamlog/store-sqlite';

export const repositoryRoot = resolve(__dirname, '../../..');

export interface FixtureStore {
  readonly store: SqliteEventStore;
  readonly file: string;
  /** Close the store and delete its directory. */
  dispose(): Promise<void>;
}

/** A real SQLite store in a fresh temp directory. */
export const openFixtureStore = (): FixtureStore => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-dashboard-'));
  const file = join(directory, 'store.db');
  const store = SqliteEventStore.open(file);
  return {
    store,
    file,
    dispose: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/** The historical logs bundled with the repository: the real DSH logs and the synthetic ones. */
export const historicalFixtureRoots = [
  join(repositoryRoot, 'fixtures', 'dsh-logs'),
  join(repositoryRoot, 'fixtures', 'synthetic'),
];

export const importHistoricalFixtures = async (store: SqliteEventStore): Promise<number> => {
  let imported = 0;
  for (const root of historicalFixtureRoots) imported += (await importSessionLogs(root, store)).imported;
  return imported;
};
