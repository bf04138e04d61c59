import { type CommandError, convertToCommandError, ErrorType, isCommandError } from '@eventstore/db-client';
import {
  type ExpectedRevision,
  type StreamName,
  streamNotFound,
  streamName as toStreamName,
  wrongExpectedVersion,
} from '@teamlog/store';
import {
  appendTooLarge,
  eventStoreDbError,
  type EventStoreDbFailure,
  type EventStoreDbOperation,
} from './eventstoredb-errors';
import { fromClientCurrentRevision, fromClientExpectedRevision } from './expected-revision-mapping';

export interface ClientErrorContext {
  readonly operation: EventStoreDbOperation;
  readonly streamName?: StreamName;
  /** The revision the caller expected; reported as given rather than as the server echoes it. */
  readonly expectedRevision?: ExpectedRevision;
  /** Events in the append, for AppendTooLarge. */
  readonly eventCount?: number;
}

/** The client's error as a CommandError when it is one (gRPC service errors are converted). */
export const asCommandError = (error: unknown): CommandError | undefined => {
  if (!(error instanceof Error)) return undefined;
  const converted = convertToCommandError(error);
  return isCommandError(converted) ? converted : undefined;
};

const streamOf = (context: ClientErrorContext, reported: string): StreamName | undefined => {
  if (context.streamName !== undefined) return context.streamName;
  try {
    return toStreamName(reported);
  } catch {
    return undefined;
  }
};

const failureOf = (error: CommandError): EventStoreDbFailure => {
  switch (error.type) {
    case ErrorType.NOT_LEADER:
      return 'not-leader';
    case ErrorType.UNAVAILABLE:
      return 'unavailable';
    case ErrorType.DEADLINE_EXCEEDED:
      return 'deadline-exceeded';
    case ErrorType.TIMEOUT:
      return 'timeout';
    case ErrorType.CANCELLED:
      return 'cancelled';
    case ErrorType.ACCESS_DENIED:
      return 'access-denied';
    case ErrorType.STREAM_DELETED:
      return 'stream-deleted';
    case ErrorType.INVALID_ARGUMENT:
    case ErrorType.INVALID_TRANSACTION:
    case ErrorType.MISSING_REQUIRED_METADATA_PROPERTY:
      return 'invalid-argument';
    case ErrorType.UNSUPPORTED:
      return 'unsupported';
    case ErrorType.UNKNOWN:
    case ErrorType.STREAM_NOT_FOUND:
    case ErrorType.NO_STREAM:
    case ErrorType.SCAVENGE_NOT_FOUND:
    case ErrorType.WRONG_EXPECTED_VERSION:
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED:
    case ErrorType.PERSISTENT_SUBSCRIPTION_FAILED:
    case ErrorType.PERSISTENT_SUBSCRIPTION_DOES_NOT_EXIST:
    case ErrorType.PERSISTENT_SUBSCRIPTION_EXISTS:
    case ErrorType.PERSISTENT_SUBSCRIPTION_DROPPED:
    case ErrorType.MAXIMUM_SUBSCRIBERS_REACHED:
    case ErrorType.USER_NOT_FOUND:
    case ErrorType.USER_CONFLICT:
      return 'unknown';
    default: {
      const unreachable: never = error;
      return unreachable;
    }
  }
};

/**
 * The port's typed error for a client error: WrongExpectedVersionError -> WrongExpectedVersion
 * (expected and actual), StreamNotFoundError -> StreamNotFound, MaxAppendSizeExceededError ->
 * AppendTooLarge, everything else a StoreFailure naming the operation and stream. Errors
 * that are not the client's (ours, or the port's) pass through unchanged.
 */
export const mapClientError = (error: unknown, context: ClientErrorContext): Error => {
  const command = asCommandError(error);
  if (command === undefined) {
    if (error instanceof Error) return error;
    return eventStoreDbError('unknown', context.operation, context.streamName, String(error));
  }
  switch (command.type) {
    case ErrorType.WRONG_EXPECTED_VERSION: {
      const stream = streamOf(context, command.streamName) ?? (command.streamName as StreamName);
      const expected = context.expectedRevision ?? fromClientExpectedRevision(command.expectedVersion);
      return wrongExpectedVersion(stream, expected, fromClientCurrentRevision(command.actualVersion));
    }
    case ErrorType.STREAM_NOT_FOUND: {
      const stream = streamOf(context, command.streamName);
      if (stream !== undefined) return streamNotFound(stream);
      break;
    }
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED:
      if (context.streamName !== undefined) {
        return appendTooLarge(context.streamName, undefined, command.maxAppendSize, context.eventCount ?? 0);
      }
      break;
    default:
      break;
  }
  const detail = command.message === '' ? command.type : command.message;
  return eventStoreDbError(failureOf(command), context.operation, context.streamName, detail, { cause: command });
};
