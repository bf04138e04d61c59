import { isLeft } from 'fp-ts/Either';
import {
  type ImportSuperseded,
  ImportSuperseded as ImportSupersededCodec,
  type SessionHeaderRecord,
  SessionHeaderRecord as SessionHeaderRecordCodec,
  type SessionId,
  decodeWith,
} from '@teamlog/events';
import {
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
  sessionHeaderStream,
  sessionStream,
  isStoreError,
} from '@teamlog/store';
import { ChunkStager } from './chunk-stager';
import { importSupersededEventId, sessionHeaderGenerationEventId, supersedingEventIdsKey } from './event-ids';
import { rejectionOf } from './file-fate';
import { jsonEqual } from './json-equal';
import type { FileImportResult } from './session-importer';
import { SessionLogRejected } from './session-log-errors';
import { SessionLogReader } from './session-log-reader';
import { sameLog } from './same-log';
import { eventToAppendEncoder } from './stored-event-codec';
import { headerEventType, readLatestHeader } from './stored-header';

export const importSupersededType = 'teamlog/import/superseded';

const decodeHeader = decodeWith(SessionHeaderRecordCodec, 'data');
const decodeSuperseded = decodeWith(ImportSupersededCodec, 'data');

/** What a superseding import needs beside the file. */
export interface SupersessionInput {
  readonly file: string;
  readonly store: EventStore;
  /** The session stream's id (as the importer's refusal named it). */
  readonly key: SessionId;
  /** The file as header records name it. */
  readonly recordedFile: string;
  readonly maxLineBytes?: number;
  readonly maxJsonDepth?: number;
  readonly batchEvents?: number;
}

/** A later generation imported after the record that supersedes the earlier import. */
export interface SupersedingImport {
  readonly result: FileImportResult;
  /** The revision the generation's seq 0 is stored at. */
  readonly base: number;
  /** The supersession record was written by this import (not by an earlier one this resumes). */
  readonly fresh: boolean;
}

/** The stream's last supersession record, with its revision. */
const lastSupersession = async (
  store: EventStore,
  key: SessionId,
): Promise<{ readonly revision: number; readonly record: ImportSuperseded } | undefined> => {
  if ((await store.streamRevision(sessionStream(key))) === undefined) return undefined;
  for await (const event of store.readStream(sessionStream(key), { from: 'end', direction: 'backwards' })) {
    if (event.type !== importSupersededType) continue;
    const record = decodeSuperseded(event.data);
    return isLeft(record) ? undefined : { revision: Number(event.revision), record: record.right };
  }
  return undefined;
};

/** The generation of the session's first import: the first header record's. */
const firstGeneration = async (store: EventStore, key: SessionId): Promise<number | undefined> => {
  for await (const event of store.readStream(sessionHeaderStream(key), { maxCount: 1 })) {
    const record = decodeHeader(event.data);
    return isLeft(record) ? undefined : record.right.formatVersion;
  }
  return undefined;
};

const sameEvent = (stored: RecordedEvent, wanted: EventToAppend): boolean =>
  stored.id === wanted.id &&
  stored.type === wanted.type &&
  jsonEqual(stored.data, wanted.data) &&
  jsonEqual(stored.metadata, wanted.metadata);

const resultOf = (
  input: SupersessionInput,
  reader: SessionLogReader,
  fields: Pick<
    FileImportResult,
    | 'events'
    | 'appended'
    | 'alreadyStored'
    | 'recovery'
    | 'unknownTypes'
    | 'inheritedCount'
    | 'legacyShapes'
    | 'invalidTeamRecords'
  > & { readonly rejected?: FileImportResult['rejected'] },
  scope: string | undefined,
): FileImportResult => ({
  file: input.file,
  sessionId: reader.head.sessionId,
  streamSessionId: input.key,
  formatVersion: reader.head.formatVersion,
  normalised: reader.head.normalised,
  ...(scope === undefined ? {} : { scope }),
  ...fields,
});

/**
 * A followed log's later generation that renumbered its seqs, when the importer refused it
 * because it does not line up with the stored lower generation (docs/rules.md#import-superseded).
 * A one-shot replay of the final files reads only the highest generation, so the follower ends
 * where it ends: it appends `teamlog/import/superseded` (naming both files) after the stored
 * events and then the later generation's events, seq 0 at the revision after the record, in one
 * unit with the generation's header record; the views fold the session from the record on. A
 * later look at the same file (it grew, or a restart) finds the record, compares what is stored
 * after it and appends the rest. Undefined when the store's session is not a lower generation of
 * this log (another log, or a higher generation): the refusal stands. The file is read strictly,
 * so a verdict on its bytes is a rejection like the importer's.
 */
