import type { EraRules } from './era-rules';
import { chunkType, evolveProjectionBatch } from './chunk-run-fold';
import { evolveProjection } from './evolve-projection';
import type { Projection } from './projection';
import {
  type ProjectionState,
  initialInMemoryProjectionState,
  initialOneShotProjectionState,
  initialProjectionState,
} from './projection-state';

/** Every teamlog view (teams, inboxes, legacy mailbox, audit facts) as one projection of `$all`. */
export const teamlogProjection: Projection<ProjectionState> = {
  name: 'teamlog-views',
  initial: initialProjectionState,
  evolve: evolveProjection,
  evolveBatch: evolveProjectionBatch,
  foldsRunEndsOf: chunkType,
};

/** The same projection for views kept only in this process (InMemoryViewStore): its Team maps track no changes. */
export const inMemoryProjection: Projection<ProjectionState> = {
  ...teamlogProjection,
  initial: initialInMemoryProjectionState,
};

/**
 * The same projection for views read once (a one-shot replay) and audited under `rules`: see
 * ProjectionState.keepsLegacyContent and recordFactsFor.
 */
export const oneShotProjection = (rules: EraRules): Projection<ProjectionState> => ({
  ...teamlogProjection,
  initial: () => initialOneShotProjectionState(rules),
});
