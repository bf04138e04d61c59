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

const describeSqliteStoreFault = (fault: SqliteStoreFault): string => {
  switch (fault.code) {
    case 'NotATeamlogStore':
      return `${fault.file}: not a teamlog store: ${fault.detail}; nothing was written`;
    case 'SchemaTooNew':
      return `${fault.file}: store schema version ${fault.fileVersion} is newer than this teamlog knows (${fault.knownVersion}); upgrade teamlog to open it`;
    case 'StoreNeedsUpgrade':
      return `${fault.file}: store schema version ${fault.fileVersion} is older than this teamlog's (${fault.knownVersion}); reading never upgrades it: a command that writes (teamlog import) does`;
    case 'StoreReadOnly':
      return `${fault.file}: the store was opened read-only; nothing was written`;
    case 'MigrationFailed':
      return fault.detail;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
};

export class SqliteStoreError<F extends SqliteStoreFault = SqliteStoreFault> extends Error {
  override readonly name = 'SqliteStoreError';
  readonly code: F['code'];
  constructor(readonly fault: F) {
    super(describeSqliteStoreFault(fault));
    this.code = fault.code;
  }
}

/** Narrow an unknown error to a SqliteStoreError, of the given codes when any are named. */
export const isSqliteStoreError = <C extends SqliteStoreErrorCode>(
  error: unknown,
  ...codes: readonly C[]
): error is SqliteStoreError<Extract<SqliteStoreFault, { readonly code: C }>> =>
  error instanceof SqliteStoreError && (codes.length === 0 || (codes as readonly string[]).includes(error.code));

export const notATeamlogStore = (file: string, detail: string): SqliteStoreError =>
  new SqliteStoreError({ code: 'NotATeamlogStore', file, detail });

export const schemaTooNew = (file: string, fileVersion: number, knownVersion: number): SqliteStoreError =>
  new SqliteStoreError({ code: 'SchemaTooNew', file, fileVersion, knownVersion });
