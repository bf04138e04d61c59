import type {
  AllStreamResolvedEvent,
  AppendResult,
  AppendToStreamOptions,
  EventData,
  ReadAllOptions,
  ReadStreamOptions,
  ResolvedEvent,
  SubscribeToAllOptions,
} from '@eventstore/db-client';

/** The client's subscription as this adapter uses it. */
export interface ClientAllSubscription extends AsyncIterable<AllStreamResolvedEvent> {
  unsubscribe(): Promise<void>;
}

/**
 * The part of `EventStoreDBClient` the adapter calls. The real client satisfies it; unit tests
 * pass a fake to exercise the adapter's own logic (the fake never counts as the server working).
 */
export interface EventStoreDbClient {
  appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<AppendResult>;
  readStream(streamName: string, options?: ReadStreamOptions): AsyncIterable<ResolvedEvent>;
  readAll(options?: ReadAllOptions): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): ClientAllSubscription;
  dispose(): Promise<void>;
}
