import { Client, Pool, type PoolConfig } from 'pg';
import { PostgresError, isPostgresError } from './postgres-errors';
import {
  type PostgresMigration,
  applyPostgresMigrations,
  readSchemaVersion,
  shippedMigrations,
} from './postgres-migrations';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';
import { describePostgresUrl, isPostgresUrl, redactPassword } from './postgres-url';
import { errorCode, isConnectionFailure } from './connection-failure';
import { handleClientErrors, handlePoolErrors } from './connection-error-handlers';
import { defaultRetryPolicy, retrying, storeFailure } from '@teamlog/store';

export interface OpenPostgresStoreOptions extends PostgresEventStoreOptions {
  /** Apply the shipped migrations (default). False for openers that only read: the schema is checked, never changed. */
  readonly migrate?: boolean;
  /** Create the store's schema in a database without one (default). False: such a database is refused with PostgresStoreNotFound, nothing written. */
  readonly create?: boolean;
  /** Pooled connections of this process (default 10). */
  readonly maxConnections?: number;
  /** For tests of upgrades: the migrations to apply instead of the shipped ones. */
  readonly migrations?: readonly PostgresMigration[];
}

const applicationName = 'teamlog';

const poolConfig = (url: string, max: number): PoolConfig => ({
  connectionString: url,
  max,
  application_name: applicationName,
  connectionTimeoutMillis: 10_000,
});

/**
 * Open the PostgreSQL store at a connection string (`postgres://user:password@host:5432/db`), for
 * `--store` / `TEAMLOG_STORE`: connects, migrates under an advisory lock (or only checks the schema
 * version with `migrate: false`) and returns the store. Errors never carry the password.
 */
export const openPostgresStore = async (
  url: string,
  options: OpenPostgresStoreOptions = {},
): Promise<PostgresEventStore> => {
  const database = describePostgresUrl(url);
  const redact = (text: string): string => redactPassword(text, url);
  if (!isPostgresUrl(url))
    throw new PostgresError({
      code: 'InvalidPostgresUrl',
      url: database,
      detail: 'expected postgres://user:password@host:port/database',
    });
  let pool: Pool;
  try {
    // A client parses the URL when it is made, as every pooled connection will (the pool only when it connects): a bad URL is refused here.
    new Client({ connectionString: url.trim() });
    pool = new Pool(poolConfig(url.trim(), options.maxConnections ?? 10));
  } catch (error) {
    throw new PostgresError({ code: 'InvalidPostgresUrl', url: database, detail: redact((error as Error).message) });
  }
  const log = options.log ?? (() => undefined);
  const describe = (error: unknown): string => redact(error instanceof Error ? error.message : String(error));
  handlePoolErrors(pool, (error) => log(`teamlog postgres: a connection to ${database} failed: ${describe(error)}`));
  const migrations = options.migrations ?? shippedMigrations;
  const openOnce = async (): Promise<number> => {
    const client = await pool.connect();
    let broken = false;
    try {
      if (options.create === false && (await readSchemaVersion(client, migrations, database)) === 0)
        throw new PostgresError({ code: 'PostgresStoreNotFound', database });
      return options.migrate === false
        ? await readSchemaVersion(client, migrations, database)
        : await applyPostgresMigrations(client, migrations, database);
    } catch (error) {
      broken = isConnectionFailure(error);
      throw error;
    } finally {
      client.release(broken);
    }
  };
  let schemaVersion: number;
  try {
    // An unreachable or restarting server is retried like every query (about half a minute by default); migrations run under a lock in one transaction each, so running them again is safe.
    schemaVersion = await retrying(openOnce, {
      policy: options.retry ?? defaultRetryPolicy,
      retryable: isConnectionFailure,
      onRetry: ({ retry, delayMs, error }) =>
        log(
          `teamlog postgres: cannot connect to ${database} (${describe(error)}); retry ${retry} in ${Math.round(delayMs)} ms`,
        ),
    });
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (isPostgresError(error, 'PostgresSchemaTooNew', 'PostgresStoreNotFound')) throw error;
    const failure = isConnectionFailure(error) ? 'unavailable' : 'server';
    throw storeFailure(`cannot open ${database}: ${redact((error as Error).message)}`, {
      failure,
      operation: 'open',
      serverCode: errorCode(error),
    });
  }
  // Keep-alive probes tell a long-lived connection (LISTEN, a projection's lease) that the server vanished without closing it.
  const connectClient = (name: string): Client =>
    handleClientErrors(
      new Client({
        connectionString: url.trim(),
        application_name: name,
        connectionTimeoutMillis: 10_000,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      }),
      (error) => log(`teamlog postgres: the ${name} connection to ${database} failed: ${describe(error)}`),
    );
  const connectListener = (): Client => connectClient(`${applicationName}-listen`);
  return new PostgresEventStore({ pool, connectListener, connectClient, database, redact }, schemaVersion, options);
};
