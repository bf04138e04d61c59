import { EventEmitter } from 'node:events';
import { Client, Pool, type PoolClient } from 'pg';
import { handleClientErrors, handlePoolErrors } from '@teamlog/store-postgres';

/* An 'error' event nobody listens to ends the process: every pool and client gets a listener. */

describe('connection error handlers', () => {
  it('given a pool, then its own errors and those of every client it makes (checked out or not) reach the handler instead of ending the process', () => {
    const pool = new Pool({ connectionString: 'postgres://teamlog@127.0.0.1:1/teamlog' });
    const seen: string[] = [];
    handlePoolErrors(pool, (error) => seen.push(error.message));
    const client = new EventEmitter() as unknown as PoolClient;
    pool.emit('connect', client);
    // What the server dropping a checked-out connection does: pg-pool has removed its own listener by then.
    client.emit('error', new Error('Connection terminated unexpectedly'));
    pool.emit('error', new Error('terminating connection due to administrator command'), client);
    expect(seen).toEqual(['Connection terminated unexpectedly', 'terminating connection due to administrator command']);
    void pool.end();
  });

  it('given a client of its own, then its errors reach the handler', () => {
    const seen: string[] = [];
    const client = handleClientErrors(
      new Client({ connectionString: 'postgres://teamlog@127.0.0.1:1/teamlog' }),
      (error) => seen.push(error.message),
    );
    client.emit('error', new Error('read ECONNRESET'));
    expect(seen).toEqual(['read ECONNRESET']);
  });
});
