import { isLeft } from 'fp-ts/Either';
import {
  type ImportRevoked,
  type RevocationReason,
  SessionHeaderRecord,
  type SessionId,
  decodeWith,
} from '@teamlog/events';
import { type EventStore, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { importRevokedEventId } from './event-ids';
import type { ImportRejection } from './file-fate';
import { sameLog } from './same-log';
import { readLatestHeader } from './stored-header';

export const importRevokedType = 'teamlog/import/revoked';

const decodeHeader = decodeWith(SessionHeaderRecord, 'data');

const lastEventType = async (store: EventStore, key: SessionId): Promise<string | undefined> => {
  if ((await store.streamRevision(sessionStream(key))) === undefined) return undefined;
  for await (const event of store.readStream(sessionStream(key), { from: 'end', direction: 'backwards', maxCount: 1 }))
    return event.type;
  return undefined;
};

/**
 * Whether the store holds a part of the session imported from this log (any generation of it) that
 * is not revoked yet: its latest header record names the log. A session imported from another copy
 * elsewhere is not this log's to revoke.
 */
export const holdsUnrevokedPart = async (store: EventStore, key: SessionId, recordedFile: string): Promise<boolean> => {
  const header = await readLatestHeader(store, sessionHeaderStream(key));
  if (header === undefined) return false;
  const record = decodeHeader(header.data);
  if (isLeft(record) || record.right.file === undefined || !sameLog(record.right.file, recordedFile)) return false;
  return (await lastEventType(store, key)) !== importRevokedType;
};

/**
 * Append `teamlog/import/revoked` after the session's events (docs/rules.md#import-revoked): the
 * views then leave the session out, as a one-shot replay of the file leaves it out. Its id is
 * fixed by the stream and revision, so a second follower that raced this one appends nothing.
 * Nothing stored before it is changed.
 */
export const revokeImport = async (
  store: EventStore,
  key: SessionId,
  recordedFile: string,
  reason: RevocationReason,
  rejection: ImportRejection,
): Promise<void> => {
  const stream = sessionStream(key);
  const revision = await store.streamRevision(stream);
  const next = revision === undefined ? 0 : Number(revision) + 1;
  const data: ImportRevoked = {
    file: recordedFile,
    reason,
    message: rejection.message,
    ...(rejection.line === undefined ? {} : { line: rejection.line as ImportRevoked['line'] }),
    ...(rejection.path === undefined ? {} : { path: rejection.path }),
  };
  await store.appendToStream(stream, [{ id: importRevokedEventId(key, next), type: importRevokedType, data }], {
    expectedRevision: revision ?? 'no_stream',
  });
};
