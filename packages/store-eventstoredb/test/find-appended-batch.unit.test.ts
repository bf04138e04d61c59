import { v4 as uuidv4 } from 'uuid';
import type { EventId } from '@teamlog/events';
import { InMemoryEventStore, streamName } from '@teamlog/store';
import { batchSearchRange, findAppendedBatch } from '@teamlog/store-eventstoredb';

const event = () => ({ id: uuidv4() as EventId, type: 't', data: {} });

describe('finding an appended batch after an unknown outcome', () => {
  it('searches right after an exact revision, from 0 for no_stream, and in the tail otherwise', () => {
    expect(batchSearchRange(4n, 2, 100)).toEqual({ from: 5n, direction: 'forwards', maxCount: 2 });
    expect(batchSearchRange('no_stream', 3, 100)).toEqual({ from: 'start', direction: 'forwards', maxCount: 3 });
    expect(batchSearchRange('any', 3, 100)).toEqual({ from: 'end', direction: 'backwards', maxCount: 103 });
    expect(batchSearchRange('stream_exists', 1, 10)).toEqual({ from: 'end', direction: 'backwards', maxCount: 11 });
  });

  it('given the batch was written, returns it with the original result; given it was not, says absent', async () => {
    const store = new InMemoryEventStore();
    const stream = streamName(`session-${uuidv4()}`);
    await store.appendToStream(stream, [event()]);
    const batch = [event(), event()];
    expect(await findAppendedBatch(store, stream, batch, 0n)).toEqual({ kind: 'absent' });
    const written = await store.appendToStream(stream, batch, { expectedRevision: 0n });
    await store.appendToStream(stream, [event()]);
    for (const expected of [0n, 'any', 'stream_exists'] as const) {
      const found = await findAppendedBatch(store, stream, batch, expected);
      expect(found.kind).toBe('stored');
      if (found.kind === 'stored')
        expect({ nextExpectedRevision: found.last.revision, position: found.last.position }).toEqual(written);
    }
  });

  it('treats a missing stream as holding nothing', async () => {
    expect(
      await findAppendedBatch(new InMemoryEventStore(), streamName('session-none'), [event()], 'no_stream'),
    ).toEqual({ kind: 'absent' });
  });

  it('does not look beyond the window in the tail', async () => {
    const store = new InMemoryEventStore();
    const stream = streamName(`session-${uuidv4()}`);
    const batch = [event()];
    await store.appendToStream(stream, batch);
    await store.appendToStream(stream, [event(), event(), event()]);
    expect(await findAppendedBatch(store, stream, batch, 'any', 2)).toEqual({ kind: 'absent' });
    expect((await findAppendedBatch(store, stream, batch, 'any', 3)).kind).toBe('stored');
  });
});
