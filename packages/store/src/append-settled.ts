import type { AppendOptions, AppendSettled, EventStore, EventToAppend } from './event-store';
import type { StreamName } from './stream-name';

/**
 * Append and settle in one step: where the store settles appends itself (`appendToStreamSettled`),
 * the caller's continuation runs when the commit is durable and the append's one promise is the
 * caller's; elsewhere it is chained on `appendToStream`'s promise, with the same outcome.
 */
export const appendSettled = <R>(
  store: EventStore,
  stream: StreamName,
  events: readonly EventToAppend[],
  options: AppendOptions,
  settled: AppendSettled<R>,
): Promise<R> =>
  store.appendToStreamSettled === undefined
    ? store.appendToStream(stream, events, options).then(
        (result) => settled.committed(result),
        (error: unknown) => settled.failed(error),
      )
    : store.appendToStreamSettled(stream, events, options, settled);
