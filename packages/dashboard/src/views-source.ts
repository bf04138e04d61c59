import type { EventStore } from '@teamlog/store';
import type { TeamView } from '@teamlog/projections';
import type { ChainFindingsAnswer } from './chain-findings';
import type { SeqBase } from './event-document';
import type { MemoizedViews } from './memoized-views';
import type { AsOfParam } from './query-codecs';
import type { TeamMoment } from './team-moments';

/** What the API reads: the live views (or a fold as of a moment) and the store for single events. */
export interface ViewsSource {
  readonly store: EventStore;
  views(asOf?: AsOfParam): Promise<MemoizedViews>;
  /** The position of the last event the live views hold (`commit/prepare`); null before the first. */
  checkpoint(): string | null;
  /** The team's history for the time control, read from the store once (then only the new events). */
  teamMoments(team: TeamView): Promise<TeamMoment[]>;
  /** The hash chains recomputed from the stored bytes (chain-findings.ts), breaks linked at the seqs `baseOf` counts. */
  chains(baseOf?: SeqBase): Promise<ChainFindingsAnswer>;
}
