import { v4 as uuidv4 } from 'uuid';
import type { EventId } from '@teamlog/events';
import { streamName } from '@teamlog/store';
import {
  appendSizeOnDisk,
  assertAppendSize,
  defaultMaxAppendBytes,
  eventSizeOnDisk,
  toEventData,
} from '@teamlog/store-eventstoredb';

const event = (type: string, data: Record<string, unknown>, metadata?: Record<string, unknown>) =>
  toEventData({
    id: uuidv4() as EventId,
    type,
    data: data as never,
    ...(metadata === undefined ? {} : { metadata: metadata as never }),
  });

describe('append size', () => {
  it('counts data and metadata bytes plus two bytes per type character, as the server does', () => {
    const data = event('a/b', { text: 'é' }, { time: 1 });
    // {"text":"é"} is 13 bytes (é is two), {"time":1} is 10, "a/b" counts 6.
    expect(eventSizeOnDisk(data)).toBe(13 + 10 + 6);
  });

  it('counts binary data by its bytes', () => {
    const data = toEventData({ id: uuidv4() as EventId, type: 'n', data: 12345 });
    expect(eventSizeOnDisk(data)).toBe(5 + 2);
  });

  it('refuses an append above the limit before sending, naming stream, size and limit', () => {
    const stream = streamName('session-big');
    const batch = [event('big/one', { blob: 'x'.repeat(600_000) }), event('big/two', { blob: 'y'.repeat(600_000) })];
    const bytes = appendSizeOnDisk(batch);
    expect(() => assertAppendSize(stream, batch, defaultMaxAppendBytes)).toThrow(
      expect.objectContaining({ code: 'AppendTooLarge' }),
    );
    expect(() => assertAppendSize(stream, batch, defaultMaxAppendBytes)).toThrow(
      `stream session-big: an append of 2 event(s) and ${bytes} bytes exceeds the EventStoreDB append limit of 1048576 bytes; nothing was written`,
    );
  });

  it('lets the conformance suite’s 10,000-event append through under the default limit', () => {
    const batch = Array.from({ length: 10_000 }, (_, n) => event('bulk/item', { n }, { time: 0 }));
    expect(appendSizeOnDisk(batch)).toBeLessThan(defaultMaxAppendBytes);
    expect(() => assertAppendSize(streamName('bulk'), batch, defaultMaxAppendBytes)).not.toThrow();
  });
});
