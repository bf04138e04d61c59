import { StoreFailure } from '@teamlog/store';

/** Which schema of the database: the event store's (migrations/postgres) or the views' (migrations/projections-postgres). */
export type SchemaKind = 'store' | 'views';

/** The database's schema is newer than this teamlog knows: refused before anything is written. */
export class PostgresSchemaTooNew extends Error {
  override readonly name = 'PostgresSchemaTooNew';
  constructor(
    /** The URL without its password. */
    readonly database: string,
    readonly databaseVersion: number,
    readonly knownVersion: number,
    readonly schema: SchemaKind = 'store',
  ) {
    super(
      `${database}: ${schema === 'store' ? 'store' : 'view'} schema version ${databaseVersion} is newer than this teamlog knows (${knownVersion}); upgrade teamlog to open it`,
    );
  }
}

/** The database holds no teamlog store, and the opener asked not to create one. */
export class PostgresStoreNotFound extends Error {
  override readonly name = 'PostgresStoreNotFound';
  constructor(
    /** The URL without its password. */
    readonly database: string,
  ) {
    super(`${database}: no teamlog store in this database`);
  }
}

export class PostgresMigrationFailed extends Error {
  override readonly name = 'PostgresMigrationFailed';
}

export class InvalidPostgresUrl extends Error {
  override readonly name = 'InvalidPostgresUrl';
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(`${url}: ${detail}`);
  }
}

/** Why a store operation failed at the driver or server (never carrying the password). */
export type PostgresFailure = 'unavailable' | 'server';

export class PostgresStoreError extends StoreFailure {
  override readonly name = 'PostgresStoreError';
  constructor(
    readonly failure: PostgresFailure,
    readonly operation: string,
    /** The server's SQLSTATE or the driver's error code, when there is one. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}
