import type { ProjectionState } from './projection-state';
import type { LoadedViews } from './view-store';

/**
 * Views another process committed into a store's own database, read without writing, so a reader
 * (the dashboard) can start from them and fold only the newer events. Undefined when there are
 * none to start from. Each store adapter that keeps views offers one; the reader never asks which
 * store it is.
 */
export interface CommittedViewsReader {
  read(): Promise<LoadedViews<ProjectionState> | undefined>;
}