export const importSupersedingGeneration = async (input: SupersessionInput): Promise<SupersedingImport | undefined> => {
  const { file, store, key, recordedFile } = input;
  const storedHeader = await readLatestHeader(store, sessionHeaderStream(key));
  if (storedHeader === undefined) return undefined;
  const stored = decodeHeader(storedHeader.data);
  if (isLeft(stored) || stored.right.file === undefined || !sameLog(stored.right.file, recordedFile)) return undefined;
  const readOptions = {
    ...(input.maxLineBytes === undefined ? {} : { maxLineBytes: input.maxLineBytes }),
    ...(input.maxJsonDepth === undefined ? {} : { maxJsonDepth: input.maxJsonDepth }),
  };
  let reader: SessionLogReader;
  try {
    reader = await SessionLogReader.open(file, readOptions);
  } catch {
    return undefined; // what the importer said about the file stands
  }
  const { head } = reader;
  const storedVersion = stored.right.formatVersion;
  if (head.formatVersion < storedVersion) return undefined;
  const scope = stored.right.scope;
  const stream = sessionStream(key);
  const last = await lastSupersession(store, key);
  const resumes =
    last !== undefined && last.record.by === recordedFile && last.record.formatVersion === head.formatVersion;
  // Only a higher generation than the one whose events the stream holds supersedes them: the same
  // generation with other content (a replaced file) is refused as before.
  const heldGeneration = last === undefined ? await firstGeneration(store, key) : last.record.formatVersion;
  if (!resumes && (heldGeneration === undefined || head.formatVersion <= heldGeneration)) return undefined;
  const recordAt = resumes ? last.revision : undefined;
  // Its own header stored last: the harness wrote it beside the stored one and its first events lined up.
  const needsHeader = head.formatVersion !== storedVersion || stored.right.file !== recordedFile;
  const revision = await store.streamRevision(stream);
  const count = revision === undefined ? 0 : Number(revision) + 1;
  const fresh = recordAt === undefined;
  const base = fresh ? count + 1 : recordAt + 1;
  const alreadyStored = fresh ? 0 : count - base;
  const encode = eventToAppendEncoder(supersedingEventIdsKey(key, head.formatVersion), head.normalised);
  const storedEvents =
    alreadyStored > 0 ? store.readStream(stream, { from: BigInt(base) })[Symbol.asyncIterator]() : undefined;
  const unit = store.stageAppends();
  try {
    if (needsHeader) {
      const record: SessionHeaderRecord = {
        header: head.rawHeader,
        formatVersion: head.formatVersion,
        file: recordedFile,
        ...(head.normalised ? { normalised: true } : {}),
        ...(scope === undefined ? {} : { scope }),
      };
      await unit.append(
        sessionHeaderStream(key),
        [{ id: sessionHeaderGenerationEventId(key, head.formatVersion), type: headerEventType, data: record }],
        { expectedRevision: storedHeader.revision },
      );
    }
    if (fresh) {
      const data: ImportSuperseded = {
        file: stored.right.file,
        by: recordedFile,
        formatVersion: head.formatVersion as ImportSuperseded['formatVersion'],
      };
      await unit.append(stream, [{ id: importSupersededEventId(key, count), type: importSupersededType, data }], {
        expectedRevision: revision ?? 'no_stream',
      });
    }
    const stager = new ChunkStager(unit, stream, base + alreadyStored);
    const batchEvents = input.batchEvents ?? 2000;
    let batch: EventToAppend[] = [];
    const summary = await reader.scan(async ({ event, line, lineBytes }) => {
      // The line's own data text, as a one-shot import stores it (docs/rules.md#stored-data-bytes).
      const wanted = encode(event, lineBytes);
      if (event.seq >= alreadyStored) {
        batch.push(wanted);
        if (batch.length >= batchEvents) {
          await stager.stage(batch);
          batch = [];
        }
        return;
      }
      const next = await (storedEvents as AsyncIterator<RecordedEvent>).next();
      if (next.done === true || !sameEvent(next.value, wanted))
        throw new SessionLogRejected(
          'prefix-mismatch',
          file,
          `the store already holds other events after the record that superseded the earlier generation with this file (seq ${event.seq}); nothing was written`,
          { line },
        );
    });
    await stager.stage(batch);
    if (summary.events < alreadyStored) {
      throw new SessionLogRejected(
        'prefix-mismatch',
        file,
        `the file now holds ${summary.events} events, fewer than the ${alreadyStored} already imported from it; nothing was written`,
      );
    }
    await unit.commit();
    const result = resultOf(
      input,
      reader,
      {
        events: summary.events,
        appended: stager.staged + (fresh ? 1 : 0),
        alreadyStored,
        recovery: summary.recovery,
        unknownTypes: summary.unknownTypes,
        inheritedCount: summary.inheritedCount,
        legacyShapes: summary.legacyShapes,
        invalidTeamRecords: summary.invalidTeamRecords,
      },
      scope,
    );
    return { result, base, fresh };
  } catch (error) {
    await unit.abort().catch(() => undefined);
    if (isStoreError(error, 'StoreFailure')) throw error;
    const rejected = rejectionOf(file, error);
    const result = resultOf(
      input,
      reader,
      {
        events: 0,
        appended: 0,
        alreadyStored: 0,
        recovery: null,
        unknownTypes: [],
        inheritedCount: 0,
        legacyShapes: 0,
        invalidTeamRecords: [],
        rejected,
      },
      scope,
    );
    return { result, base, fresh };
  }
};
