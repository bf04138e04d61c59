import type { OpenedStore } from './open-teamlog-store';

/**
 * Run an import with the store's views folded inline: brought up to the store's end first, then
 * folding what the import appends as it commits (in the same transaction on SQLite), so nothing
 * is read back afterwards. Where the store cannot fold inline, the views catch up afterwards.
 */
export const importWithViews = async <A>(opened: OpenedStore, importing: () => Promise<A>): Promise<A> => {
  const projections = await opened.projections();
  await projections.catchUp();
  const detach = projections.foldInline();
  try {
    return await importing();
  } finally {
    detach?.();
  }
};
