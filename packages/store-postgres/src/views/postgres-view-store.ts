import type { ClientBase } from 'pg';
import { type GlobalPosition, formatPosition } from '@teamlog/store';
import {
  clearChanges,
  initialProjectionState,
  type LoadedViews,
  type ProjectionState,
  ViewRowDecoder,
  ProjectionError,
  type ViewStore,
} from '@teamlog/projections';
import type { PostgresEventStore } from '../postgres-event-store';
import { type PostgresMigration, applyPostgresMigrations } from '../postgres-migrations';
import { statementName } from '../statement-name';
import { HeldMessagesBySession } from './held-messages-by-session';
import { loadSessionRows, writeSessionRows } from './postgres-inbox-rows';
import { loadTeamRows, writeTeamRows } from './postgres-team-rows';
import { shippedViewMigrations, viewSchemaHistory } from './postgres-view-migrations';
import { projectionCommitKey } from './projection-lock-keys';
import { dropRowsOf } from './view-table';
import { checkpointsTable, sessionRowTables, viewTables } from './view-tables';
import { type ViewsConnection, pooledViews } from './views-connection';

/** The checkpoint name the CLI, `postgresProjections` and the projection leader use. */
export const defaultProjectionName = 'teamlog-views';

export interface PostgresViewStoreOptions {
  /** Names the checkpoint row, the lead and the commit lock (default `teamlog-views`). */
  readonly projection?: string;
  /** The view schema's migrations (default: the ones this package ships, from `migrations/projections-postgres`). */
  readonly migrations?: readonly PostgresMigration[];
  /** Where the transactions run (default: the store's pool; a leader passes its lease's connection). */
  readonly connection?: ViewsConnection;
  readonly clock?: () => Date;
  /**
   * Called inside the commit transaction after the views are written and before the checkpoint
   * is: fault-injection tests fail or crash the process here to show the two cannot come apart.
   */
  readonly onViewsWritten?: () => void | Promise<void>;
}

const checkpointSql = `SELECT position_commit, position_prepare FROM ${checkpointsTable} WHERE projection = $1`;
const putCheckpointSql = `INSERT INTO ${checkpointsTable} (projection, position_commit, position_prepare, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (projection) DO UPDATE SET position_commit = excluded.position_commit, position_prepare = excluded.position_prepare, updated_at = excluded.updated_at`;

const checkpointIn = async (client: ClientBase, projection: string): Promise<GlobalPosition | undefined> => {
  const row = (
    await client.query<{ position_commit: string; position_prepare: string }>({
      name: statementName(checkpointSql),
      text: checkpointSql,
      values: [projection],
    })
  ).rows[0];
  return row === undefined ? undefined : { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) };
};

/** The views and checkpoint as committed, inside a transaction the caller opened (one snapshot). */
export const readViewsIn = async (
  client: ClientBase,
  decoder: ViewRowDecoder,
  projection: string,
): Promise<LoadedViews<ProjectionState>> => {
  const held = new HeldMessagesBySession();
  const state = initialProjectionState(held.of);
  (await loadTeamRows(client, decoder)).forEach((team, id) => state.teams.set(id, team));
  await loadSessionRows(client, decoder, state, held);
  return { state, checkpoint: await checkpointIn(client, projection) };
};

/** The pooled connection of the store, retried as its own reads are. */
export const storeViewsConnection = (store: PostgresEventStore): ViewsConnection => {
  const { connection, retry, log } = store.context;
  return pooledViews(connection.pool, {
    retry,
    log,
    describe: (error) => connection.redact(error instanceof Error ? error.message : String(error)),
  });
};

const shown = (position: GlobalPosition | undefined): string =>
  position === undefined ? 'none' : formatPosition(position);

