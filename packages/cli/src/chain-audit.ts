import {
  type ChainBreak,
  type EventStore,
  type StreamHead,
  checkLink,
  finishChainWalk,
  startChainWalk,
} from '@teamlog/store';

/** What `teamlog audit` found in the store's hash chains; `checked: false` for a store that keeps none. */
export interface ChainAudit {
  readonly checked: boolean;
  readonly streams: number;
  readonly events: number;
  readonly breaks: readonly ChainBreak[];
  readonly heads: readonly StreamHead[];
}

/** Recompute every stream's chain from the stored bytes, and compare with heads kept earlier. */
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
