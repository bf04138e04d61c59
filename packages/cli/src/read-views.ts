import type { AsOf, TeamlogViews } from '@teamlog/projections';
import { formatPosition } from '@teamlog/store';
import type { OpenedStore } from './open-teamlog-store';

export interface ReadViews {
  readonly views: TeamlogViews;
  /** The position the store's views reached (`commit/prepare`), null for an empty store. */
  readonly position: string | null;
}

/** Bring the views up to the end of the store, then read them now or as of a moment. */
export const readViews = async (opened: OpenedStore, asOf: AsOf | undefined): Promise<ReadViews> => {
  const projections = await opened.projections();
  await projections.catchUp();
  const checkpoint = projections.checkpoint;
  const views = asOf === undefined ? projections.views() : await projections.viewsAsOf(asOf);
  return { views, position: checkpoint === undefined ? null : formatPosition(checkpoint) };
};
