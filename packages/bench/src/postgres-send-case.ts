import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { handlePoolErrors, openPostgresStore } from '@teamlog/store-postgres';
import type { AppendMeasurement } from './postgres-append-case';
import { sendConcurrently, startTeam } from './send-case';

const countRows = async (url: string): Promise<number> => {
  const pool = handlePoolErrors(new Pool({ connectionString: url, max: 1 }), () => undefined);
  try {
    return Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM teamlog.events')).rows[0]?.n ?? 0);
  } finally {
    await pool.end();
  }
};

/** TeamLog.send on the PostgreSQL store: `senders` members sending concurrently, `messages` in all. */
export const measurePostgresSends = async (
  url: string,
  members: number,
  senders: number,
  messages: number,
): Promise<AppendMeasurement> => {
  const store = await openPostgresStore(url);
  const team = await startTeam(store, members);
  const rowsBefore = await countRows(url);
  const transactionsBefore = store.appendTransactions;
  const statementsBefore = store.statementsSent;
  const started = performance.now();
  const count = await sendConcurrently(team, senders, messages);
  const elapsedMs = performance.now() - started;
  const transactions = store.appendTransactions - transactionsBefore;
  const statements = store.statementsSent - statementsBefore;
  await team.teamlog.dispose();
  await store.close();
  const rows = (await countRows(url)) - rowsBefore;
  return {
    elapsedMs,
    count,
    detail: {
      senders,
      rows,
      rowsPerMessage: rows / Math.max(1, count),
      transactions,
      messagesPerTransaction: count / Math.max(1, transactions),
      statements,
      statementsPerMessage: statements / Math.max(1, count),
    },
  };
};
