import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

/* The one error of the SQLite store file: a SqliteStoreError carries a fault whose `code` says what is wrong with the file. */

export type SqliteStoreFault =
  /** The file is not a teamlog store (missing, empty, not SQLite, another program's database): nothing was written. */
  | { readonly code: 'NotATeamlogStore'; readonly file: string; readonly detail: string }
  /** A newer schema than this teamlog knows. */
  | {
      readonly code: 'SchemaTooNew';
      readonly file: string;
      readonly fileVersion: number;
      readonly knownVersion: number;
    }
  /** An older schema that only a command that writes may upgrade. */
  | {
      readonly code: 'StoreNeedsUpgrade';
      readonly file: string;
      readonly fileVersion: number;
      readonly knownVersion: number;
    }
  /** A write was asked of a store opened read-only. */
  | { readonly code: 'StoreReadOnly'; readonly file: string }
  /** A schema migration failed; its transaction rolled back. */
  | { readonly code: 'MigrationFailed'; readonly detail: string };

export type SqliteStoreErrorCode = SqliteStoreFault['code'];

const sqliteStoreMessages: MessageTable<SqliteStoreFault> = {
  NotATeamlogStore: ({ file, detail }) => `${file}: not a teamlog store: ${detail}; nothing was written`,
  SchemaTooNew: ({ file, fileVersion, knownVersion }) =>
    `${file}: store schema version ${fileVersion} is newer than this teamlog knows (${knownVersion}); upgrade teamlog to open it`,
  StoreNeedsUpgrade: ({ file, fileVersion, knownVersion }) =>
    `${file}: store schema version ${fileVersion} is older than this teamlog's (${knownVersion}); reading never upgrades it: a command that writes (teamlog import) does`,
  StoreReadOnly: ({ file }) => `${file}: the store was opened read-only; nothing was written`,
  MigrationFailed: ({ detail }) => detail,
};

const describeSqliteStoreFault = describeFault(sqliteStoreMessages);

export class SqliteStoreError<F extends SqliteStoreFault = SqliteStoreFault> extends CodedError<F> {
  override readonly name = 'SqliteStoreError';
  constructor(fault: F) {
    super(fault, describeSqliteStoreFault(fault));
  }
}

/** Narrow an unknown error to a SqliteStoreError, of the given codes when any are named. */
export const isSqliteStoreError = codedErrorGuard<SqliteStoreFault, SqliteStoreError>(SqliteStoreError);

export const notATeamlogStore = (file: string, detail: string): SqliteStoreError =>
  new SqliteStoreError({ code: 'NotATeamlogStore', file, detail });

export const schemaTooNew = (file: string, fileVersion: number, knownVersion: number): SqliteStoreError =>
  new SqliteStoreError({ code: 'SchemaTooNew', file, fileVersion, knownVersion });
