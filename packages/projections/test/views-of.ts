import type { EventStore } from '@teamlog/store';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';

/** Fold everything the store holds into in-memory views. */
export const viewsOf = async (store: EventStore): Promise<TeamlogViews> => {
  const projections = await TeamlogProjections.inMemory(store);
  await projections.catchUp();
  return projections.views();
};
