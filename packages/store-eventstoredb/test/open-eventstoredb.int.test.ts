import { v4 as uuidv4 } from 'uuid';
import type { EventId } from '@teamlog/events';
import { streamName } from '@teamlog/store';
import { openEventStoreDb } from '@teamlog/store-eventstoredb';

/*
 * The real client against a local port where nothing listens: no server is needed, and the
 * client's own connection errors go through the adapter's mapping and retry logic.
 */
const unreachable = 'esdb://admin:changeit@127.0.0.1:1?tls=false';

describe('openEventStoreDb with the real client and no server', () => {
  it('fails with a clear, typed error that hides the password', async () => {
    const error = await openEventStoreDb(unreachable).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'StoreFailure' });
    expect(error).toMatchObject({ fault: { failure: 'unavailable', operation: 'connect' } });
    expect((error as Error).message).toContain('cannot read from esdb://admin:***@127.0.0.1:1?tls=false');
    expect((error as Error).message).not.toContain('changeit');
  });

  it('refuses what is not an esdb connection string, naming the problem', async () => {
    await expect(openEventStoreDb('http://localhost:2113')).rejects.toMatchObject({ code: 'InvalidEventStoreUrl' });
    await expect(openEventStoreDb('esdb://localhost:port')).rejects.toThrow(
      'invalid EventStoreDB connection string esdb://localhost:port: Unexpected "port" at position 17, expected port number',
    );
  });

  it('gives an append whose every attempt fails to connect an unknown outcome after its retries', async () => {
    const retries: number[] = [];
    const store = await openEventStoreDb(unreachable, {
      verifyConnection: false,
      appendRetry: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
      onAppendRetry: (retry) => retries.push(retry.attempt),
    });
    try {
      const error = await store
        .appendToStream(streamName('session-offline'), [{ id: uuidv4() as EventId, type: 't', data: {} }])
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AppendOutcomeUnknown' });
      expect((error as Error).message).toContain('has an unknown outcome after 3 attempt(s)');
      expect(retries).toEqual([1, 2]);
    } finally {
      await store.close();
    }
  });
});