/** Apply the view schema's migrations (under the advisory lock every teamlog migration takes). */
export const migrateViews = async (
  store: PostgresEventStore,
  migrations: readonly PostgresMigration[] = shippedViewMigrations,
): Promise<number> => {
  const client = await store.context.connection.pool.connect();
  try {
    return await applyPostgresMigrations(client, migrations, store.database, viewSchemaHistory);
  } finally {
    client.release();
  }
};

/**
 * teamlog's views in the event store's own PostgreSQL database (schema in
 * migrations/projections-postgres, the tables of the SQLite view store). A commit writes what the
 * batch changed and the checkpoint in one transaction, under the projection's commit lock, after
 * checking that the checkpoint is still the one this store last loaded or wrote; so whatever the
 * crash, the views hold exactly the events up to their checkpoint, and a runner that fell behind
 * another cannot move the checkpoint back.
 */
export class PostgresViewStore implements ViewStore<ProjectionState> {
  /** The checkpoint this store last loaded or committed: a commit expects to find it unchanged. */
  private expected: GlobalPosition | undefined;
  private readonly decoder: ViewRowDecoder;
  private readonly commitKey: string;

  private constructor(
    private readonly connection: ViewsConnection,
    database: string,
    readonly projection: string,
    private readonly clock: () => Date,
    private readonly onViewsWritten: () => void | Promise<void>,
  ) {
    this.decoder = new ViewRowDecoder(database);
    this.commitKey = projectionCommitKey(projection);
  }

  /** The views of `store`'s database, its view schema migrated first. */
  static async open(store: PostgresEventStore, options: PostgresViewStoreOptions = {}): Promise<PostgresViewStore> {
    await migrateViews(store, options.migrations);
    return new PostgresViewStore(
      options.connection ?? storeViewsConnection(store),
      store.database,
      options.projection ?? defaultProjectionName,
      options.clock ?? (() => new Date()),
      options.onViewsWritten ?? (() => undefined),
    );
  }

  /** The committed views and checkpoint, read from one snapshot. */
  async load(): Promise<LoadedViews<ProjectionState>> {
    const loaded = await this.connection.transaction('read', (client) =>
      readViewsIn(client, this.decoder, this.projection),
    );
    this.expected = loaded.checkpoint;
    return loaded;
  }

  /** Rejects with ViewsChangedElsewhere, writing nothing, when another runner committed since this one loaded. */
  async commit(state: ProjectionState, checkpoint: GlobalPosition): Promise<void> {
    await this.connection.transaction('write', async (client) => {
      await this.lockCommits(client);
      const found = await checkpointIn(client, this.projection);
      if (shown(found) !== shown(this.expected))
        throw new ProjectionError({
          code: 'ViewsChangedElsewhere',
          projection: this.projection,
          expected: shown(this.expected),
          found: shown(found),
        });
      // A superseded session's rows go before the batch writes its later generation's (PendingChanges.resets).
      const resets = [...state.changes.resets];
      for (const table of sessionRowTables) await dropRowsOf(client, table, resets);
      await writeTeamRows(client, state);
      await writeSessionRows(client, state);
      await this.onViewsWritten();
      await client.query({
        name: statementName(putCheckpointSql),
        text: putCheckpointSql,
        values: [this.projection, checkpoint.commit.toString(), checkpoint.prepare.toString(), this.clock()],
      });
    });
    this.expected = checkpoint;
    clearChanges(state);
  }

  /** Empty the views and forget the checkpoint, in one transaction. */
  async reset(): Promise<LoadedViews<ProjectionState>> {
    await this.connection.transaction('write', async (client) => {
      await this.lockCommits(client);
      for (const table of viewTables) await client.query(`DELETE FROM ${table.name}`);
      await client.query(`DELETE FROM ${checkpointsTable} WHERE projection = $1`, [this.projection]);
    });
    this.expected = undefined;
    return { state: initialProjectionState(new HeldMessagesBySession().of), checkpoint: undefined };
  }

  private async lockCommits(client: ClientBase): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock($1)', [this.commitKey]);
  }
}
