import type { CloseReason, MessageId, SessionId, TaskStatus, TeamId } from '@teamlog/events';
import type { Admission, InboxEntryStatus, SessionStatus } from '@teamlog/domain';

/** What `runDemo` returns: plain JSON, stable field names (the CLI prints it). */
export interface DemoSummary {
  readonly teamId: TeamId;
  readonly members: ReadonlyArray<{
    readonly name: string;
    readonly sessionId: SessionId;
    readonly status: SessionStatus;
    readonly closeReason?: CloseReason;
    readonly turns: number;
  }>;
  readonly tasks: ReadonlyArray<{
    readonly id: string;
    readonly subject: string;
    readonly status: TaskStatus;
    readonly revision: number;
    readonly owner?: string;
    readonly blockedBy: readonly string[];
  }>;
  /** Every accepted message, in acceptance order, with how it was delivered and where it ended. */
  readonly messages: ReadonlyArray<{
    readonly id: MessageId;
    readonly from: string;
    readonly to: string;
    readonly delivery: Admission['kind'];
    readonly outcome: InboxEntryStatus;
  }>;
  /** Sends that were refused (nothing written for them). */
  readonly rejected: ReadonlyArray<{
    readonly from: string;
    readonly to: string;
    readonly error: string;
    readonly message: string;
  }>;
  readonly leadSummary: string;
  readonly transcript: readonly string[];
}
