import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { streamName } from '@teamlog/store';
import { handlePoolErrors, openPostgresStore } from '@teamlog/store-postgres';
import { runWriters } from './postgres-bench-rows';

/* The three ways the Postgres section writes the same appends, each with synchronous_commit on. */

export interface AppendMeasurement {
  readonly elapsedMs: number;
  readonly count: number;
  readonly detail: Record<string, number | string>;
}

const timed = async (work: () => Promise<number>): Promise<{ readonly count: number; readonly elapsedMs: number }> => {
  const started = performance.now();
  const count = await work();
  return { count, elapsedMs: performance.now() - started };
};

/** PostgresEventStore.appendToStream, each writer with its stream's exact expected revision (as the team engine appends). */
export const measureStoreAppends = async (
  url: string,
  writers: number,
  appends: number,
): Promise<AppendMeasurement> => {
  const store = await openPostgresStore(url);
  const before = store.appendTransactions;
  const { count, elapsedMs } = await timed(() =>
    runWriters(writers, appends, async (append) => {
      await store.appendToStream(
        streamName(append.stream),
        [{ id: append.id, type: append.type, data: append.data, metadata: append.metadata }],
        {
          expectedRevision: append.revision === 0 ? 'no_stream' : BigInt(append.revision - 1),
        },
      );
    }),
  );
  const transactions = store.appendTransactions - before;
  await store.close();
  return {
    elapsedMs,
    count,
    detail: { writers, transactions, appendsPerTransaction: count / Math.max(1, transactions) },
  };
};

/** Plain INSERTs of the same rows into the store's own table, one autocommit transaction each, from `writers` connections. */
export const measureRawInserts = async (url: string, writers: number, appends: number): Promise<AppendMeasurement> => {
  const schema = await openPostgresStore(url); // the store's schema, then the baseline writes it raw
  await schema.close();
  // An 'error' nobody listens to would end the bench (connection-error-handlers.ts of store-postgres).
  const pool = handlePoolErrors(new Pool({ connectionString: url, max: writers }), () => undefined);
  const insert =
    'INSERT INTO teamlog.events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7)';
  const { count, elapsedMs } = await timed(() =>
    runWriters(writers, appends, async (append) => {
      await pool.query(insert, [
        append.stream,
        append.revision,
        append.id,
        append.type,
        JSON.stringify(append.data),
        JSON.stringify(append.metadata),
        new Date(),
      ]);
    }),
  );
  await pool.end();
  return { elapsedMs, count, detail: { writers, connections: writers, transactions: count } };
};

/** Emmett's PostgreSQL event store (the peer figure) on the same appends, with the same expected versions. */
export const measureEmmettAppends = async (
  url: string,
  writers: number,
  appends: number,
): Promise<AppendMeasurement> => {
  const store = getPostgreSQLEventStore(url);
  await store.appendToStream('bench-warm-up', [{ type: 'bench/warm-up', data: {} }]); // Emmett creates its schema on first use
  const { count, elapsedMs } = await timed(() =>
    runWriters(writers, appends, async (append) => {
      await store.appendToStream(
        append.stream,
        [
          {
            type: append.type,
            data: append.data as Record<string, unknown>,
            metadata: append.metadata as Record<string, unknown>,
          },
        ],
        {
          expectedStreamVersion: BigInt(append.revision),
        },
      );
    }),
  );
  await store.close();
  return { elapsedMs, count, detail: { writers } };
};
