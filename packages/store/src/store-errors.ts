import type { EventId } from '@teamlog/events';
import type { ExpectedRevision } from './event-store';
import type { StreamName } from './stream-name';

const describeRevision = (revision: ExpectedRevision | 'no_stream'): string =>
  typeof revision === 'bigint' ? revision.toString() : revision;

export class WrongExpectedVersion extends Error {
  override readonly name = 'WrongExpectedVersion';
  constructor(
    readonly streamName: StreamName,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or 'no_stream'. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamName}: expected revision ${describeRevision(expected)}, actual ${describeRevision(actual)}`);
  }
}

export class StreamNotFound extends Error {
  override readonly name = 'StreamNotFound';
  constructor(readonly streamName: StreamName) {
    super(`stream ${streamName} not found`);
  }
}

/** An event id already stored elsewhere, or a retry that is not the same batch as the original. */
export class DuplicateEventId extends Error {
  override readonly name = 'DuplicateEventId';
  constructor(
    readonly eventId: EventId,
    readonly streamName: StreamName,
    detail: string,
  ) {
    super(`event ${eventId} in stream ${streamName}: ${detail}`);
  }
}

export class StoreClosed extends Error {
  override readonly name = 'StoreClosed';
  constructor() {
    super('the event store is closed');
  }
}

export class InvalidAppend extends Error {
  override readonly name = 'InvalidAppend';
}

/** A unit of staged appends grew past what the store keeps for one unit (nothing was written). */
export class StagedAppendsTooLarge extends Error {
  override readonly name = 'StagedAppendsTooLarge';
  constructor(
    readonly limitBytes: number,
    detail: string,
  ) {
    super(
      `the staged appends exceed ${limitBytes} bytes, the most this store writes as one unit: ${detail}; nothing was written`,
    );
  }
}

/**
 * The store itself failed (its server stayed unreachable through the adapter's retries, a server
 * or disk error): a fault of the environment, never of the caller's input. Adapters' errors of
 * this kind extend it, so callers in the core (the importer, the follower) tell it from a bad file
 * without knowing the adapter.
 */
export class StoreFailure extends Error {
  override readonly name: string = 'StoreFailure';
}
