import type { SessionId, StreamEvent } from '@teamlog/events';

/** One event of a session stream as the views fold it: the stream event (seq = stream revision), whose session, and when. */
export type SessionEvent = StreamEvent & {
  readonly sessionId: SessionId;
  readonly time: number;
  readonly normalised: boolean;
};
