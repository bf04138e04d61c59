import {
  StoreError,
  duplicateEventId,
  isStoreError,
  payloadsNotKept,
  storeClosed,
  storeFailure,
  streamName,
  wrongExpectedVersion,
} from '@teamlog/store';
import type { EventId } from '@teamlog/events';

const stream = streamName('session-a');

describe('the store port error', () => {
  it('is one StoreError type whose code names the case, with the messages each case had', () => {
    const conflict = wrongExpectedVersion(stream, 'no_stream', 3n);
    expect(conflict).toBeInstanceOf(StoreError);
    expect(conflict).toMatchObject({
      name: 'StoreError',
      code: 'WrongExpectedVersion',
      message: 'stream session-a: expected revision no_stream, actual 3',
    });
    expect(duplicateEventId('e-1' as EventId, stream, 'stored elsewhere').message).toBe(
      'event e-1 in stream session-a: stored elsewhere',
    );
    expect(storeClosed().message).toBe('the event store is closed');
    expect(payloadsNotKept('$all', 'a subscription was asked for').message).toBe(
      '$all: a subscription was asked for: this store keeps no events (a one-shot replay, --store :memory:)',
    );
  });

  it('is told apart by code at a catch site, with the fields of that code', () => {
    const error: unknown = wrongExpectedVersion(stream, 1n, 'no_stream');
    expect(isStoreError(error, 'StreamNotFound', 'StoreFailure')).toBe(false);
    if (!isStoreError(error, 'WrongExpectedVersion')) throw new Error('not narrowed');
    expect(error.fault.actual).toBe('no_stream');
  });

  it("keeps a store failure's adapter fields and cause", () => {
    const cause = new Error('ECONNREFUSED');
    const failure = storeFailure('cannot open db', { failure: 'unavailable', operation: 'open', cause });
    expect(failure).toMatchObject({ code: 'StoreFailure', message: 'cannot open db', cause });
    expect(failure.fault).toMatchObject({ failure: 'unavailable', operation: 'open' });
  });
});
