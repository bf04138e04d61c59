import fc from 'fast-check';
import { isRight } from 'fp-ts/Either';
import { v4 as uuidv4 } from 'uuid';
import type { EventId, JsonValue } from '@teamlog/events';
import type { EventToAppend } from '@teamlog/store';
import { toEventData, toRecordedEvent } from '@teamlog/store-eventstoredb';
import { recordedFromEventData } from './client-recorded-event';

const event = (data: JsonValue, metadata?: JsonValue): EventToAppend => ({
  id: uuidv4() as EventId,
  type: 'teamlog/inbox/accepted',
  data,
  ...(metadata === undefined ? {} : { metadata }),
});

describe('event data mapping', () => {
  it('passes the writer id and type through and stores objects as JSON events', () => {
    const appended = event({ text: 'hi' }, { time: 1 });
    const data = toEventData(appended);
    expect(data.id).toBe(appended.id);
    expect(data.type).toBe('teamlog/inbox/accepted');
    expect(data.contentType).toBe('application/json');
    expect(data.data).toEqual({ text: 'hi' });
    expect(data.metadata).toEqual({ time: 1 });
  });

  it('stores a bare number, boolean or null as its JSON text in a binary event', () => {
    for (const value of [0, 42.5, true, false, null]) {
      const data = toEventData(event(value));
      expect(data.contentType).toBe('application/octet-stream');
      expect(Buffer.from(data.data as Uint8Array).toString('utf8')).toBe(JSON.stringify(value));
    }
  });

  it('sends no metadata when the event has none', () => {
    expect(toEventData(event({})).metadata).toBeUndefined();
  });

  it('round-trips any data and metadata through what the server returns', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.jsonValue(), { nil: undefined }), (rawData, rawMetadata) => {
        const data = JSON.parse(JSON.stringify(rawData)) as JsonValue;
        const metadata = rawMetadata === undefined ? undefined : (JSON.parse(JSON.stringify(rawMetadata)) as JsonValue);
        const appended = event(data, metadata);
        const recorded = toRecordedEvent(
          recordedFromEventData(toEventData(appended), { streamId: 'session-a', revision: 3n, commit: 900n }),
        );
        expect(isRight(recorded)).toBe(true);
        if (!isRight(recorded)) return;
        expect(recorded.right.id).toBe(appended.id);
        expect(recorded.right.type).toBe(appended.type);
        expect(recorded.right.data).toEqual(data);
        expect(recorded.right.metadata).toEqual(metadata);
      }),
      { numRuns: 300 },
    );
  });
});
