import { isLeft } from 'fp-ts/Either';
import { SessionHeaderRecord, type SessionId, decodeWith } from '@teamlog/events';
import { type EventStore, sessionHeaderStream } from '@teamlog/store';
import { badInput } from './cli-errors';

/** The header record an import stored for a session; a session the store does not hold is bad input. */
export const storedSessionHeader = async (
  store: EventStore,
  sessionId: SessionId,
): Promise<{ readonly formatVersion: number }> => {
  const stream = sessionHeaderStream(sessionId);
  if ((await store.streamRevision(stream)) === undefined)
    throw badInput(`no session "${sessionId}" in the store (stream ${stream} is empty)`);
  // The latest record: a log the harness migrated carries one per generation imported.
  for await (const event of store.readStream(stream, { from: 'end', direction: 'backwards', maxCount: 1 })) {
    const decoded = decodeWith(SessionHeaderRecord, 'data')(event.data);
    if (isLeft(decoded))
      throw badInput(`the stored header of session "${sessionId}" is unreadable: ${decoded.left.message}`);
    return decoded.right;
  }
  throw badInput(`no session "${sessionId}" in the store`);
};
