import { SessionId } from '@teamlog/events';

/** One event of a session stream, as the views fold it. */
export interface SessionEvent {
  readonly sessionId: SessionId;
  /** The stream revision, which is the session log's seq. */
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
  readonly time: number;
  readonly normalised: boolean;
}
