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
  readonly lead: { readonly id: string; readonly status: string };
  readonly members: readonly Member[];
  readonly tasks: readonly Task[];
  readonly failure: TeamFailure | null;
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

export interface OverviewAnswer extends Answer { readonly overview: Overview }
export interface TeamsAnswer extends Answer { readonly teams: readonly Team[] }
export interface SessionsAnswer extends Answer { readonly sessions: readonly SessionSummary[] }
export interface InboxAnswer extends Answer { readonly sessionId: string; readonly timeline: readonly TimelineItem[] }
export interface LegacyMailboxAnswer extends Answer { readonly messages: readonly LegacyMessage[] }
export interface AuditAnswer extends Answer { readonly findings: readonly AuditFinding[] }
export interface FailuresAnswer extends Answer { readonly failures: readonly FailureRow[] }
export interface EventAnswer extends Answer { readonly event: StoredEvent }
