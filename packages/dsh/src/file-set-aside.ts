import { createHash } from 'node:crypto';
import { isLeft } from 'fp-ts/Either';
import { type EventId, ImportSetAside, decodeWith } from '@teamlog/events';
import { type EventStore, type StreamName, streamName } from '@teamlog/store';
import { uuidV5 } from './event-ids';
import type { FileSignature } from './file-signature';
import { type ImportRejection, kindOfRejection } from './file-fate';

export const importSetAsideType = 'teamlog/import/set-aside';

/** How long refusing one file may take before a follower sets it aside (default 10 s). */
export const defaultSetAsideMs = 10_000;

const decodeSetAside = decodeWith(ImportSetAside, 'data');

/** The stream of a recorded file name's set-aside records (a hash: file names may hold any character). */
export const setAsideStream = (recordedFile: string): StreamName =>
  streamName(`importsetaside-${createHash('sha1').update(recordedFile, 'utf8').digest('hex')}`);

/**
 * Whether a refused file is set aside (docs/rules.md#follow-set-aside): a verdict on its own
 * bytes (a circumstance may pass, so it is tried again) that is over a reader's limit, or that
 * cost at least `setAsideMs` to reach.
 */
export const shouldSetAside = (rejection: ImportRejection, elapsedMs: number, setAsideMs: number): boolean =>
  kindOfRejection(rejection.reason) === 'verdict' && (rejection.reason === 'over-limit' || elapsedMs >= setAsideMs);

const sameContent = (record: ImportSetAside, signature: FileSignature): boolean =>
  record.ino === signature.ino && record.size === signature.size && record.mtimeMs === signature.mtimeMs;

/** Whether the file, as `signature` identifies it, was set aside by an earlier follower (and has not changed since). */
export const isSetAside = async (
  store: EventStore,
  recordedFile: string,
  signature: FileSignature,
): Promise<boolean> => {
  const stream = setAsideStream(recordedFile);
  if ((await store.streamRevision(stream)) === undefined) return false;
  for await (const event of store.readStream(stream, { from: 'end', direction: 'backwards', maxCount: 1 })) {
    const record = decodeSetAside(event.data);
    return !isLeft(record) && record.right.file === recordedFile && sameContent(record.right, signature);
  }
  return false;
};

/** Record that the file, as `signature` identifies it, is set aside (idempotent for the same content). */
export const setAside = async (
  store: EventStore,
  recordedFile: string,
  signature: FileSignature,
  rejection: ImportRejection,
): Promise<void> => {
  const stream = setAsideStream(recordedFile);
  if (await isSetAside(store, recordedFile, signature)) return;
  const revision = await store.streamRevision(stream);
  const data = {
    file: recordedFile,
    ino: signature.ino,
    size: signature.size,
    mtimeMs: signature.mtimeMs,
    reason: rejection.reason,
    message: rejection.message,
  };
  const id = uuidV5(
    `importsetaside/${recordedFile}/${signature.ino}/${signature.size}/${signature.mtimeMs}`,
  ) as EventId;
  await store.appendToStream(stream, [{ id, type: importSetAsideType, data }], {
    expectedRevision: revision ?? 'no_stream',
  });
};
