/*
 * Compile-time only (checked by `tsc -p tsconfig.test.json`): the server's answers must be assignable
 * to the shapes the browser code reads, so the page and the API cannot drift apart silently.
 */
import type {
  AuditFinding,
  ConversationItem,
  FailureRow,
  FlowMessage,
  LegacyMessage,
  Moment,
  SessionSummary,
  StoredEvent,
  Team,
  TimelineItem,
} from '../client/api-shapes';
import type { ConversationItem as ServerConversationItem } from '../src/conversation';
import type { FlowMessageWithText } from '../src/message-texts';
import type { TeamWithActivity } from '../src/team-activity';
import type { TeamMoment } from '../src/team-moments';
import type { AuditRow } from '../src/audit-listing';
import type { EventDocument } from '../src/event-document';
import type { TimelineItem as ServerTimelineItem } from '../src/inbox-timeline';
import type { LegacyMailboxRow } from '../src/legacy-mailbox';
import type { SessionSummary as ServerSessionSummary } from '../src/session-list';
import type { TeamFailureRow } from '../src/team-failures';

export const fits = {
  team: (team: TeamWithActivity): Team => team,
  conversation: (item: ServerConversationItem): ConversationItem => item,
  moment: (moment: TeamMoment): Moment => moment,
  flowMessage: (message: FlowMessageWithText): FlowMessage => message,
  session: (session: ServerSessionSummary): SessionSummary => session,
  timeline: (item: ServerTimelineItem): TimelineItem => item,
  legacy: (row: LegacyMailboxRow): LegacyMessage => row,
  audit: (row: AuditRow): AuditFinding => row,
  event: (event: EventDocument): StoredEvent => event,
  failure: (row: TeamFailureRow): FailureRow => row,
};
