import { ProjectionError } from '@teamlog/projections';
import { retrying } from '@teamlog/store';
import { isConnectionFailure } from '../connection-failure';
import type { PostgresEventStore } from '../postgres-event-store';
import { ProjectionLease } from './projection-lease';
import type { ViewsConnection } from './views-connection';

export interface RetakenLead {
  readonly views: ViewsConnection;
  readonly release: () => Promise<void>;
}

/**
 * The lead of one command's run (replay, watch, serve --follow): when its connection is lost (a
 * server restart), the transaction waits with the store's retry policy, takes the lead again on a
 * new connection and runs again. Safe for commits: one whose reply was lost finds its own
 * checkpoint when run again and writes nothing (ViewsChangedElsewhere, and the runner reloads), and
 * a lead another runner took meanwhile is never shared (ProjectionLeadTaken).
 */
export const retakenLead = (store: PostgresEventStore, first: ProjectionLease, projection: string): RetakenLead => {
  let lease: Promise<ProjectionLease> | undefined = Promise.resolve(first);
  let released = false;
  const { retry, log } = store.context;
  const take = async (): Promise<ProjectionLease> => {
    const taken = await ProjectionLease.tryAcquire(store, { projection });
    if (taken === undefined) throw new ProjectionError({ code: 'ProjectionLeadTaken', projection });
    return taken;
  };
  const once = async <A>(run: (lease: ProjectionLease) => Promise<A>): Promise<A> => {
    const current = (lease ??= take());
    let held: ProjectionLease | undefined;
    try {
      held = await current;
      return await run(held);
    } catch (error) {
      if (isConnectionFailure(error) && lease === current) {
        lease = undefined;
        await held?.release();
      }
      throw error;
    }
  };
  return {
    views: {
      transaction: (kind, work) =>
        retrying(() => once((held) => held.views.transaction(kind, work)), {
          policy: retry,
          retryable: isConnectionFailure,
          stopped: () => released,
          onRetry: ({ retry: attempt, delayMs, error }) =>
            log(
              `teamlog postgres: projection ${projection}: the lead's connection failed (${store.context.connection.redact(error instanceof Error ? error.message : String(error))}); retry ${attempt} in ${Math.round(delayMs)} ms`,
            ),
        }),
    },
    release: async () => {
      released = true;
      const current = lease;
      lease = undefined;
      await (await current?.catch(() => undefined))?.release();
    },
  };
};
