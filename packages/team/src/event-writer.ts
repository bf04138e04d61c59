import { isLeft } from 'fp-ts/Either';
import {
  type IdSource,
  type JsonObject,
  JsonValue,
  type SessionId,
  type StoredEventMetadata,
  type TeamId,
  type WritableEvent,
  catalogValidator,
  decodeCatalogEvent,
  isCatalogEventType,
} from '@teamlog/events';
import type { AppendResult, EventStore, EventToAppend, ExpectedRevision, StreamName } from '@teamlog/store';
import { acceptedDataText } from './accepted-data-text';
import { jsonString } from './json-string';
import { TeamLogError } from './team-log-errors';

export interface WriteContext {
  readonly ids: IdSource;
  /** Milliseconds since the epoch: a number, not a Date made per write. */
  readonly now: () => number;
  /** The session on whose behalf the events are written (the sender, for an acceptance). */
  readonly writer?: SessionId;
  readonly teamId?: TeamId;
}

const legacyMailboxTypes: ReadonlySet<string> = new Set(['team/message/queued', 'team/message/delivered']);

/**
 * The runtime half of "never write the mailbox": the type system already refuses these types
 * (WritableEvent), this refuses them from untyped callers too, and checks every payload against
 * its catalog codec so a written log never holds a record its own reader would refuse. `text`: the
 * payload's JSON built by its known shape, which already proves it plain JSON.
 */
const assertWritable = (event: WritableEvent, text: string | undefined): JsonValue => {
  const type: string = event.type;
  if (legacyMailboxTypes.has(type)) throw new TeamLogError({ code: 'LegacyMailboxWriteRefused', eventType: type });
  if (!isCatalogEventType(type))
    throw new TeamLogError({ code: 'InvalidEventRefused', eventType: type, problem: 'not a catalog event type' });
  // The compiled validator gives the codec's verdict; only a refused payload is decoded, to say why.
  const decoded = catalogValidator(type)(event.data) ? undefined : decodeCatalogEvent(type, event.data);
  if (decoded !== undefined && isLeft(decoded))
    throw new TeamLogError({ code: 'InvalidEventRefused', eventType: type, problem: decoded.left });
  // A text built by the payload's shape holds only strings in plain objects and arrays.
  if (text !== undefined) return event.data as JsonValue;
  if (!JsonValue.is(event.data))
    throw new TeamLogError({ code: 'InvalidEventRefused', eventType: type, problem: 'data is not plain JSON' });
  return event.data;
};

/** Surface events produce model-visible messages and carry `surfaceOp` (docs/rules.md#surface-events). */
const surfaceTypes: ReadonlySet<string> = new Set(['user/message']);

const metadataFor = (event: WritableEvent, context: WriteContext, time: number): StoredEventMetadata & JsonObject => {
  // Keys assigned in one order (no spreads): every send's metadata has one shape, its text one key order.
  const metadata: { -readonly [K in keyof StoredEventMetadata]: StoredEventMetadata[K] } & JsonObject = { time };
  if (surfaceTypes.has(event.type)) metadata.surfaceOp = 'append';
  if (context.writer !== undefined) metadata.writerSessionId = context.writer;
  if (context.teamId !== undefined) metadata.correlationId = context.teamId;
  return metadata;
};

/** The end of a metadata text after its time and surface op: the writer and its team, then the brace. */
interface WriterText {
  readonly writer: string | undefined;
  readonly teamId: string | undefined;
  readonly text: string;
}

/**
 * Writer texts kept per writer: every event a session writes ends its metadata text alike, so it is
 * escaped and joined once per writer, not per event. Bounded: past `maxWriters` it starts again.
 */
const writerTexts = new Map<string | undefined, WriterText>();
const maxWriters = 1024;

const writerText = (writer: string | undefined, teamId: string | undefined): string => {
  const kept = writerTexts.get(writer);
  if (kept !== undefined && kept.teamId === teamId) return kept.text;
  let text = '';
  if (writer !== undefined) text += `,"writerSessionId":${jsonString(writer)}`;
  if (teamId !== undefined) text += `,"correlationId":${jsonString(teamId)}`;
  const made: WriterText = { writer, teamId, text: `${text}}` };
  if (writerTexts.size >= maxWriters) writerTexts.clear();
  writerTexts.set(writer, made);
  return made.text;
};

/** `JSON.stringify(metadata)` of what `metadataFor` builds, key by key in its order (see json-string.ts). */
const metadataText = (metadata: StoredEventMetadata): string | undefined => {
  if (!Number.isSafeInteger(metadata.time)) return undefined;
  const head =
    metadata.surfaceOp === undefined
      ? `{"time":${metadata.time}`
      : `{"time":${metadata.time},"surfaceOp":${JSON.stringify(metadata.surfaceOp)}`;
  return head + writerText(metadata.writerSessionId, metadata.correlationId);
};

/**
 * The only way teamlog appends: writable catalog events, checked, with stored metadata. A refused
 * event rejects before anything is handed to the store.
 */
export const appendWritable = (
  store: EventStore,
  stream: StreamName,
  events: readonly WritableEvent[],
  expectedRevision: ExpectedRevision,
  context: WriteContext,
): Promise<AppendResult> => {
  let toAppend: EventToAppend[];
  try {
    toAppend = writableEvents(events, context);
  } catch (error) {
    return Promise.reject(error);
  }
  return store.appendToStream(stream, toAppend, { expectedRevision });
};

/** What `appendWritable` hands the store: the events checked, with their metadata and texts; throws what it refuses. */
export const writableEvents = (events: readonly WritableEvent[], context: WriteContext): EventToAppend[] => {
  const time = context.now();
  const toAppend: EventToAppend[] = [];
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index] as WritableEvent;
    // A send's acceptance is encoded here, by its known shape, instead of by the store's JSON.stringify.
    const dataText = event.type === 'teamlog/inbox/accepted' ? acceptedDataText(event.data) : undefined;
    const metadata = metadataFor(event, context, time);
    toAppend.push({
      id: context.ids.eventId(),
      type: event.type,
      data: assertWritable(event, dataText),
      metadata,
      dataText,
      metadataText: metadataText(metadata),
    });
  }
  return toAppend;
};
