import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStoreError, schemaTooNew } from './sqlite-store-errors';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The migrations of a folder of `NNNN_name.sql` files (the repository's `migrations/`; tests and tooling). */
export const loadMigrations = (directory: string): Migration[] =>
  readdirSync(directory)
    .map((file) => /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      version: Number(match[1]),
      name: match[2] as string,
      sql: readFileSync(join(directory, match[0]), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);

/**
 * Apply every migration newer than the file's schema, each in its own transaction, recording the
 * version. A file whose schema is newer than the code is refused before anything is touched.
 */
export const applyMigrations = (
  db: Database.Database,
  migrations: readonly Migration[],
  file: string,
  table = 'schema_migrations',
): number => {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  const known = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
  const current = Number(
    (db.prepare(`SELECT COALESCE(MAX(version), 0) AS version FROM ${table}`).get() as { version: number | bigint })
      .version,
  );
  if (current > known) throw schemaTooNew(file, current, known);
  const record = db.prepare(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const apply = db.transaction(() => {
      // Another process may have applied it while this one waited for the write lock.
      const done = db.prepare(`SELECT 1 FROM ${table} WHERE version = ?`).get(migration.version);
      if (done !== undefined) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    });
    try {
      apply.immediate();
    } catch (error) {
      throw new SqliteStoreError({
        code: 'MigrationFailed',
        detail: `${file}: migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
      });
    }
  }
  return Math.max(current, known);
};
