import { AuditFinding, readAudit } from './attribution-audit';
import { EraRules, referenceEraRules } from './era-rules';
import { InboxView, readInbox } from './inbox-view';
import { ProjectionState } from './projection-state';
import { TeamView, readTeams } from './team-view';

/** The views `teamlog replay --json` prints beside the importer's `sessions`. */
export interface ReplayView {
  readonly teams: readonly TeamView[];
  readonly inbox: readonly InboxView[];
  readonly audit: readonly AuditFinding[];
}

export interface ReplayViewOptions {
  readonly eraRules?: EraRules;
}

export const readReplayView = (state: ProjectionState, options: ReplayViewOptions = {}): ReplayView => ({
  teams: readTeams(state),
  inbox: readInbox(state),
  audit: readAudit(state, options.eraRules ?? referenceEraRules),
});
