import { existsSync, mkdirSync } from 'fs';
import { dirname } from 'path';
import { EventStore, InMemoryEventStore } from '@teamlog/store';
import { SqliteEventStore, sqliteCommittedViews, sqliteProjections } from '@teamlog/store-sqlite';
import { CommittedViewsReader, TeamlogProjections } from '@teamlog/projections';
import { BadInput, UsageError } from './cli-errors';
import { StoreLocation } from './store-location';

/** An open store with its views; `close` releases both. */
export interface OpenedStore {
  readonly location: StoreLocation;
  readonly store: EventStore;
  /** The views, created on first use (a SQLite store then gets its view tables). */
  readonly projections: () => Promise<TeamlogProjections>;
  /** Views the store's database already holds, for a reader that must not write (the dashboard). */
  readonly committedViews?: CommittedViewsReader;
  /**
   * How much of a log's tail an import may keep from its validating read instead of reading the
   * file again (the importer's default bounds memory; a store that keeps the events in memory
   * anyway keeps the very objects buffered, so it takes no limit).
   */
  readonly singlePassBytes?: number;
  readonly close: () => Promise<void>;
}

const once = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined;
  return () => (made ??= { value: make() }).value;
};

export interface OpenStoreOptions {
  /** Create the SQLite file (and its folder) if it does not exist; otherwise a missing file is bad input. */
  readonly create: boolean;
}

const openSqlite = (file: string, options: OpenStoreOptions): SqliteEventStore => {
  if (!existsSync(file)) {
    if (!options.create) throw new BadInput(`no teamlog store here; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store`, { file });
    mkdirSync(dirname(file), { recursive: true });
  }
  try {
    return SqliteEventStore.open(file);
  } catch (error) {
    // better-sqlite3 says "file is not a database"; a newer schema says so itself.
    throw new BadInput(`cannot open as a teamlog store: ${error instanceof Error ? error.message : String(error)}`, { file });
  }
};

/**
 * The PostgreSQL store: its views in the same database, committed by this run when no projection
 * leader runs elsewhere (else read and folded on in memory). Loaded only here, as the EventStoreDB
 * adapter is: most runs use SQLite.
 */
const openPostgres = async (location: StoreLocation & { readonly kind: 'postgres' }, options: OpenStoreOptions): Promise<OpenedStore> => {
  const postgres = await import('@teamlog/store-postgres');
  const store = await postgres.openPostgresStore(location.url, { create: options.create }).catch((error: unknown) => {
    if (error instanceof postgres.InvalidPostgresUrl) throw new UsageError(error.message);
    if (error instanceof postgres.PostgresStoreNotFound) throw new BadInput(`${error.message}; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store`);
    if (error instanceof postgres.PostgresSchemaTooNew) throw new BadInput(error.message);
    throw error;
  });
  let views: Promise<{ readonly projections: TeamlogProjections; readonly release: () => Promise<void> }> | undefined;
  return {
    location,
    store,
    projections: async () => (await (views ??= postgres.postgresProjections(store))).projections,
    committedViews: postgres.postgresCommittedViews(store),
    close: async () => {
      await (await views?.catch(() => undefined))?.release();
      await store.close();
    },
  };
};

/** Open the store a location names; SQLite and PostgreSQL keep their views in the same database, EventStoreDB's are rebuilt in memory. */
export const openTeamlogStore = async (location: StoreLocation, options: OpenStoreOptions): Promise<OpenedStore> => {
  switch (location.kind) {
    case 'sqlite': {
      const store = openSqlite(location.file, options);
      return { location, store, projections: once(() => sqliteProjections(store)), committedViews: sqliteCommittedViews(store), close: () => store.close() };
    }
    case 'memory': {
      // Keeps nothing: events stay the objects the importer made (no serialised copy), views in memory.
      const store = new InMemoryEventStore();
      return { location, store, projections: once(() => TeamlogProjections.inMemory(store)), singlePassBytes: Number.POSITIVE_INFINITY, close: () => store.close() };
    }
    case 'eventstoredb': {
      // Loaded only here: the gRPC client is slow to load and most runs use SQLite.
      const { InvalidEventStoreUrl, openEventStoreDb } = await import('@teamlog/store-eventstoredb');
      const store = await openEventStoreDb(location.url).catch((error: unknown) => {
        throw error instanceof InvalidEventStoreUrl ? new UsageError(error.message) : error;
      });
      return { location, store, projections: once(() => TeamlogProjections.inMemory(store)), singlePassBytes: Number.POSITIVE_INFINITY, close: () => store.close() };
    }
    case 'postgres':
      return openPostgres(location, options);
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
