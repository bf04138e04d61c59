import type { SessionId } from '@teamlog/events';
import { type EventToAppend, type StagedAppends, sessionStream } from '@teamlog/store';
import { AppendChunker, type Chunk, type ChunkLimits, chunkLineOf } from './append-chunker';
import { ChunkStager } from './chunk-stager';
import { sameLogHead } from './same-log-head';
import type { SessionLogRejected } from './session-log-errors';
import { fileChangedDuringImport } from './file-fate';
import { type SessionLogHead, scanFingerprintedLog } from './session-log-reader';
import { eventToAppendEncoder } from './stored-event-codec';
import type { ImportPlan } from './validate-for-import';

export interface SecondReadInput {
  readonly file: string;
  readonly key: SessionId;
  /** The header the validating read saw. */
  readonly head: SessionLogHead;
  readonly unit: StagedAppends;
  readonly plan: ImportPlan;
  readonly limits: ChunkLimits;
  readonly maxLineBytes: number | undefined;
  readonly maxJsonDepth: number | undefined;
}

/**
 * The writing read of a two-pass import (a tail too large to keep from the validating read): read
 * the file again and stage the tail chunk by chunk into the import's unit. Catalog payloads are not decoded strictly
 * again: each chunk's fingerprint must equal the validated one before it is appended, and the
 * header (which decides how lines decode) must be the validated one, so every appended event
 * comes from lines the strict read accepted. A file changed in between is refused at the first
 * chunk that differs, or when it now ends early; the unit is then dropped, nothing is written.
 */
export const stageFromSecondRead = async (input: SecondReadInput): Promise<number> => {
  const { file, key, head, unit, plan, limits, maxLineBytes, maxJsonDepth } = input;
  const stager = new ChunkStager(unit, sessionStream(key), plan.alreadyStored);
  const encode = eventToAppendEncoder(key, head.normalised, plan.dataText);
  const chunker = new AppendChunker<EventToAppend>(limits);
  let chunkIndex = 0;
  const changed = (how: string): SessionLogRejected => fileChangedDuringImport(file, how);
  const write = async (chunk: Chunk<EventToAppend>): Promise<void> => {
    if (chunk.digest !== plan.digests[chunkIndex])
      throw changed(`chunk ${chunkIndex + 1} differs from the validated read`);
    chunkIndex += 1;
    await stager.stage(chunk.items);
  };
  const checkHead = (now: SessionLogHead): void => {
    if (!sameLogHead(now, head)) throw changed('its header differs from the validated read');
  };
  await scanFingerprintedLog(
    file,
    checkHead,
    (visited) => {
      const { event, line, catalogChecked } = visited;
      if (event.seq < plan.alreadyStored) return undefined;
      const lineBytes = visited.lineBytes;
      const chunk = chunker.add(line, chunkLineOf(lineBytes), encode(event, lineBytes, catalogChecked));
      return chunk === undefined ? undefined : write(chunk);
    },
    {
      maxEvents: plan.summary.events,
      trustedTeamRecords: plan.summary.invalidTeamRecords.length === 0,
      ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
      ...(maxJsonDepth === undefined ? {} : { maxJsonDepth }),
    },
  );
  const last = chunker.finish();
  if (last !== undefined) await write(last);
  if (chunkIndex !== plan.digests.length) throw changed('it now holds fewer events than the validated read');
  return stager.staged;
};
