import { isLeft } from 'fp-ts/Either';
import { SessionHeaderRecord, decodeWith } from '@teamlog/events';
import type { EventStore, RecordedEvent, StreamName } from '@teamlog/store';
import { jsonEqual } from './json-equal';
import { SessionLogRejected } from './session-log-errors';

export const headerEventType = 'teamlog/session/header';

/**
 * The latest header record of a session: one per generation imported, the last one the log's
 * current generation (a log the harness migrated gets its new header appended beside the old one).
 */
export const readLatestHeader = async (store: EventStore, stream: StreamName): Promise<RecordedEvent | undefined> => {
  if ((await store.streamRevision(stream)) === undefined) return undefined;
  for await (const event of store.readStream(stream, { from: 'end', direction: 'backwards', maxCount: 1 }))
    return event;
  return undefined;
};

/**
 * `normalisation-decided`: the stored record came from the file while it held its header alone,
 * and its first event line now says it is a normalised snapshot fixture.
 */
export type HeaderRelation = 'same' | 'later-generation' | 'normalisation-decided';

/**
 * How a stored header relates to a file's: the same log (`file` may differ: a moved directory),
 * or a later generation of it (same session, scope and normalisation, a higher format version:
 * the harness migrated the log). Its events must still line up with the stored ones, which the
 * import checks event by event (docs/rules.md#import-later-generation). Anything else is another
 * log: refused, nothing written. `storedNormalised` is the normalisation the store's session
 * decided: its stored events' (each carries the flag), or undefined when nothing decided it (no
 * event stored yet, or a header-only file, which has no event line to say): then it is not compared.
 */
export const relateStoredHeader = (
  file: string,
  stored: RecordedEvent,
  wanted: SessionHeaderRecord,
  storedNormalised: boolean | undefined,
): HeaderRelation => {
  const decoded = decodeWith(SessionHeaderRecord, 'data')(stored.data);
  if (stored.type === headerEventType && !isLeft(decoded)) {
    const record = decoded.right;
    const sameLog =
      (storedNormalised === undefined || storedNormalised === (wanted.normalised ?? false)) &&
      record.scope === wanted.scope;
    if (sameLog && record.formatVersion === wanted.formatVersion && jsonEqual(record.header, wanted.header)) {
      // Stored from the file while it held its header alone, which decides nothing (docs/rules.md#import-header-only).
      const decidedNow = storedNormalised === undefined && record.normalised !== true && wanted.normalised === true;
      return decidedNow ? 'normalisation-decided' : 'same';
    }
    if (sameLog && record.formatVersion < wanted.formatVersion && record.header.id === wanted.header.id)
      return 'later-generation';
  }
  const was = isLeft(decoded)
    ? 'an unreadable header'
    : `a V${decoded.right.formatVersion} header${decoded.right.file === undefined ? '' : ` from ${decoded.right.file}`}`;
  throw new SessionLogRejected(
    'prefix-mismatch',
    file,
    `the store already holds this session with ${was} that differs from this file's header; refusing to import, nothing was written`,
    { line: 1 },
  );
};

/** The normalisation a stored session's events decided (the first one's flag), or undefined when it has none. */
export const storedEventsNormalised = async (store: EventStore, stream: StreamName): Promise<boolean | undefined> => {
  if ((await store.streamRevision(stream)) === undefined) return undefined;
  for await (const event of store.readStream(stream, { maxCount: 1 })) {
    const metadata = event.metadata;
    return (
      typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && metadata.normalised === true
    );
  }
  return undefined;
};
