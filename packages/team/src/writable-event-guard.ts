import { isLeft } from 'fp-ts/Either';
import { JsonValue, WritableEvent, decodeCatalogEvent, isCatalogEventType } from '@teamlog/events';
import { InvalidEventRefused, LegacyMailboxWriteRefused } from './team-log-errors';

const legacyMailboxTypes: ReadonlySet<string> = new Set(['team/message/queued', 'team/message/delivered']);

/**
 * The runtime half of "never write the mailbox": the type system already refuses these types
 * (WritableEvent), this refuses them from untyped callers too, and checks every payload against
 * its catalog codec so a written log never holds a record its own reader would refuse.
 */
export const assertWritable = (event: WritableEvent): JsonValue => {
  const type: string = event.type;
  if (legacyMailboxTypes.has(type)) throw new LegacyMailboxWriteRefused(type);
  if (!isCatalogEventType(type)) throw new InvalidEventRefused(type, 'not a catalog event type');
  const decoded = decodeCatalogEvent(type, event.data);
  if (isLeft(decoded)) throw new InvalidEventRefused(type, decoded.left);
  if (!JsonValue.is(event.data)) throw new InvalidEventRefused(type, 'data is not plain JSON');
  return event.data;
};
