import { StoreFailure } from '@teamlog/store';

/** Which schema of the database: the event store's (migrations/postgres) or the views' (migrations/projections-postgres). */
export type SchemaKind = 'store' | 'views';

/** What is wrong with the database or its URL (never carrying the password); refused before anything is written. */
export type PostgresFault =
  /** The database's schema is newer than this teamlog knows. `database` is the URL without its password. */
  | {
      readonly code: 'PostgresSchemaTooNew';
      readonly database: string;
      readonly databaseVersion: number;
      readonly knownVersion: number;
      readonly schema: SchemaKind;
    }
  /** The database holds no teamlog store, and the opener asked not to create one. */
  | { readonly code: 'PostgresStoreNotFound'; readonly database: string }
  | { readonly code: 'PostgresMigrationFailed'; readonly detail: string }
  | { readonly code: 'InvalidPostgresUrl'; readonly url: string; readonly detail: string };

export type PostgresErrorCode = PostgresFault['code'];

const describePostgresFault = (fault: PostgresFault): string => {
  switch (fault.code) {
    case 'PostgresSchemaTooNew':
      return `${fault.database}: ${fault.schema === 'store' ? 'store' : 'view'} schema version ${fault.databaseVersion} is newer than this teamlog knows (${fault.knownVersion}); upgrade teamlog to open it`;
    case 'PostgresStoreNotFound':
      return `${fault.database}: no teamlog store in this database`;
    case 'PostgresMigrationFailed':
      return fault.detail;
    case 'InvalidPostgresUrl':
      return `${fault.url}: ${fault.detail}`;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
};

/** The one error of a database teamlog cannot use as it is; `code` says why. */
export class PostgresError<F extends PostgresFault = PostgresFault> extends Error {
  override readonly name = 'PostgresError';
  readonly code: F['code'];
  constructor(readonly fault: F) {
    super(describePostgresFault(fault));
    this.code = fault.code;
  }
}

/** Narrow an unknown error to a PostgresError, of the given codes when any are named. */
export const isPostgresError = <C extends PostgresErrorCode>(
  error: unknown,
  ...codes: readonly C[]
): error is PostgresError<Extract<PostgresFault, { readonly code: C }>> =>
  error instanceof PostgresError && (codes.length === 0 || (codes as readonly string[]).includes(error.code));

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
