import { type ChainBreak, type StreamHead, checkLink, finishChainWalk, startChainWalk } from './chain-check';
import type { EventStore } from './event-store';

/** What the store's hash chains show; `checked: false` for a store that keeps none. */
export interface ChainAudit {
  readonly checked: boolean;
  readonly streams: number;
  readonly events: number;
  readonly breaks: readonly ChainBreak[];
  readonly heads: readonly StreamHead[];
}

/**
 * Recompute every stream's chain from the stored bytes, and compare with heads kept earlier
 * (`teamlog audit`, the dashboard's audit panel). Reads every stored event once.
 */
export const auditChains = async (store: EventStore, kept: readonly StreamHead[] = []): Promise<ChainAudit> => {
  if (store.readStoredLinks === undefined) return { checked: false, streams: 0, events: 0, breaks: [], heads: [] };
  const walk = startChainWalk(kept);
  let events = 0;
  for await (const link of store.readStoredLinks()) {
    checkLink(walk, link);
    events += 1;
  }
  const { breaks, heads } = finishChainWalk(walk);
  return { checked: true, streams: heads.length, events, breaks, heads };
};
