import type { Client, Pool, PoolClient } from 'pg';

/*
 * Every `pg` client and pool gets an 'error' listener: a connection the server drops emits
 * 'error' on its client (and an idle pooled one on the pool), and an 'error' event nobody listens
 * to ends the process (docs/scale-out.md, "Lost connections"). The failure itself reaches the
 * caller through the query that was running or the next one, which fails and is retried.
 */

/** The pool's own 'error' (an idle connection died), and a permanent listener on every client it makes, checked out or not. */
export const handlePoolErrors = (pool: Pool, onError: (error: Error) => void): Pool => {
  pool.on('error', onError);
  pool.on('connect', (client: PoolClient) => {
    client.on('error', onError);
  });
  return pool;
};

/** A client of its own (LISTEN, a projection's lease): its user learns of the failure from its own listeners or queries. */
export const handleClientErrors = (client: Client, onError: (error: Error) => void): Client => {
  client.on('error', onError);
  return client;
};
