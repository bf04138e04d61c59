import type { Client } from 'pg';
import { sleep } from '@teamlog/store';
import type { PostgresEventStore } from '../postgres-event-store';
import { errorCode } from '../connection-failure';
import { defaultProjectionName } from './postgres-view-store';
import { projectionLeadKey } from './projection-lock-keys';
import { type ViewsConnection, leasedViews } from './views-connection';

export interface ProjectionLeaseOptions {
  /** The projection to lead (default `teamlog-views`). */
  readonly projection?: string;
  /** How long one wait on the lock lasts before the waiter looks whether it was aborted (default 1000 ms). */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}

/** The server's lock_timeout error: the lead stayed taken for the whole wait. */
const lockNotAvailable = '55P03';

/*
 * The server ends a connection whose host vanished without closing it once its keep-alive probes
 * go unanswered (about 25 s with these, instead of the system's default two hours); the lead's
 * lock goes with it. Ignored on a Unix socket, where the server sees a dead process at once.
 */
const keepAliveSql = 'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3';

const endQuietly = async (client: Client): Promise<void> => {
  // pg's end() of a broken client may never settle: do not wait on it for long.
  await Promise.race([client.end().catch(() => undefined), sleep(1_000)]);
};

/**
 * The lead of one projection: a session-level advisory lock held by a connection of the runner's
 * own, the connection it also commits the views on. The server releases the lock when that
 * connection ends, whatever ended it: the runner giving it up, its process killed, its host gone.
 * A leader that lost its connection has lost the lead and cannot commit either.
 */
export class ProjectionLease {
  /** Transactions on the lease's own connection. */
  readonly views: ViewsConnection;
  private released = false;

  private constructor(
    private readonly client: Client,
    /** Settles when the connection ends or fails: from then on the lead is someone else's to take. */
    readonly lost: Promise<Error>,
  ) {
    this.views = leasedViews(client);
  }

  /** The lead if no other runner holds it now, else undefined (nothing held). */
  static async tryAcquire(
    store: PostgresEventStore,
    options: Omit<ProjectionLeaseOptions, 'pollMs' | 'signal'> = {},
  ): Promise<ProjectionLease | undefined> {
    const { client, lost } = await ProjectionLease.connect(store);
    try {
      const granted = await client.query<{ granted: boolean }>('SELECT pg_try_advisory_lock($1) AS granted', [
        projectionLeadKey(options.projection ?? defaultProjectionName),
      ]);
      if (granted.rows[0]?.granted === true) return new ProjectionLease(client, lost);
    } catch (error) {
      await endQuietly(client);
      throw error;
    }
    await endQuietly(client);
    return undefined;
  }

  /**
   * Wait for the lead: the server grants the lock the moment the connection holding it ends. Undefined when
   * the signal aborts first. A failed connection rejects (the caller decides whether to try again).
   */
  static async acquire(
    store: PostgresEventStore,
    options: ProjectionLeaseOptions = {},
  ): Promise<ProjectionLease | undefined> {
    const { client, lost } = await ProjectionLease.connect(store);
    const key = projectionLeadKey(options.projection ?? defaultProjectionName);
    try {
      await client.query(`SET lock_timeout = ${Math.max(1, Math.round(options.pollMs ?? 1_000))}`);
      while (options.signal?.aborted !== true) {
        try {
          await client.query('SELECT pg_advisory_lock($1)', [key]);
          await client.query('SET lock_timeout = 0');
          return new ProjectionLease(client, lost);
        } catch (error) {
          if (errorCode(error) !== lockNotAvailable) throw error;
        }
      }
    } catch (error) {
      await endQuietly(client);
      throw error;
    }
    await endQuietly(client);
    return undefined;
  }

  private static async connect(
    store: PostgresEventStore,
  ): Promise<{ readonly client: Client; readonly lost: Promise<Error> }> {
    const client = store.context.connection.connectClient('teamlog-projection-lead');
    const lost = new Promise<Error>((resolve) => {
      client.on('error', (error) => resolve(error));
      client.on('end', () => resolve(new Error('the connection holding the lead ended')));
    });
    try {
      await client.connect();
      await client.query(keepAliveSql);
    } catch (error) {
      await endQuietly(client);
      throw error;
    }
    return { client, lost };
  }

  /** Give the lead up: the connection ends, and with it the lock. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await endQuietly(this.client);
  }
}
