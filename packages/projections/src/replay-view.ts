import { type AuditFinding, readAudit } from './attribution-audit';
import { type EraRules, referenceEraRules } from './era-rules';
import { type InboxView, readInbox } from './inbox-view';
import type { ProjectionState } from './projection-state';
import { type TeamView, readTeams } from './team-view';
import { visibleState } from './visible-state';

/** The views `teamlog replay --json` prints beside the importer's `sessions`. */
export interface ReplayView {
  readonly teams: readonly TeamView[];
  readonly inbox: readonly InboxView[];
  readonly audit: readonly AuditFinding[];
}

export interface ReplayViewOptions {
  readonly eraRules?: EraRules;
}

/** Revoked sessions are left out of `teams` and `inbox` and listed by the audit (docs/rules.md#import-revoked). */
export const readReplayView = (state: ProjectionState, options: ReplayViewOptions = {}): ReplayView => {
  const visible = visibleState(state);
  return {
    teams: readTeams(visible),
    inbox: readInbox(visible),
    audit: readAudit(state, options.eraRules ?? referenceEraRules),
  };
};
