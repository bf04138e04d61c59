/*
 * The JSON the dashboard API answers, as the page reads it. The server's types are the source of
 * truth; packages/dashboard/test/api-shapes-fit.ts fails to type-check when these drift from them.
 */

export interface Answer {
  readonly checkpoint: string | null;
  readonly asOf?: string;
}

export interface Overview {
  readonly sessions: number;
  readonly teams: number;
  readonly inboxEntries: number;
  readonly auditFindings: number;
  readonly legacyMessages: number;
  readonly undeliveredLegacyMessages: number;
  readonly failedTeams: number;
}

export interface Member {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly provider: string;
  readonly context: string;
  readonly phase: string;
  readonly error?: string;
  readonly status: string;
}

export interface Task {
  readonly id: string;
  readonly revision: number;
  readonly subject: string;
  readonly description: string;
  readonly status: 'pending' | 'in_progress' | 'completed' | 'deleted';
  readonly ownerId?: string;
  readonly blockedBy: readonly string[];
  readonly writeScopes: readonly string[];
}

export interface TeamFailure {
  readonly seq: number;
  readonly type: string;
  readonly reason: string;
}

export interface Team {
  readonly teamId: string;
  /** The readable name the engine recorded; absent for historical logs. */
  readonly name?: string;
  /** The latest event time of the team's sessions (epoch ms), or null. */
  readonly lastActive: number | null;
  readonly lead: { readonly id: string; readonly status: string };
  readonly members: readonly Member[];
  /** Only when one team was asked for (`/api/teams?teamId=`). */
  readonly tasks?: readonly Task[];
  readonly taskCount: number;
  readonly failure: TeamFailure | null;
  /** How many legacy mailbox records the team has (`/api/legacy-mailbox` lists them). */
  readonly legacyMessageCount: number;
}

export interface SessionSummary {
  readonly id: string;
  readonly status: string;
  readonly teamId?: string;
  readonly name?: string;
  readonly inboxEntries: number;
  readonly pending: number;
}

export interface TimelineItem {
  readonly seq: number;
  readonly kind: 'accepted' | 'claimed' | 'canceled';
  readonly messageId: string;
  readonly sourceKind: string;
  readonly senderSessionId?: string;
  readonly senderName?: string;
  readonly list?: string;
  readonly time?: number;
}

export interface LegacyMessage {
  readonly id: string;
  readonly teamId: string;
  readonly senderId: string;
  readonly senderName: string;
  readonly targetId: string;
  readonly targetName: string;
  readonly delivery?: string;
  readonly queuedSeq: number;
  readonly status: 'delivered' | 'undelivered';
  readonly deliveredSeq?: number;
  readonly targetHasMessage?: boolean;
  readonly recordVersion: number;
  readonly eventUrl: string;
  readonly text?: string;
}

export interface AuditFinding {
  readonly code: string;
  readonly sessionId: string;
  readonly seq: number;
  readonly messageId?: string;
  readonly detail: string;
  readonly teamId?: string;
  readonly eventUrl: string;
  readonly explanation: string;
}

/** One stream's first hash-chain break (`/api/chains`). */
export interface ChainRow {
  readonly code: string;
  readonly streamName: string;
  readonly revision: string;
  readonly detail: string;
  readonly explanation: string;
  readonly sessionId?: string;
  readonly eventUrl?: string;
}

export interface StoredEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly streamName: string;
  readonly position: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

export interface FailureRow {
  readonly teamId: string;
  readonly failure: TeamFailure;
  readonly record: StoredEvent | null;
  readonly eventUrl: string;
}

export interface ConversationItem {
  readonly seq: number;
  readonly kind:
    | 'user'
    | 'assistant'
    | 'reasoning'
    | 'tool-call'
    | 'tool-result'
    | 'team-message'
    | 'legacy-mailbox'
    | 'turn'
    | 'lifecycle';
  readonly author: string;
  readonly text: string;
  readonly time?: number;
  readonly messageId?: string;
  readonly senderSessionId?: string;
  readonly target?: string;
  readonly delivery?: string;
  readonly status?: string;
  readonly isError?: boolean;
}

export interface Moment {
  readonly position: string;
  readonly time: number;
  readonly sessionId: string;
  readonly seq: number;
  readonly type: string;
}

export interface FlowMessage {
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly senderName?: string;
  readonly via: 'inbox' | 'legacy-mailbox';
  readonly sourceKind: string;
  readonly status: string;
  readonly time: number;
  readonly recordedIn: string;
  readonly seq: number;
  readonly text?: string;
}

export interface FlowParticipant {
  readonly id: string;
  readonly name: string;
  readonly role: 'lead' | 'member' | 'outside';
}

export interface OverviewAnswer extends Answer {
  readonly overview: Overview;
}
export interface TeamsAnswer extends Answer {
  readonly teams: readonly Team[];
}
export interface SessionsAnswer extends Answer {
  readonly sessions: readonly SessionSummary[];
}
export interface InboxAnswer extends Answer {
  readonly sessionId: string;
  readonly timeline: readonly TimelineItem[];
}
export interface LegacyMailboxAnswer extends Answer {
  /** One page (200, or `limit` up to 1,000, from `offset`). */
  readonly messages: readonly LegacyMessage[];
  /** The rows the filter matches in all. */
  readonly total: number;
  readonly nextOffset?: number;
}
export interface AuditAnswer extends Answer {
  readonly findings: readonly AuditFinding[];
}
export interface ChainsAnswer extends Answer {
  /** False: the store keeps no hash chains. */
  readonly checked: boolean;
  readonly streams: number;
  readonly events: number;
  readonly findings: readonly ChainRow[];
}
export interface FailuresAnswer extends Answer {
  readonly failures: readonly FailureRow[];
}
export interface EventAnswer extends Answer {
  readonly event: StoredEvent;
}
export interface ConversationAnswer extends Answer {
  readonly sessionId: string;
  readonly items: readonly ConversationItem[];
  readonly nextSeq?: number;
}
export interface MomentsAnswer extends Answer {
  readonly teamId: string;
  readonly moments: readonly Moment[];
}
export interface FlowAnswer extends Answer {
  readonly flow: {
    readonly teamId: string;
    readonly participants: readonly FlowParticipant[];
    readonly messages: readonly FlowMessage[];
  };
}
