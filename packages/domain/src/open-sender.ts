import { Either, left, right } from 'fp-ts/Either';
import { SessionId } from '@teamlog/events';
import { SenderClosed } from './send-rejection';
import { SenderClosure } from './sender-closure';

/**
 * A session sends while it is not closed. A closed session (killed, cancelled, lost, failed) can
 * still hold a handle in its host; what that handle sends is refused, so no message is attributed
 * to a session after its end.
 */
export const openSender = (sessionId: SessionId, sender: SenderClosure): Either<SenderClosed, SessionId> =>
  sender.closed === undefined ? right(sessionId) : left(new SenderClosed(sessionId, sender.closed));
