import { EventStore } from '@teamlog/store';
import { TeamlogViews } from '@teamlog/projections';
import { AsOfParam } from './query-codecs';

/** What the API reads: the live views (or a fold as of a moment) and the store for single events. */
export interface ViewsSource {
  readonly store: EventStore;
  views(asOf?: AsOfParam): Promise<TeamlogViews>;
  /** The position of the last event the live views hold (`commit/prepare`); null before the first. */
  checkpoint(): string | null;
}
