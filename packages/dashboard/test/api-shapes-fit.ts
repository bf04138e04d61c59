/*
 * Compile-time only (checked by `tsc -p tsconfig.test.json`): the server's answers must be assignable
 * to the shapes the browser code reads, so the page and the API cannot drift apart silently.
 */
import type { AuditFinding, LegacyMessage, SessionSummary, Team, TimelineItem, FailureRow, StoredEvent } from '../client/api-shapes';
import type { TeamView } from '@teamlog/projections';
import type { AuditRow } from '../src/audit-listing';
import type { EventDocument } from '../src/event-document';
import type { TimelineItem as ServerTimelineItem } from '../src/inbox-timeline';
import type { LegacyMailboxRow } from '../src/legacy-mailbox';
import type { SessionSummary as ServerSessionSummary } from '../src/session-list';
import type { TeamFailureRow } from '../src/team-failures';

export const fits = {
  team: (team: TeamView): Team => team,
  session: (session: ServerSessionSummary): SessionSummary => session,
  timeline: (item: ServerTimelineItem): TimelineItem => item,
  legacy: (row: LegacyMailboxRow): LegacyMessage => row,
  audit: (row: AuditRow): AuditFinding => row,
  event: (event: EventDocument): StoredEvent => event,
  failure: (row: TeamFailureRow): FailureRow => row,
};
