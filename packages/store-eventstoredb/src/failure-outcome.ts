import { isStoreError } from '@teamlog/store';
import type { EventStoreDbFailure } from './eventstoredb-errors';

/**
 * What a failed request says about its effect, judged from the mapped error:
 * - not-written: refused before anything happened (a follower answering NotLeader): retry as is;
 * - unknown: it may have taken effect (connection lost, deadline exceeded, commit timeout): for an
 *   append, read the stream back before retrying; for a read or subscription, just retry;
 * - rejected: a definite answer (wrong expected version, access denied, too large...): do not retry.
 */
export type FailureOutcome = 'not-written' | 'unknown' | 'rejected';

const outcomeOf = (failure: EventStoreDbFailure): FailureOutcome => {
  switch (failure) {
    case 'not-leader':
      return 'not-written';
    case 'unavailable':
    case 'deadline-exceeded':
    case 'timeout':
    case 'cancelled':
      return 'unknown';
    case 'server':
    case 'access-denied':
    case 'stream-deleted':
    case 'invalid-argument':
    case 'unsupported':
    case 'unknown':
      return 'rejected';
    default: {
      const unreachable: never = failure;
      return unreachable;
    }
  }
};

export const failureOutcome = (error: Error): FailureOutcome =>
  isStoreError(error, 'StoreFailure') ? outcomeOf(error.fault.failure ?? 'unknown') : 'rejected';

export const isRetryableFailure = (error: Error): boolean => failureOutcome(error) !== 'rejected';
