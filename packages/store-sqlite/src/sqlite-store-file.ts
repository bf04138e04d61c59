import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isSqliteStoreError, notATeamlogStore, schemaTooNew } from './sqlite-store-errors';

const isSqliteError = (error: unknown, ...codes: string[]): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && codes.includes(String(error.code));

/** A regular, non-empty file, checked before SQLite touches it (a FIFO would block the open, a directory fails obscurely). */
export const assertStoreFileShape = (file: string): void => {
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile())
      throw notATeamlogStore(file, stats.isDirectory() ? 'it is a directory' : 'it is not a regular file');
    size = stats.size;
  } catch (error) {
    if (isSqliteStoreError(error, 'NotATeamlogStore')) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw notATeamlogStore(file, code === 'ENOENT' ? 'no such file' : `cannot read it (${(error as Error).message})`);
  }
  if (size === 0) throw notATeamlogStore(file, 'the file is empty');
};

/**
 * The teamlog schema version a database holds, read without writing. Refuses a file that is not
 * SQLite, or a database of another program (no teamlog migrations table, or no events table).
 */
export const storeSchemaVersion = (db: Database.Database, file: string, table = 'schema_migrations'): number => {
  let tables: Set<string>;
  try {
    tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (row) => row.name,
      ),
    );
  } catch (error) {
    if (isSqliteError(error, 'SQLITE_NOTADB', 'SQLITE_CORRUPT'))
      throw notATeamlogStore(file, 'it is not a SQLite database');
    throw error;
  }
  if (!tables.has(table))
    throw notATeamlogStore(
      file,
      tables.size === 0
        ? 'the database holds no tables'
        : `the database has no ${table} table (another program's database?)`,
    );
  const columns = new Set(
    (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>).map(
      (row) => row.name,
    ),
  );
  if (!['version', 'name', 'applied_at'].every((column) => columns.has(column)) || !tables.has('events')) {
    throw notATeamlogStore(file, `its ${table} table is not teamlog's`);
  }
  return Number(
    (db.prepare(`SELECT COALESCE(MAX(version), 0) AS version FROM ${table}`).get() as { version: number | bigint })
      .version,
  );
};

/** Refuse a schema newer than `known` (a newer teamlog wrote it). */
export const assertNotNewer = (file: string, version: number, known: number): void => {
  if (version > known) throw schemaTooNew(file, version, known);
};

/**
 * Create a store file whole: the schema is written under a temporary name in the same directory,
 * then linked to `file`, which fails if `file` appeared meanwhile (another process created it:
 * that one is used). So a file at the path is always a complete store or not teamlog's at all.
 * True when the file at the path is the one this call created.
 */
export const createStoreFile = (file: string, initialise: (db: Database.Database) => void): boolean => {
  const temporary = join(dirname(file), `.${basename(file)}.creating-${process.pid}-${randomBytes(4).toString('hex')}`);
  const db = new Database(temporary);
  try {
    initialise(db);
  } finally {
    db.close();
  }
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: a rename, which a racing creator could replace (then both hold a complete store).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    if (existsSync(file)) return false;
    renameSync(temporary, file);
    return true;
  } finally {
    if (existsSync(temporary)) unlinkSync(temporary);
  }
};

/** The first read of a writable connection rolls a hot journal back. */
const rollBackCopy = (copy: string): void => {
  const db = new Database(copy, { fileMustExist: true });
  try {
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  } finally {
    db.close();
  }
};

export interface ReadOnlyConnection {
  readonly db: Database.Database;
  /** Removes the private copy, if the file had to be copied. */
  readonly release: () => void;
}

/**
 * Open a store file read-only. SQLite reads a WAL database through its `-shm` file, which it must
 * create when it is missing; in a directory the user cannot write it cannot. A missing `-shm`
 * means no connection has the file open, so the file (and a `-wal` left behind) is then copied to
 * a private temporary directory and read there. So is a file an import killed while it wrote with
 * a rollback journal (bulkLoadWhenCreated): a read-only connection cannot roll back its hot
 * journal, so the copy's is rolled back, leaving what the import committed; the file itself is
 * never written (the next writer's open rolls it back).
 */
export const openReadOnly = (file: string, timeoutMs: number): ReadOnlyConnection => {
  const direct = new Database(file, { readonly: true, fileMustExist: true, timeout: timeoutMs });
  try {
    direct.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    return { db: direct, release: () => undefined };
  } catch (error) {
    direct.close();
    if (isSqliteError(error, 'SQLITE_NOTADB', 'SQLITE_CORRUPT'))
      throw notATeamlogStore(file, 'it is not a SQLite database');
    if (
      !isSqliteError(
        error,
        'SQLITE_READONLY_DIRECTORY',
        'SQLITE_CANTOPEN',
        'SQLITE_READONLY_CANTINIT',
        'SQLITE_READONLY_ROLLBACK',
      )
    )
      throw error;
  }
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-read-'));
  try {
    const copy = join(directory, 'store.db');
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    if (existsSync(`${file}-journal`)) {
      copyFileSync(`${file}-journal`, `${copy}-journal`);
      rollBackCopy(copy);
    }
    const db = new Database(copy, { readonly: true, fileMustExist: true, timeout: timeoutMs });
    return { db, release: () => rmSync(directory, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
};
