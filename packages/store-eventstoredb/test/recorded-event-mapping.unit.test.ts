import { isLeft, isRight } from 'fp-ts/Either';
import { type ClientRecordedEvent, fromResolvedEvent, toRecordedEvent } from '@teamlog/store-eventstoredb';

const id = '0190f1c4-0000-7000-8000-00000000000a';
const created = new Date('2025-01-02T03:04:05.678Z');
const recorded = (overrides: Partial<ClientRecordedEvent> = {}): ClientRecordedEvent => ({
  streamId: 'session-lead',
  id,
  revision: 7n,
  type: 'turn/start',
  isJson: true,
  created,
  data: { turn: 1 },
  metadata: { time: 12, correlationId: 'c', $correlationId: 'c' },
  position: { commit: 5_000_000_000_123n, prepare: 5_000_000_000_001n },
  ...overrides,
});

const failure = (input: ClientRecordedEvent) => {
  const result = toRecordedEvent(input);
  if (!isLeft(result)) throw new Error('expected a failure');
  return result.left;
};

describe('recorded event mapping', () => {
  it('maps a ResolvedEvent-like object to the port RecordedEvent field by field', () => {
    const result = fromResolvedEvent({ event: recorded() });
    expect(isRight(result)).toBe(true);
    if (!isRight(result)) return;
    expect(result.right).toEqual({
      streamName: 'session-lead',
      revision: 7n,
      position: { commit: 5_000_000_000_123n, prepare: 5_000_000_000_001n },
      id,
      type: 'turn/start',
      data: { turn: 1 },
      metadata: { time: 12, correlationId: 'c' },
      recordedAt: created,
    });
  });

  it('parses binary data holding JSON text', () => {
    const result = toRecordedEvent(recorded({ isJson: false, data: Buffer.from('null', 'utf8') }));
    expect(isRight(result) && result.right.data).toBeNull();
  });

  it('names stream, revision and event when the data is not JSON', () => {
    const error = failure(recorded({ isJson: false, data: new Uint8Array([0xde, 0xad]) }));
    expect(error).toMatchObject({ code: 'UnreadableEvent' });
    expect(error.message).toBe(
      `stream session-lead revision 7 (event ${id}): data is binary and not JSON text (2 bytes)`,
    );
  });

  it('refuses an event id that is not a uuid', () => {
    expect(failure(recorded({ id: 'not-a-uuid' })).message).toContain('event id not-a-uuid is not a uuid');
  });

  it('refuses an event without a position, naming the server version that returns them', () => {
    expect(failure(recorded({ position: undefined })).message).toContain('22.10');
  });

  it('refuses system streams, which are not port stream names', () => {
    expect(failure(recorded({ streamId: '$stats-127.0.0.1:2113' })).fault).toMatchObject({
      detail: expect.stringContaining('reserved for the store'),
    });
  });

  it('refuses metadata that is not JSON', () => {
    expect(failure(recorded({ metadata: new Uint8Array([1, 2, 3]) })).fault).toMatchObject({
      detail: 'metadata is not JSON (3 bytes)',
    });
  });

  it('refuses a resolved event without an event', () => {
    expect(isLeft(fromResolvedEvent({}))).toBe(true);
  });
});
