import {
  InMemoryViewStore,
  TeamlogProjections,
  type TeamlogProjectionsOptions,
  clearChangesInMemory,
  teamlogProjection,
} from '@teamlog/projections';
import type { PostgresEventStore } from '../postgres-event-store';
import { postgresCommittedViews } from './postgres-committed-views';
import { PostgresViewStore, type PostgresViewStoreOptions } from './postgres-view-store';
import { ProjectionLease } from './projection-lease';
import { defaultProjectionName } from './postgres-view-store';
import { retakenLead } from './retaken-lead';

export type PostgresProjectionsOptions = TeamlogProjectionsOptions & Omit<PostgresViewStoreOptions, 'connection'>;

/** teamlog's views over a PostgreSQL store, for one run (a command): `release` when done. */
export interface PostgresProjections {
  readonly projections: TeamlogProjections;
  /**
   * True when this process took the projection's lead: its catch-ups commit the views into the
   * database. False when another runner leads: the committed views are read and newer events folded
   * in memory only (the leader writes them), so two runners never commit the same views.
   */
  readonly leading: boolean;
  /** Give up the lead, if held (a waiting ProjectionLeader then takes it). */
  readonly release: () => Promise<void>;
}

/**
 * teamlog's views in the PostgreSQL store's own database, when no other runner leads them (the lead
 * is taken without waiting and held until `release`); otherwise the committed views, read, with
 * newer events folded in memory.
 */
export const postgresProjections = async (
  store: PostgresEventStore,
  options: PostgresProjectionsOptions = {},
): Promise<PostgresProjections> => {
  const lease = await ProjectionLease.tryAcquire(store, options);
  if (lease === undefined) {
    const committed = await postgresCommittedViews(store, options).read();
    const views = new InMemoryViewStore(teamlogProjection, clearChangesInMemory, committed);
    return {
      projections: await TeamlogProjections.open(store, views, options),
      leading: false,
      release: () => Promise.resolve(),
    };
  }
  // A lead lost with its connection (a server restart) is taken again for the rest of the run.
  const lead = retakenLead(store, lease, options.projection ?? defaultProjectionName);
  try {
    const views = await PostgresViewStore.open(store, { ...options, connection: lead.views });
    return {
      projections: await TeamlogProjections.open(store, views, options),
      leading: true,
      release: () => lead.release(),
    };
  } catch (error) {
    await lead.release();
    throw error;
  }
};
