import type { ClientBase } from 'pg';
import { statementName } from '../statement-name';

/** The PostgreSQL types view columns use (each column is sent as one array of its type). */
export type ColumnType = 'text' | 'json' | 'bigint' | 'integer' | 'smallint' | 'boolean' | 'double precision';

/** One view table: its columns in order, the first `keyLength` of them its primary key. */
export interface ViewTable {
  readonly name: string;
  readonly columns: ReadonlyArray<readonly [string, ColumnType]>;
  readonly keyLength: number;
  /** The order rows are loaded in (the fold's), when it is not the key's. */
  readonly loadOrder?: string;
}

const columnNames = (columns: ViewTable['columns']): string => columns.map(([column]) => column).join(', ');

const unnestOf = (columns: ViewTable['columns']): string =>
  `unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})`;

/** Each column's values as one array, the way `unnest` takes them back apart. */
const columnArrays = (width: number, rows: readonly (readonly unknown[])[]): unknown[][] =>
  Array.from({ length: width }, (_, column) => rows.map((row) => row[column] ?? null));

/** The last row for each key (one statement may not update a row twice). */
const lastPerKey = (table: ViewTable, rows: readonly (readonly unknown[])[]): Array<readonly unknown[]> => {
  const byKey = new Map<string, readonly unknown[]>();
  for (const row of rows) byKey.set(JSON.stringify(row.slice(0, table.keyLength)), row);
  return [...byKey.values()];
};

const run = async (client: ClientBase, text: string, values: unknown[]): Promise<void> => {
  await client.query({ name: statementName(text), text, values });
};

/**
 * Insert rows, replacing those with the same key (or, with `keep`, leaving them as they are),
 * in one statement however many rows: a commit's cost is a statement per table, not a round trip per row.
 */
export const putRows = async (
  client: ClientBase,
  table: ViewTable,
  rows: readonly (readonly unknown[])[],
  onConflict: 'replace' | 'keep' = 'replace',
): Promise<void> => {
  if (rows.length === 0) return;
  const { name, columns, keyLength } = table;
  const key = columnNames(columns.slice(0, keyLength));
  const updates = columns.slice(keyLength).map(([column]) => `${column} = excluded.${column}`);
  const action = onConflict === 'keep' || updates.length === 0 ? 'NOTHING' : `UPDATE SET ${updates.join(', ')}`;
  const text = `INSERT INTO ${name} (${columnNames(columns)}) SELECT * FROM ${unnestOf(columns)} ON CONFLICT (${key}) DO ${action}`;
  await run(client, text, columnArrays(columns.length, lastPerKey(table, rows)));
};

/** Delete the rows with these keys (each key: the values of the table's key columns). */
export const dropRows = async (
  client: ClientBase,
  table: ViewTable,
  keys: readonly (readonly unknown[])[],
): Promise<void> => {
  if (keys.length === 0) return;
  const key = table.columns.slice(0, table.keyLength);
  const text = `DELETE FROM ${table.name} WHERE (${columnNames(key)}) IN (SELECT * FROM ${unnestOf(key)})`;
  await run(client, text, columnArrays(key.length, keys));
};

/** Delete every row whose first key column is one of `owners` (a session's or a team's rows). */
export const dropRowsOf = async (client: ClientBase, table: ViewTable, owners: readonly string[]): Promise<void> => {
  if (owners.length === 0) return;
  const [owner] = table.columns[0] ?? ['', 'text'];
  const text = `DELETE FROM ${table.name} WHERE ${owner} = ANY ($1::text[])`;
  await run(client, text, [owners]);
};

/** Every row of the table, in its load order. */
export const allRows = async (client: ClientBase, table: ViewTable): Promise<Array<Record<string, unknown>>> => {
  const text = `SELECT * FROM ${table.name} ORDER BY ${table.loadOrder ?? columnNames(table.columns.slice(0, table.keyLength))}`;
  return (await client.query<Record<string, unknown>>({ name: statementName(text), text })).rows;
};
