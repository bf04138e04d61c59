import { type EventId, isStoredEventMetadata } from '@teamlog/events';
import { type EventToAppend, streamName } from '@teamlog/store';
import { sessionEventIds } from '../src/event-ids';
import { EventLineProcessor, type SessionLogEvent } from '../src/event-line-processor';
import { SplitLine } from '../src/line-splitter';
import { OneShotEvent } from '../src/one-shot-event';
import { eventToAppendEncoder } from '../src/stored-event-codec';

const streamKey = 'one-shot-session';

/** A line as the splitter hands it on: a range of a larger read buffer. */
const lineOf = (number: number, value: unknown): SplitLine => {
  const bytes = Buffer.from(JSON.stringify(value));
  const read = Buffer.concat([Buffer.from('xx\n'), bytes, Buffer.from('\nyy')]);
  return new SplitLine(number, read, 3, 3 + bytes.length, 'utf8');
};

/** V4 event lines with every envelope key a line may carry, an unknown one among them. */
const lines = [
  { type: 'turn/start', seq: 0, time: 1791190800180, data: { turn: 1 } },
  { type: 'x/custom', seq: 1, time: 1791190800200, data: { any: ['thing'] }, ignorable: true },
  { type: 'turn/start', seq: 2, time: 1791190800300, data: { turn: 2 }, surfaceOp: 'append', note: 'kept in extra' },
  { type: 'turn/start', seq: 3, time: 1791190800400, data: { turn: 3 }, sourceEventSeqs: [0, 2] },
];

/** Snapshot fixture lines: no seq, no time (seqs by position). */
const normalisedLines = [
  { type: 'turn/start', data: { turn: 1 } },
  { type: 'turn/start', data: { turn: 2 } },
];

const processed = (values: readonly unknown[], normalised: boolean, oneShot: boolean): SessionLogEvent[] => {
  const processor = new EventLineProcessor(
    'log.jsonl',
    4,
    normalised,
    'strict',
    undefined,
    false,
    oneShot ? sessionEventIds(streamKey) : undefined,
  );
  return values.flatMap((value, index) => processor.process(lineOf(index + 2, value)));
};

/** What a store is handed, as plain text (the verdict: true, or false when absent). */
const appended = (event: EventToAppend): string =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    catalog: event.catalog === true,
  });

describe('an event line for a store that keeps no payload (one object per event)', () => {
  it.each([
    ['a log with seqs', lines, false],
    ['a snapshot fixture', normalisedLines, true],
  ])('is visited as one object, its own logical event and what the encoder appends (%s)', (_, values, normalised) => {
    const encode = eventToAppendEncoder(streamKey, normalised, false);
    const events = processed(values, normalised, true);
    expect(events).toHaveLength(values.length);
    for (const event of events) {
      expect(event).toBeInstanceOf(OneShotEvent);
      expect(event.event).toBe(event);
      expect(encode(event.event, undefined, event.catalogChecked)).toBe(event);
    }
  });

  it.each([
    ['a log with seqs', lines, false],
    ['a snapshot fixture', normalisedLines, true],
  ])(
    'has the envelope, class, verdict, line, id and metadata the visited event and encoder give (%s)',
    (_, values, normalised) => {
      const oneShot = processed(values, normalised, true);
      const visited = processed(values, normalised, false);
      const encode = eventToAppendEncoder(streamKey, normalised, false);
      expect(oneShot.some((event) => event.catalogChecked === true)).toBe(true);
      oneShot.forEach((event, index) => {
        const plain = visited[index] as SessionLogEvent;
        const { type, seq, time, data, ignorable, surfaceOp, sourceEventSeqs, extra, packed } = event.event;
        expect({ type, seq, time, data, ignorable, surfaceOp, sourceEventSeqs, extra, packed }).toEqual({
          ignorable: undefined,
          surfaceOp: undefined,
          sourceEventSeqs: undefined,
          extra: undefined,
          packed: undefined,
          ...plain.event,
        });
        expect([event.line, event.eventClass, event.catalogChecked, event.lineLength]).toEqual([
          plain.line,
          plain.eventClass,
          plain.catalogChecked,
          plain.lineLength,
        ]);
        expect(Buffer.from(event.lineBytes).equals(Buffer.from(plain.lineBytes))).toBe(true);
        // The time the views read without making the metadata is the metadata's own.
        const { metadata, metadataTime, metadataNormalised } = event as OneShotEvent;
        if (!isStoredEventMetadata(metadata)) throw new Error('the metadata is no StoredEventMetadata');
        expect([metadataTime, metadataNormalised]).toEqual([metadata.time, metadata.normalised === true]);
        expect(appended(encode(event.event, undefined, event.catalogChecked))).toBe(
          appended(encode(plain.event, undefined, plain.catalogChecked)),
        );
      });
    },
  );

  it('lets go of its line once recorded, keeping its line number and length', () => {
    const [event] = processed(lines, false, true) as [OneShotEvent];
    const length = event.lineLength;
    const recorded = event.recordAt(streamName(`session-${streamKey}`), 0, 1, new Date(5));
    expect(recorded).toBe(event);
    expect([event.line, event.lineLength, event.revisionNumber, event.id]).toEqual([
      2,
      length,
      0,
      sessionEventIds(streamKey)(0) as EventId,
    ]);
    expect(() => event.lineBytes).toThrow(/line 2 were let go/);
  });
});
