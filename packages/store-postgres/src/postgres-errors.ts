import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

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

const postgresMessages: MessageTable<PostgresFault> = {
  PostgresSchemaTooNew: ({ database, schema, databaseVersion, knownVersion }) =>
    `${database}: ${schema === 'store' ? 'store' : 'view'} schema version ${databaseVersion} is newer than this teamlog knows (${knownVersion}); upgrade teamlog to open it`,
  PostgresStoreNotFound: ({ database }) => `${database}: no teamlog store in this database`,
  PostgresMigrationFailed: ({ detail }) => detail,
  InvalidPostgresUrl: ({ url, detail }) => `${url}: ${detail}`,
};

const describePostgresFault = describeFault(postgresMessages);

/** The one error of a database teamlog cannot use as it is; `code` says why. */
export class PostgresError<F extends PostgresFault = PostgresFault> extends CodedError<F> {
  override readonly name = 'PostgresError';
  constructor(fault: F) {
    super(fault, describePostgresFault(fault));
  }
}

/** Narrow an unknown error to a PostgresError, of the given codes when any are named. */
export const isPostgresError = codedErrorGuard<PostgresFault, PostgresError>(PostgresError);
