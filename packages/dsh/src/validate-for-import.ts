import type { SessionId } from '@teamlog/events';
import { type EventStore, type EventToAppend, type RecordedEvent, sessionStream } from '@teamlog/store';
import { AppendChunker, type ChunkLimits } from './append-chunker';
import { jsonEqual } from './json-equal';
import { sameLogHead } from './same-log-head';
import { SinglePassBudget } from './single-pass-budget';
import { SessionLogRejected } from './session-log-errors';
import { fileChangedDuringImport } from './file-fate';
import {
  type SessionLogEvent,
  type SessionLogHead,
  type SessionLogSummary,
  scanLogFromHead,
} from './session-log-reader';
import { sessionEventIds } from './event-ids';
import { eventToAppendEncoder } from './stored-event-codec';

export interface ImportPlan {
  readonly summary: SessionLogSummary;
  /** Events of the session the store held before this import (compared with the file's). */
  readonly alreadyStored: number;
  /** The fingerprint of each chunk of the tail, in order. */
  readonly digests: readonly string[];
  /** The validated tail in chunks, when it fit the single-pass budget; otherwise the file is read again. */
  readonly buffered: Array<readonly EventToAppend[]> | undefined;
  /** Whether the events carry their line's `data` text (not for a store that ignores it). */
  readonly dataText: boolean;
}

export interface ValidationInput {
  readonly file: string;
  readonly key: SessionId;
  readonly head: SessionLogHead;
  readonly store: EventStore;
  readonly limits: ChunkLimits;
  readonly maxLineBytes: number | undefined;
  readonly maxJsonDepth: number | undefined;
  /** Estimated bytes the buffered tail may take (see single-pass-budget.ts); 0: never buffer. */
  readonly singlePassBytes: number;
  /** The size of a raw file (undefined for zstd), to project the tail's size early. */
  readonly fileBytes: number | undefined;
  /**
   * Stage each chunk of the tail as it is cut, in the same read (a unit that `stagesWhileValidating`):
   * nothing is buffered then, and a later rejection is the caller's to abort.
   */
  readonly stageChunk?: (events: readonly EventToAppend[], alreadyStored: number) => Promise<void>;
  /**
   * With `stageChunk`: stage a chunk in pieces of at most this many events, each as soon as it is
   * read, its boundaries kept (the unit's `StagedAppends.batchEvents`).
   */
  readonly stageEvery?: number;
  /** The file's chunks opened ahead of this read (log-prefetch.ts); read instead of opening the file. */
  readonly opened?: Promise<AsyncGenerator<Buffer>>;
}

const sameEvent = (stored: RecordedEvent, wanted: EventToAppend): boolean =>
  stored.id === wanted.id &&
  stored.type === wanted.type &&
  jsonEqual(stored.data, wanted.data) &&
  jsonEqual(stored.metadata, wanted.metadata);

/**
 * The validating read of an import: the whole file is read strictly, the prefix the store already
 * holds is compared event by event, and the tail is cut into the chunks it will be appended in,
 * each fingerprinted. While the tail fits `singlePassBytes` its events are kept, so they can be
 * appended without reading the file again; past the budget they are dropped (memory stays bounded)
 * and the caller reads the file a second time. Nothing is written here.
 */
export const validateForImport = async (input: ValidationInput): Promise<ImportPlan> => {
  const { file, key, head, store, limits, maxLineBytes, maxJsonDepth } = input;
  const stream = sessionStream(key);
  const revision = await store.streamRevision(stream);
  const alreadyStored = revision === undefined ? 0 : Number(revision) + 1;
  const stored = revision === undefined ? undefined : store.readStream(stream)[Symbol.asyncIterator]();
  const dataText = store.ignoresDataText !== true;
  const encode = eventToAppendEncoder(key, head.normalised, dataText);
  const chunker = new AppendChunker<EventToAppend>(limits, input.stageChunk === undefined);
  const digests: string[] = [];
  const { stageChunk } = input;
  const stageEvery = stageChunk === undefined ? undefined : input.stageEvery;
  const budget = new SinglePassBudget(stageChunk === undefined ? input.singlePassBytes : 0, input.fileBytes);
  let buffered: (readonly EventToAppend[])[] | undefined = stageChunk === undefined ? [] : undefined;
  const readOptions = {
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    ...(maxJsonDepth === undefined ? {} : { maxJsonDepth }),
    // A store that keeps no payload takes a packed row's members as the reader makes them, one object each.
    ...(dataText ? {} : { packedMemberIds: sessionEventIds(key) }),
  };
  const checkHead = (read: SessionLogHead): void => {
    if (!sameLogHead(read, head)) throw fileChangedDuringImport(file, 'its header differs from the first read');
  };
  const compare = async (event: SessionLogEvent): Promise<void> => {
    const next = await (stored as AsyncIterator<RecordedEvent>).next();
    if (next.done !== true && sameEvent(next.value, encode(event.event))) return;
    const was = next.done === true ? 'nothing' : `a ${next.value.type} event`;
    throw new SessionLogRejected(
      'prefix-mismatch',
      file,
      `the store already holds ${was} at seq ${event.event.seq} of session ${key}, which differs from this file's ${event.event.type} event; the already-imported prefix differs, so nothing was written`,
      { line: event.line },
    );
  };
  const keep = (event: SessionLogEvent): EventToAppend | undefined => {
    // The line's bytes only for a store that keeps the data text: a view of them is made on request.
    if (stageChunk !== undefined || budget.admit(event.line, event.lineLength))
      return encode(event.event, dataText ? event.lineBytes : undefined, event.catalogChecked);
    buffered = undefined; // over the budget: the tail will be read again
    return undefined;
  };
  try {
    const summary = await scanLogFromHead(
      file,
      checkHead,
      (event) => {
        if (event.event.seq < alreadyStored) return compare(event);
        const chunk = chunker.add(event.line, event, keep(event));
        if (chunk !== undefined) {
          digests.push(chunk.digest);
          buffered?.push(chunk.items);
          return stageChunk?.(chunk.items, alreadyStored);
        }
        // A piece of the chunk is staged now: its events are folded and dropped while young.
        if (stageEvery !== undefined && chunker.held >= stageEvery)
          return stageChunk?.(chunker.takeHeld(), alreadyStored);
        return undefined;
      },
      readOptions,
      input.opened,
    );
    const last = chunker.finish();
    if (last !== undefined) {
      digests.push(last.digest);
      buffered?.push(last.items);
      await stageChunk?.(last.items, alreadyStored);
    }
    return { summary, alreadyStored, digests, buffered, dataText };
  } finally {
    await stored?.return?.();
  }
};
