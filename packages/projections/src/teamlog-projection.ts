import { evolveProjection } from './evolve-projection';
import type { Projection } from './projection';
import { type ProjectionState, initialProjectionState } from './projection-state';

/** Every teamlog view (teams, inboxes, legacy mailbox, audit facts) as one projection of `$all`. */
export const teamlogProjection: Projection<ProjectionState> = {
  name: 'teamlog-views',
  initial: initialProjectionState,
  evolve: evolveProjection,
};
