import type { Client, ClientBase, Pool } from 'pg';
import { isConnectionFailure } from '../connection-failure';
import { type RetryPolicy, retrying } from '@teamlog/store';

/** How a transaction of the views begins: reads see one snapshot and write nothing. */
export type ViewsTransactionKind = 'read' | 'write';

/** Where the view store runs its transactions: the store's pool, or the one connection that holds a projection's lead. */
export interface ViewsConnection {
  transaction<A>(kind: ViewsTransactionKind, work: (client: ClientBase) => Promise<A>): Promise<A>;
}

const begin: Record<ViewsTransactionKind, string> = {
  read: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  write: 'BEGIN',
};

const inTransaction = async <A>(
  client: ClientBase,
  kind: ViewsTransactionKind,
  work: (client: ClientBase) => Promise<A>,
): Promise<A> => {
  await client.query(begin[kind]);
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
};

export interface PooledViewsOptions {
  readonly retry: RetryPolicy;
  readonly log: (line: string) => void;
  readonly describe: (error: unknown) => string;
}

/**
 * Transactions on pooled connections, run again after a dropped connection or a restarting server.
 * Safe for commits too: a commit that did go through before its reply was lost finds, when run
 * again, the checkpoint it wrote instead of the one it expects, and writes nothing
 * (ViewsChangedElsewhere: the runner reloads the views it had committed).
 */
export const pooledViews = (pool: Pool, options: PooledViewsOptions): ViewsConnection => {
  const once = async <A>(kind: ViewsTransactionKind, work: (client: ClientBase) => Promise<A>): Promise<A> => {
    const client = await pool.connect();
    try {
      const result = await inTransaction(client, kind, work);
      client.release();
      return result;
    } catch (error) {
      // A connection that failed is closed rather than handed out again.
      client.release(isConnectionFailure(error));
      throw error;
    }
  };
  return {
    transaction: (kind, work) =>
      retrying(() => once(kind, work), {
        policy: options.retry,
        retryable: isConnectionFailure,
        onRetry: ({ retry, delayMs, error }) =>
          options.log(
            `teamlog postgres: a ${kind} transaction of the views failed (${options.describe(error)}); retry ${retry} in ${Math.round(delayMs)} ms`,
          ),
      }),
  };
};

/**
 * Transactions on one connection, one after another, never retried: the lead of a projection
 * commits on the connection that holds its lock, so a leader that lost it cannot commit.
 */
export const leasedViews = (client: Client): ViewsConnection => {
  let last: Promise<unknown> = Promise.resolve();
  return {
    transaction: (kind, work) => {
      const next = last.catch(() => undefined).then(() => inTransaction(client, kind, work));
      last = next;
      return next;
    },
  };
};
