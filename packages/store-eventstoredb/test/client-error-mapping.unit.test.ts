import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  StreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { Metadata, status } from '@grpc/grpc-js';
import { streamName } from '@teamlog/store';
import { failureOutcome, mapClientError, unreadableEvent } from '@teamlog/store-eventstoredb';

const stream = streamName('session-lead');
const append = { operation: 'append', streamName: stream, eventCount: 3 } as const;

const notLeaderServiceError = () => {
  const metadata = new Metadata();
  metadata.set('exception', 'not-leader');
  metadata.set('leader-endpoint-host', 'node2.example');
  metadata.set('leader-endpoint-port', '2113');
  return Object.assign(new Error('5 NOT_FOUND: Leader info available'), {
    code: status.NOT_FOUND,
    details: 'Leader info available',
    metadata,
  });
};

describe('client error mapping', () => {
  it('maps WrongExpectedVersionError to WrongExpectedVersion with the expected and actual revisions', () => {
    const error = mapClientError(
      new WrongExpectedVersionError(undefined, { streamName: stream, expected: 4n, current: 9n }),
      {
        ...append,
        expectedRevision: 4n,
      },
    );
    expect(error).toMatchObject({ code: 'WrongExpectedVersion' });
    expect(error).toMatchObject({ fault: { streamName: stream, expected: 4n, actual: 9n } });
  });

  it('reports a missing stream as actual no_stream and keeps the expectation the caller gave', () => {
    const error = mapClientError(
      new WrongExpectedVersionError(undefined, { streamName: stream, expected: 'stream_exists', current: 'no_stream' }),
      {
        ...append,
        expectedRevision: 'stream_exists',
      },
    );
    expect(error).toMatchObject({ fault: { expected: 'stream_exists', actual: 'no_stream' } });
  });

  it('takes the expectation from the server when the caller gave none', () => {
    const error = mapClientError(
      new WrongExpectedVersionError(undefined, { streamName: stream, expected: 'no_stream', current: 0n }),
      append,
    );
    expect(error).toMatchObject({ fault: { expected: 'no_stream', actual: 0n } });
  });

  it('maps StreamNotFoundError to StreamNotFound', () => {
    const error = mapClientError(new StreamNotFoundError(undefined, 'session-lead'), {
      operation: 'readStream',
      streamName: stream,
    });
    expect(error).toMatchObject({ code: 'StreamNotFound' });
    expect(error.message).toBe('stream session-lead not found');
  });

  it('maps MaxAppendSizeExceededError to AppendTooLarge with the server limit', () => {
    const error = mapClientError(MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576), append);
    expect(error).toMatchObject({ code: 'AppendTooLarge' });
    expect(error).toMatchObject({ fault: { limitBytes: 1_048_576, eventCount: 3, streamName: stream } });
  });

  it('converts a raw gRPC NotLeader error and keeps it typed as not-leader', () => {
    const error = mapClientError(notLeaderServiceError(), append);
    expect(error).toMatchObject({ code: 'StoreFailure' });
    expect(error).toMatchObject({ fault: { failure: 'not-leader', operation: 'append', streamName: stream } });
    expect(error.cause).toBeInstanceOf(NotLeaderError);
  });

  it.each([
    [new UnavailableError(undefined, 'connection refused'), 'unavailable'],
    [new DeadlineExceededError(undefined, 'deadline'), 'deadline-exceeded'],
    [new TimeoutError(undefined, 'commit timeout'), 'timeout'],
    [new CancelledError(undefined, 'cancelled'), 'cancelled'],
    [new AccessDeniedError(undefined, 'denied'), 'access-denied'],
    [StreamDeletedError.fromStreamName('session-lead'), 'stream-deleted'],
    [new UnknownError(undefined, 'boom'), 'unknown'],
  ])('wraps %p with a clear message naming operation and stream', (clientError, failure) => {
    const error = mapClientError(clientError, append);
    expect(error).toMatchObject({ code: 'StoreFailure' });
    expect(error).toMatchObject({ fault: { failure } });
    expect(error.message).toMatch(new RegExp(`^EventStoreDB append on stream session-lead failed \\(${failure}\\): `));
    expect(error.cause).toBe(clientError);
  });

  it('passes errors that are not the client’s through unchanged', () => {
    const ours = unreadableEvent('session-lead', 1n, undefined, 'bad');
    expect(mapClientError(ours, append)).toBe(ours);
  });

  it('wraps a thrown non-error', () => {
    const error = mapClientError('socket hang up', { operation: 'readAll' });
    expect(error).toMatchObject({ code: 'StoreFailure' });
    expect(error.message).toBe('EventStoreDB readAll failed (unknown): socket hang up');
  });
});

describe('failure outcome', () => {
  const outcome = (clientError: unknown) => failureOutcome(mapClientError(clientError, append));

  it('treats NotLeader as not written', () => {
    expect(outcome(notLeaderServiceError())).toBe('not-written');
  });

  it('treats lost connections, deadlines, commit timeouts and cancellation as unknown', () => {
    expect(outcome(new UnavailableError(undefined, 'x'))).toBe('unknown');
    expect(outcome(new DeadlineExceededError(undefined, 'x'))).toBe('unknown');
    expect(outcome(new TimeoutError(undefined, 'x'))).toBe('unknown');
    expect(outcome(new CancelledError(undefined, 'x'))).toBe('unknown');
  });

  it('treats definite answers as rejected', () => {
    expect(outcome(new WrongExpectedVersionError(undefined, { streamName: stream, expected: 1n, current: 2n }))).toBe(
      'rejected',
    );
    expect(outcome(new AccessDeniedError(undefined, 'x'))).toBe('rejected');
    expect(outcome(MaxAppendSizeExceededError.fromMaxAppendSize(10))).toBe('rejected');
    expect(outcome(new Error('not from the client'))).toBe('rejected');
  });
});
