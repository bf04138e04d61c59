import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';
import { isStoreError } from '@teamlog/store';
import { eventStoreDbError, invalidEventStoreUrl } from './eventstoredb-errors';

/** The connection-string schemes of `@eventstore/db-client` v6 (single node or gossip discovery). */
export const isEventStoreDbUrl = (text: string): boolean => /^esdb(\+discover)?:\/\//i.test(text.trim());

const credentials = /^([a-z+]+:\/\/[^:@/]*):([^@]*)@/i;

/** The URL with any password replaced, for messages and logs. */
export const redactEventStoreUrl = (url: string): string => url.replace(credentials, '$1:***@');

/** A message that may quote part of the URL, with the password replaced. */
const redactMessage = (message: string, url: string): string => {
  const password = credentials.exec(url)?.[2];
  return password === undefined || password === '' ? message : message.split(password).join('***');
};

export interface OpenEventStoreDbOptions extends EventStoreDbEventStoreOptions {
  /** Read the head of `$all` before returning, so a wrong URL or a down server fails here. Default true. */
  readonly verifyConnection?: boolean;
}

/**
 * Open the EventStoreDB store for a connection string (for `--store` / `TEAMLOG_STORE`):
 * `esdb://localhost:2113?tls=false` (one node), `esdb://node1:2113,node2:2113,node3:2113`
 * (a cluster through gossip seeds) or `esdb+discover://cluster.example.com:2113` (DNS discovery).
 */
export const openEventStoreDb = async (
  url: string,
  options: OpenEventStoreDbOptions = {},
): Promise<EventStoreDbEventStore> => {
  const shown = redactMessage(redactEventStoreUrl(url), url);
  if (!isEventStoreDbUrl(url))
    throw invalidEventStoreUrl(shown, 'expected esdb://host:port or esdb+discover://host:port,...');
  let client: EventStoreDBClient;
  try {
    client = EventStoreDBClient.connectionString(url.trim());
  } catch (error) {
    throw invalidEventStoreUrl(shown, redactMessage((error as Error).message, url));
  }
  const store = new EventStoreDbEventStore(client, options);
  if (options.verifyConnection ?? true) {
    try {
      await store.headPosition();
    } catch (error) {
      await store.close().catch(() => undefined);
      const failure = isStoreError(error, 'StoreFailure') ? (error.fault.failure ?? 'unknown') : 'unknown';
      throw eventStoreDbError(
        failure,
        'connect',
        undefined,
        `cannot read from ${shown}: ${redactMessage((error as Error).message, url)}`,
        { cause: error },
      );
    }
  }
  return store;
};
