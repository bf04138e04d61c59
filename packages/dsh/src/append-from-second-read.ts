import { SessionId } from '@teamlog/events';
import { EventStore, EventToAppend, sessionStream } from '@teamlog/store';
import { AppendChunker, Chunk, ChunkLimits } from './append-chunker';
import { ChunkAppender } from './chunk-appender';
import { sameLogHead } from './same-log-head';
import { SessionLogRejected } from './session-log-errors';
import { SessionLogHead, scanFingerprintedLog } from './session-log-reader';
import { eventToAppendEncoder } from './stored-event-codec';
import { ImportPlan } from './validate-for-import';

export interface SecondReadInput {
  readonly file: string;
  readonly key: SessionId;
  /** The header the validating read saw. */
  readonly head: SessionLogHead;
  readonly store: EventStore;
  readonly plan: ImportPlan;
  readonly limits: ChunkLimits;
  readonly maxLineBytes: number | undefined;
}

/**
 * The writing read of a two-pass import (a tail too large to keep from the validating read): read
 * the file again and append the tail chunk by chunk. Catalog payloads are not decoded strictly
 * again: each chunk's fingerprint must equal the validated one before it is appended, and the
 * header (which decides how lines decode) must be the validated one, so every appended event
 * comes from lines the strict read accepted. A file changed in between is refused at the first
 * chunk that differs, or when it now ends early; the chunks before it are a valid prefix.
 */
export const appendFromSecondRead = async (input: SecondReadInput): Promise<number> => {
  const { file, key, head, store, plan, limits, maxLineBytes } = input;
  const appender = new ChunkAppender(store, sessionStream(key), plan.alreadyStored);
  const encode = eventToAppendEncoder(key, head.normalised);
  const chunker = new AppendChunker<EventToAppend>(limits);
  let chunkIndex = 0;
  const changed = (how: string): SessionLogRejected =>
    new SessionLogRejected('unreadable', file, `the file changed while it was imported (${how}); ${appender.appended} events were appended, a valid prefix the next import completes`);
  const write = async (chunk: Chunk<EventToAppend>): Promise<void> => {
    if (chunk.digest !== plan.digests[chunkIndex]) throw changed(`chunk ${chunkIndex + 1} differs from the validated read`);
    chunkIndex += 1;
    await appender.append(chunk.items);
  };
  const checkHead = (now: SessionLogHead): void => {
    if (!sameLogHead(now, head)) throw changed('its header differs from the validated read');
  };
  await scanFingerprintedLog(
    file,
    checkHead,
    ({ event, line, lineBytes }) => {
      if (event.seq < plan.alreadyStored) return undefined;
      const chunk = chunker.add(line, lineBytes, encode(event));
      return chunk === undefined ? undefined : write(chunk);
    },
    { maxEvents: plan.summary.events, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) },
  );
  const last = chunker.finish();
  if (last !== undefined) await write(last);
  if (chunkIndex !== plan.digests.length) throw changed('it now holds fewer events than the validated read');
  return appender.appended;
};
