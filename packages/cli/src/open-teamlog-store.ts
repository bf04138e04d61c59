import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { collectSooner, oldGenerationGrowth } from './collect-sooner';
import { dirname } from 'node:path';
import { type EventStore, HeadsOnlyEventStore, InMemoryEventStore, isStoreError } from '@teamlog/store';
import type { SqliteEventStore } from '@teamlog/store-sqlite';
import {
  type CommittedViewsReader,
  InMemoryViewStore,
  type LoadedViews,
  type ProjectionState,
  TeamlogProjections,
  clearChangesInMemory,
  teamlogProjection,
} from '@teamlog/projections';
import { badInput, type BadInput, usageError } from './cli-errors';
import type { StoreLocation } from './store-location';
import { storeRetryNotice } from './store-retry-notice';
import { holdYoungGeneration } from './young-generation';

/** An open store with its views; `close` releases both. */
export interface OpenedStore {
  readonly location: StoreLocation;
  readonly store: EventStore;
  /** The views, created on first use (a store opened to write keeps them in its database; one opened to read folds them in memory). */
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

/**
 * How a command uses the store. `read`: opened read-only (never migrated, converted or created;
 * a SQLite file the user cannot write works; the views are the committed ones plus an in-memory
 * fold of newer events, never written). `write`: the store must exist. `create`: a missing store
 * is created. Whatever the access, a file that is not a teamlog store, or has a newer schema, is
 * refused before anything is written.
 */
export type StoreAccess = 'read' | 'write' | 'create';

export interface OpenStoreOptions {
  readonly access: StoreAccess;
  /**
   * The command imports, reads the views once and ends (`replay` without `--as-of`): `:memory:`
   * then keeps only the heads of its streams, no events (HeadsOnlyEventStore).
   */
  readonly oneShot?: boolean;
  /**
   * The command imports and ends (replay, import), nothing else writes meanwhile: a SQLite file it
   * creates is written with a rollback journal and turned to WAL at close (bulkLoadWhenCreated).
   */
  readonly importAndEnd?: boolean;
}

const noStoreHere = (file: string): BadInput =>
  badInput(`no teamlog store here; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store`, {
    file,
  });

/** A command that writes needs the file and its directory (SQLite's -wal and -shm live beside it). */
const assertWritable = (file: string): void => {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
  } catch {
    throw badInput('the store is not writable (permission denied); the commands that only read work on it', {
      file,
    });
  }
};

/**
 * SQLite's page cache for `main` on a connection that writes (better-sqlite3 gives 16 MiB): a
 * whole-file import spills its dirty pages as it goes (to the WAL, or to a file it created), whatever
 * the cache. The indexes of `events` grow at their ends (event ids are consecutive within a
 * session), so a spilled page is seldom needed again: the big Lead log into a new file reads 57
 * pages back in all, and 16 or 64 MiB saved no CPU. 2 MiB took about 10 MiB off a replay's peak
 * (docs/benchmarks.md, _The CLI sizes its own heap_; _The SQLite import's B-tree work, measured_).
 */
export const writerPageCacheKiB = 2048;

type SqliteAdapter = typeof import('@teamlog/store-sqlite');

const openSqlite = (
  sqlite: SqliteAdapter,
  file: string,
  access: StoreAccess,
  importAndEnd: boolean,
): SqliteEventStore => {
  if (!existsSync(file)) {
    if (access !== 'create') throw noStoreHere(file);
    mkdirSync(dirname(file), { recursive: true });
  }
  if (access === 'read') return sqlite.SqliteEventStore.openReadOnly(file);
  if (existsSync(file)) assertWritable(file);
  // A command that writes keeps a bounded working set (an import stages one chunk at a time): with
  // the young generation held (before the adapter loaded) and these two, a 1 GiB replay into SQLite
  // peaks under 128 MiB (docs/historical-logs.md#memory).
  collectSooner(oldGenerationGrowth.boundedWorkingSet);
  // Imports are written on this thread; TEAMLOG_WRITER_THREAD=on writes them on a second one
  // (sqlite-writer-thread.ts; docs/benchmarks.md, The writer thread).
  const store = sqlite.SqliteEventStore.open(file, {
    writerThread: process.env.TEAMLOG_WRITER_THREAD === 'on',
    // The worker's start resets the process's young-generation growth factor: held again.
    writerThreadStarted: holdYoungGeneration,
    bulkLoadWhenCreated: importAndEnd,
  });
  try {
    store.database.pragma(`cache_size = -${writerPageCacheKiB}`);
    sqlite.assertViewSchemaNotNewer(store);
  } catch (error) {
    void store.close();
    throw error;
  }
  return store;
};

