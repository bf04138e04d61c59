import type { ClientBase } from 'pg';
import { PostgresError, type SchemaKind } from './postgres-errors';
import { postgresMigrations } from './migrations/postgres-migrations';

export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The migrations this package ships (compiled in from migrations/postgres by scripts/embed-migrations.mjs). */
export const shippedMigrations: readonly PostgresMigration[] = postgresMigrations;

/** The table recording which migrations of one schema (the event store's, or the views') a database has. */
export interface SchemaHistory {
  /** What the migrations build, for messages. */
  readonly of: SchemaKind;
  /** The schema-qualified table of applied versions. */
  readonly table: string;
}

export const storeSchemaHistory: SchemaHistory = { of: 'store', table: 'teamlog.schema_migrations' };

export const knownSchemaVersion = (migrations: readonly PostgresMigration[]): number =>
  migrations.reduce((max, migration) => Math.max(max, migration.version), 0);

/** Every opener of a database takes this transaction-level advisory lock, so concurrent openers migrate one after another. */
export const migrationLockKey = 0x7465616d6c6f67n; // "teamlog" in ASCII: a fixed key any teamlog opener shares

/** 0 for a database without the schema. (A table that may be missing cannot be named in the same statement that checks for it.) */
const currentVersion = async (client: ClientBase, history: SchemaHistory): Promise<number> => {
  const table = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    history.table,
  ]);
  if (table.rows[0]?.present !== true) return 0;
  return Number(
    (await client.query<{ version: number }>(`SELECT COALESCE(MAX(version), 0) AS version FROM ${history.table}`))
      .rows[0]?.version ?? 0,
  );
};

/** The database's schema version and the newest this code knows; a newer database is PostgresSchemaTooNew. */
const versionsNotTooNew = async (
  client: ClientBase,
  migrations: readonly PostgresMigration[],
  database: string,
  history: SchemaHistory,
): Promise<{ readonly current: number; readonly known: number }> => {
  const known = knownSchemaVersion(migrations);
  const current = await currentVersion(client, history);
  if (current > known)
    throw new PostgresError({
      code: 'PostgresSchemaTooNew',
      database,
      databaseVersion: current,
      knownVersion: known,
      schema: history.of,
    });
  return { current, known };
};

const setupSql = (history: SchemaHistory): string => `CREATE SCHEMA IF NOT EXISTS teamlog;
CREATE TABLE IF NOT EXISTS ${history.table} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;

const rollback = (client: ClientBase): Promise<unknown> => client.query('ROLLBACK').catch(() => undefined);

/**
 * Apply every shipped migration newer than the database's schema, all in one transaction under an
 * advisory lock. A database whose schema is newer than the code is refused (PostgresSchemaTooNew)
 * before anything is written. Returns the schema version now in force.
 */
export const applyPostgresMigrations = async (
  client: ClientBase,
  migrations: readonly PostgresMigration[],
  database: string,
  history: SchemaHistory = storeSchemaHistory,
): Promise<number> => {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey.toString()]);
    const { current, known } = await versionsNotTooNew(client, migrations, database, history);
    if (current < known) await client.query(setupSql(history));
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      try {
        await client.query(migration.sql);
      } catch (error) {
        throw new PostgresError({
          code: 'PostgresMigrationFailed',
          detail: `${database}: migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
        });
      }
      await client.query(`INSERT INTO ${history.table} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    return Math.max(current, known);
  } catch (error) {
    await rollback(client);
    throw error;
  }
};

/** For openers that never write: the schema version, refusing a newer one. */
export const readSchemaVersion = async (
  client: ClientBase,
  migrations: readonly PostgresMigration[],
  database: string,
  history: SchemaHistory = storeSchemaHistory,
): Promise<number> => (await versionsNotTooNew(client, migrations, database, history)).current;
