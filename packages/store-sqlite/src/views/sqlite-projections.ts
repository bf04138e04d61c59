import type Database from 'better-sqlite3';
import type { EventStore } from '@teamlog/store';
import { TeamlogProjections, type TeamlogProjectionsOptions } from '@teamlog/projections';
import type { SqliteEventStore } from '../sqlite-event-store';
import { SqliteViewStore, type SqliteViewStoreOptions } from './sqlite-view-store';

export type SqliteProjectionsOptions = TeamlogProjectionsOptions & SqliteViewStoreOptions;

/** teamlog's views in the event store's own SQLite file, committed through the same connection. */
export const sqliteProjections = (
  store: SqliteEventStore,
  options: SqliteProjectionsOptions = {},
): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, new SqliteViewStore(store.database, store.file, options), options);

/** teamlog's views in a SQLite database of their own, for a store elsewhere (EventStoreDB). */
export const sqliteViewsOf = (
  store: EventStore,
  database: Database.Database,
  file: string,
  options: SqliteProjectionsOptions = {},
): Promise<TeamlogProjections> => TeamlogProjections.open(store, new SqliteViewStore(database, file, options), options);
