import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  /** The server URL with this database's name. */
  readonly url: string;
  readonly name: string;
  /** Drop it (closing any connection still open to it). */
  readonly drop: () => Promise<void>;
}

/** The same server URL with another database name. */
export const withDatabase = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const administer = async (serverUrl: string, sql: string): Promise<void> => {
  const client = new Client({ connectionString: serverUrl });
  // A dropped connection rejects the query below; without a listener its 'error' event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

/** A fresh database on the server for one test file (or one test), so files never see each other's events. */
export const createTestDatabase = async (serverUrl: string, label: string): Promise<TestDatabase> => {
  const name = `teamlog_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await administer(serverUrl, `CREATE DATABASE ${name}`);
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () => administer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
};
