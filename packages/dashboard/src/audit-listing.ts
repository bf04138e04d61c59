import type { SessionId, TeamId } from '@teamlog/events';
import { type AuditCode, type AuditFinding, auditExplanations } from '@teamlog/projections';
import { eventPath } from './event-document';

export interface AuditRow extends AuditFinding {
  /** The event that shows the finding (the session's header for seq -1). */
  readonly eventUrl: string;
  /** What the code means, in one sentence. */
  readonly explanation: string;
}

export interface AuditFilter {
  readonly code?: AuditCode;
  readonly sessionId?: SessionId;
  readonly teamId?: TeamId;
  /** With `teamId`: the team's sessions, so a finding that names no team counts for the team of its session. */
  readonly teamSessions?: ReadonlySet<SessionId>;
}

export const auditListing = (findings: readonly AuditFinding[], filter: AuditFilter = {}): AuditRow[] =>
  findings
    .filter((finding) => filter.code === undefined || finding.code === filter.code)
    .filter((finding) => filter.sessionId === undefined || finding.sessionId === filter.sessionId)
    .filter(
      (finding) =>
        filter.teamId === undefined ||
        finding.teamId === filter.teamId ||
        (finding.teamId === undefined && filter.teamSessions?.has(finding.sessionId) === true),
    )
    .map((finding) => ({
      ...finding,
      eventUrl: eventPath(finding.sessionId, finding.seq),
      explanation: auditExplanations[finding.code],
    }));
