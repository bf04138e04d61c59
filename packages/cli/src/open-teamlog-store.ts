import { accessSync, constants, existsSync, mkdirSync } from 'fs';
import { dirname } from 'path';
import { EventStore } from '@teamlog/store';
import {
  SqliteEventStore, assertViewSchemaNotNewer, readCommittedViews, sqliteCommittedViews, sqliteProjections,
} from '@teamlog/store-sqlite';
import { CommittedViewsReader, InMemoryViewStore, TeamlogProjections, clearChangesInMemory, teamlogProjection } from '@teamlog/projections';
import { BadInput, UsageError } from './cli-errors';
import { StoreLocation } from './store-location';

/** An open store with its views; `close` releases both. */
export interface OpenedStore {
  readonly location: StoreLocation;
  readonly store: EventStore;
  /** The views, created on first use (a SQLite store opened to write then gets its view tables; one opened to read never does). */
  readonly projections: () => Promise<TeamlogProjections>;
  /** Views the store's database already holds, for a reader that must not write (the dashboard). */
  readonly committedViews?: CommittedViewsReader;
  readonly close: () => Promise<void>;
}

const once = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined;
  return () => (made ??= { value: make() }).value;
};

/**
 * How a command uses the store. `read`: opened read-only (never migrated, converted or created;
 * works on a file the user cannot write; the views are the committed ones plus an in-memory fold
 * of newer events). `write`: the store must exist. `create`: a missing SQLite file is created.
 * Whatever the access, a file that is not a teamlog store, or has a newer schema, is refused
 * before anything is written.
 */
export type StoreAccess = 'read' | 'write' | 'create';

export interface OpenStoreOptions {
  readonly access: StoreAccess;
}

const noStoreHere = (file: string): BadInput =>
  new BadInput(`no teamlog store here; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store`, { file });

const openSqlite = (file: string, access: StoreAccess): SqliteEventStore => {
  if (file !== ':memory:' && !existsSync(file)) {
    if (access !== 'create') throw noStoreHere(file);
    mkdirSync(dirname(file), { recursive: true });
  }
  if (access === 'read' && file !== ':memory:') return SqliteEventStore.openReadOnly(file);
  if (file !== ':memory:' && existsSync(file)) assertWritable(file);
  const store = SqliteEventStore.open(file);
  try {
    assertViewSchemaNotNewer(store);
  } catch (error) {
    void store.close();
    throw error;
  }
  return store;
};

/** A command that writes needs the file and its directory (SQLite's -wal and -shm live beside it). */
const assertWritable = (file: string): void => {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
  } catch {
    throw new BadInput('the store is not writable (permission denied); the commands that only read work on it', { file });
  }
};

/** Views a read-only store can show: the ones its file committed (if current), then newer events folded in memory. */
const readOnlyProjections = (store: SqliteEventStore): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, new InMemoryViewStore(teamlogProjection, clearChangesInMemory, readCommittedViews(store.database, store.file)));

/** Open the store a location names; SQLite keeps its views in the same file, other stores rebuild them in memory. */
export const openTeamlogStore = async (location: StoreLocation, options: OpenStoreOptions): Promise<OpenedStore> => {
  switch (location.kind) {
    case 'sqlite':
    case 'memory': {
      const store = openSqlite(location.kind === 'memory' ? ':memory:' : location.file, location.kind === 'memory' ? 'create' : options.access);
      const projections = once(() => (store.readOnly ? readOnlyProjections(store) : sqliteProjections(store)));
      return { location, store, projections, committedViews: sqliteCommittedViews(store), close: () => store.close() };
    }
    case 'eventstoredb': {
      // Loaded only here: the gRPC client is slow to load and most runs use SQLite.
      const { InvalidEventStoreUrl, openEventStoreDb } = await import('@teamlog/store-eventstoredb');
      const store = await openEventStoreDb(location.url).catch((error: unknown) => {
        throw error instanceof InvalidEventStoreUrl ? new UsageError(error.message) : error;
      });
      return { location, store, projections: once(() => TeamlogProjections.inMemory(store)), close: () => store.close() };
    }
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
};

/** Run `work` on an open store and always close it. */
export const withStore = async <A>(location: StoreLocation, options: OpenStoreOptions, work: (opened: OpenedStore) => Promise<A>): Promise<A> => {
  const opened = await openTeamlogStore(location, options);
  try {
    return await work(opened);
  } finally {
    await opened.close();
  }
};
