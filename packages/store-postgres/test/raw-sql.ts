import { Client, type QueryResultRow } from 'pg';

/** A plain connection of the test's own, outside the store. */
export const rawClient = async (url: string): Promise<Client> => {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
};

/** Run one statement on a connection of its own and return its rows. */
export const rawQuery = async <R extends QueryResultRow>(
  url: string,
  sql: string,
  parameters: unknown[] = [],
): Promise<R[]> => {
  const client = await rawClient(url);
  try {
    return (await client.query<R>(sql, parameters)).rows;
  } finally {
    await client.end();
  }
};

export const countEvents = async (url: string, stream?: string): Promise<number> =>
  Number(
    (
      await rawQuery<{ n: string }>(
        url,
        stream === undefined
          ? 'SELECT count(*) AS n FROM teamlog.events'
          : 'SELECT count(*) AS n FROM teamlog.events WHERE stream_name = $1',
        stream === undefined ? [] : [stream],
      )
    )[0]?.n,
  );
