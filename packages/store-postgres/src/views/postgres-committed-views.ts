import { type CommittedViewsReader, ViewRowDecoder } from '@teamlog/projections';
import { isPostgresError } from '../postgres-errors';
import type { PostgresEventStore } from '../postgres-event-store';
import { type PostgresMigration, knownSchemaVersion, readSchemaVersion } from '../postgres-migrations';
import { shippedViewMigrations, viewSchemaHistory } from './postgres-view-migrations';
import { defaultProjectionName, readViewsIn, storeViewsConnection } from './postgres-view-store';

export interface PostgresCommittedViewsOptions {
  /** The checkpoint name (default `teamlog-views`). */
  readonly projection?: string;
  readonly migrations?: readonly PostgresMigration[];
}

/**
 * The committed-views port over a PostgreSQL store (what `teamlog serve` starts from): the views
 * and checkpoint the database holds, read from one snapshot in a read-only transaction. Undefined
 * when the database has no views, none committed, or views at another schema version (migrating
 * them would be a write). A bad row throws `CorruptViewRow`.
 */
export const postgresCommittedViews = (
  store: PostgresEventStore,
  options: PostgresCommittedViewsOptions = {},
): CommittedViewsReader => {
  const migrations = options.migrations ?? shippedViewMigrations;
  const projection = options.projection ?? defaultProjectionName;
  const decoder = new ViewRowDecoder(store.database);
  const connection = storeViewsConnection(store);
  return {
    read: () =>
      connection.transaction('read', async (client) => {
        const version = await readSchemaVersion(client, migrations, store.database, viewSchemaHistory).catch(
          (error: unknown) => {
            if (isPostgresError(error, 'PostgresSchemaTooNew')) return undefined;
            throw error;
          },
        );
        if (version !== knownSchemaVersion(migrations)) return undefined;
        const loaded = await readViewsIn(client, decoder, projection);
        return loaded.checkpoint === undefined ? undefined : loaded;
      }),
  };
};
