import { performance } from 'node:perf_hooks';
import { TeamlogProjections } from '@teamlog/projections';
import { PostgresViewStore, openPostgresStore } from '@teamlog/store-postgres';
import type { AppendMeasurement } from './postgres-append-case';

/**
 * A catch-up of teamlog's views from the start of `$all` on a database already holding the corpus:
 * into PostgresViewStore (views and checkpoint written in the same database, emptied first and not
 * timed), or the same fold kept in memory (the baseline: the same reads, no writes).
 */
export const measurePostgresViews = async (url: string, views: 'memory' | 'postgres'): Promise<AppendMeasurement> => {
  const store = await openPostgresStore(url);
  try {
    let viewStore: PostgresViewStore | undefined;
    if (views === 'postgres') {
      viewStore = await PostgresViewStore.open(store);
      await viewStore.reset();
    }
    const projections =
      viewStore === undefined
        ? await TeamlogProjections.inMemory(store)
        : await TeamlogProjections.open(store, viewStore);
    const started = performance.now();
    const count = await projections.catchUp();
    const elapsedMs = performance.now() - started;
    const state = projections.views().state;
    return {
      elapsedMs,
      count,
      detail: { views, teams: state.teams.size, sessions: state.sessions.size, inboxes: state.inboxes.size },
    };
  } finally {
    await store.close();
  }
};
