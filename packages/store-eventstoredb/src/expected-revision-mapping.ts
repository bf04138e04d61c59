import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  NO_STREAM,
  STREAM_EXISTS,
} from '@eventstore/db-client';
import type { ExpectedRevision } from '@teamlog/store';

/* The port's expected revisions and the client's have the same four forms; map them explicitly anyway. */

export const toClientExpectedRevision = (expected: ExpectedRevision): AppendExpectedRevision => {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
};

export const fromClientExpectedRevision = (expected: AppendExpectedRevision): ExpectedRevision => {
  switch (expected) {
    case ANY:
      return 'any';
    case NO_STREAM:
      return 'no_stream';
    case STREAM_EXISTS:
      return 'stream_exists';
    default:
      return expected;
  }
};

/** The actual revision a WrongExpectedVersion reports: the last revision, or 'no_stream'. */
export const fromClientCurrentRevision = (current: CurrentRevision): bigint | 'no_stream' =>
  current === NO_STREAM ? 'no_stream' : current;