/** Views a reader can show without writing: the ones the database committed (if current), then newer events folded in memory. */
const foldedInMemory =
  (store: EventStore, committed: () => Promise<LoadedViews<ProjectionState> | undefined>) =>
  async (): Promise<TeamlogProjections> =>
    TeamlogProjections.open(store, new InMemoryViewStore(teamlogProjection, clearChangesInMemory, await committed()));

/**
 * The PostgreSQL store: its views in the same database, committed by this run when it writes and
 * no projection leader runs elsewhere (else read and folded on in memory); a reader neither
 * migrates nor commits views. Loaded only here, as the EventStoreDB adapter is: most runs use SQLite.
 */
const openPostgres = async (
  location: StoreLocation & { readonly kind: 'postgres' },
  access: StoreAccess,
): Promise<OpenedStore> => {
  const postgres = await import('@teamlog/store-postgres');
  const log = storeRetryNotice((text) => process.stderr.write(text));
  const store = await postgres
    .openPostgresStore(location.url, { create: access === 'create', migrate: access !== 'read', log })
    .catch((error: unknown) => {
      if (postgres.isPostgresError(error, 'InvalidPostgresUrl')) throw usageError(error.message);
      if (postgres.isPostgresError(error, 'PostgresStoreNotFound'))
        throw badInput(
          `${error.message}; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store`,
        );
      if (postgres.isPostgresError(error, 'PostgresSchemaTooNew')) throw badInput(error.message);
      throw error;
    });
  const committedViews = postgres.postgresCommittedViews(store);
  if (access === 'read') {
    return {
      location,
      store,
      projections: once(foldedInMemory(store, () => committedViews.read())),
      committedViews,
      close: () => store.close(),
    };
  }
  let views: Promise<{ readonly projections: TeamlogProjections; readonly release: () => Promise<void> }> | undefined;
  return {
    location,
    store,
    projections: async () => (await (views ??= postgres.postgresProjections(store))).projections,
    committedViews,
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
      // Loaded here, not at start-up: `--store :memory:` never needs the binding (docs/benchmarks.md, _Start-up_).
      // Held before the adapter loads: loading it allocates enough to grow the young generation once.
      if (options.access !== 'read') holdYoungGeneration();
      const sqlite = await import('@teamlog/store-sqlite');
      const store = openSqlite(sqlite, location.file, options.access, options.importAndEnd === true);
      const projections = store.readOnly
        ? foldedInMemory(store, async () => sqlite.readCommittedViews(store.database, store.file))
        : () => sqlite.sqliteProjections(store);
      return {
        location,
        store,
        projections: once(projections),
        committedViews: sqlite.sqliteCommittedViews(store),
        close: () => store.close(),
      };
    }
    case 'memory': {
      // Keeps nothing: events stay the objects the importer made (no serialised copy), views in
      // memory; a one-shot run keeps not even those: its views fold each staged chunk and it is
      // dropped. Every file is read once: a rejected file's fold is undone (the views' undo log,
      // docs/rules.md#one-pass-import).
      if (options.oneShot === true) {
        collectSooner(oldGenerationGrowth.growingViews);
        const heads = new HeadsOnlyEventStore();
        return {
          location,
          store: heads,
          projections: once(() => TeamlogProjections.inMemory(heads, { oneShot: true })),
          close: () => heads.close(),
        };
      }
      const store = new InMemoryEventStore();
      return {
        location,
        store,
        projections: once(() => TeamlogProjections.inMemory(store)),
        singlePassBytes: Number.POSITIVE_INFINITY,
        close: () => store.close(),
      };
    }
    case 'eventstoredb': {
      // Loaded only here: the gRPC client is slow to load and most runs use SQLite.
      const { openEventStoreDb } = await import('@teamlog/store-eventstoredb');
      const store = await openEventStoreDb(location.url).catch((error: unknown) => {
        throw isStoreError(error, 'InvalidEventStoreUrl') ? usageError(error.message) : error;
      });
      return {
        location,
        store,
        projections: once(() => TeamlogProjections.inMemory(store)),
        singlePassBytes: Number.POSITIVE_INFINITY,
        close: () => store.close(),
      };
    }
    case 'postgres':
      return openPostgres(location, options.access);
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
};

/** Run `work` on an open store and always close it. */
export const withStore = async <A>(
  location: StoreLocation,
  options: OpenStoreOptions,
  work: (opened: OpenedStore) => Promise<A>,
): Promise<A> => {
  const opened = await openTeamlogStore(location, options);
  try {
    return await work(opened);
  } finally {
    await opened.close();
  }
};
