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
};

/** The same projection for views kept only in this process (InMemoryViewStore): its Team maps track no changes. */
export const inMemoryProjection: Projection<ProjectionState> = {
  ...teamlogProjection,
  initial: initialInMemoryProjectionState,
};

/** The same projection for views read once (a one-shot replay): see ProjectionState.keepsLegacyContent. */
export const oneShotProjection: Projection<ProjectionState> = {
  ...teamlogProjection,
  initial: initialOneShotProjectionState,
};
