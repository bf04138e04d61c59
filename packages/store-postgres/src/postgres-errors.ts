/** The database's schema is newer than this teamlog knows: refused before anything is written. */
export class PostgresSchemaTooNew extends Error {
  override readonly name = 'PostgresSchemaTooNew';
  constructor(
    /** The URL without its password. */
    readonly database: string,
    readonly databaseVersion: number,
    readonly knownVersion: number,
  ) {
    super(`${database}: store schema version ${databaseVersion} is newer than this teamlog knows (${knownVersion}); upgrade teamlog to open it`);
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

export class PostgresStoreError extends Error {
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
