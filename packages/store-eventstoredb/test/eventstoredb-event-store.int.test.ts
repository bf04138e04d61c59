import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { v4 as uuidv4 } from 'uuid';
import type { EventId, JsonObject, SessionId, StoredEventMetadata } from '@teamlog/events';
import { checkLink, finishChainWalk, migrateStore, type RecordedEvent, startChainWalk } from '@teamlog/store';
import {
  collect,
  describeEventStoreConformance,
  expectSameStreams,
  fillSource,
  newEvent,
  uniqueStream,
} from '@teamlog/store-conformance';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { type EventStoreDbEventStore, openEventStoreDb, redactEventStoreUrl } from '@teamlog/store-eventstoredb';

const tempDirectory = (): { path: (name: string) => string; cleanup: () => void } => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-migrate-'));
  return { path: (name) => join(directory, name), cleanup: () => rmSync(directory, { recursive: true, force: true }) };
};

/*
 * Runs against a real EventStoreDB / KurrentDB when EVENTSTORE_URL is set, for example
 *   EVENTSTORE_URL='esdb://localhost:2113?tls=false' npx jest packages/store-eventstoredb
 * and is skipped otherwise (the reason is printed and is part of the suite title).
 * Stream names carry the process id and time, so runs against a shared server do not collide.
 */
const url = process.env.EVENTSTORE_URL ?? '';
const skipReason = 'skipped: EVENTSTORE_URL is not set (for example esdb://localhost:2113?tls=false)';
const describeIfServer = url === '' ? describe.skip : describe;
if (url === '') console.info(`@teamlog/store-eventstoredb real-server tests ${skipReason}`);

const open = (options: Parameters<typeof openEventStoreDb>[1] = {}): Promise<EventStoreDbEventStore> =>
  openEventStoreDb(url, options);

describeIfServer(
  url === ''
    ? `EventStoreDbEventStore on a real server (${skipReason})`
    : `EventStoreDbEventStore on ${redactEventStoreUrl(url)}`,
  () => {
    describeEventStoreConformance(
      'EventStoreDbEventStore',
      async () => {
        const store = await open();
        return { store, dispose: () => store.close() };
      },
      { uniqueEventIdsAcrossStreams: false },
    );

    describe('beyond the port', () => {
      let store: EventStoreDbEventStore;
      beforeEach(async () => {
        store = await open();
      });
      afterEach(async () => {
        await store.close();
      });

      it('stores causation and correlation with the server conventions and reads StoredEventMetadata back exactly', async () => {
        const stream = uniqueStream('session');
        const metadata: StoredEventMetadata & JsonObject = {
          time: 1_700_000_000_000,
          causationId: uuidv4(),
          correlationId: uuidv4(),
          writerSessionId: 'writer-session' as SessionId,
        };
        await store.appendToStream(stream, [
          { id: uuidv4() as EventId, type: 'teamlog/inbox/accepted', data: { ok: true }, metadata },
        ]);
        const [read] = await collect(store.readStream(stream));
        expect(read?.metadata).toEqual(metadata);
        const raw = EventStoreDBClient.connectionString(url);
        try {
          for await (const resolved of raw.readStream(stream)) {
            expect(resolved.event?.metadata).toMatchObject({
              $correlationId: metadata.correlationId,
              $causationId: metadata.causationId,
            });
          }
        } finally {
          await raw.dispose();
        }
      });

      it("keeps each event's chained digest in its metadata: the chain checks, and a raw append is unchained", async () => {
        const stream = uniqueStream('session');
        await store.appendToStream(stream, [newEvent(), newEvent()]);
        const raw = EventStoreDBClient.connectionString(url);
        try {
          await raw.appendToStream(stream, jsonEvent({ type: 'raw', data: { by: 'hand' } }));
        } finally {
          await raw.dispose();
        }
        await store.appendToStream(stream, [newEvent()]);
        const walk = startChainWalk();
        for await (const link of store.readStoredLinks()) if (link.streamName === stream) checkLink(walk, link);
        const { breaks, heads } = finishChainWalk(walk);
        expect(breaks.map((found) => [found.code, found.revision])).toEqual([['chain-event-unchained', 2n]]);
        expect(heads).toEqual([{ streamName: stream, revision: 3n, digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      });

      it('never returns system events from $all', async () => {
        const events = await collect(store.readAll({ maxCount: 500 }));
        expect(events.filter((event) => event.type.startsWith('$') || event.streamName.startsWith('$'))).toEqual([]);
      });

      it('reports the same opaque position for an event in the append result, readAll and the subscription', async () => {
        const stream = uniqueStream();
        const before = await store.headPosition();
        const appended = await store.appendToStream(stream, [newEvent('p/one'), newEvent('p/two')]);
        const fromAll = (await collect(store.readAll(before === undefined ? {} : { fromPosition: before }))).find(
          (event) => event.type === 'p/two' && event.streamName === stream,
        );
        expect(fromAll?.position).toEqual(appended.position);
        const subscription = store.subscribeToAll(before === undefined ? {} : { fromPosition: before });
        let delivered: RecordedEvent | undefined;
        for await (const event of subscription) {
          if (event.streamName === stream && event.type === 'p/two') {
            delivered = event;
            break;
          }
        }
        await subscription.unsubscribe();
        expect(delivered?.position).toEqual(appended.position);
      });

      it('refuses an append over the default 1 MiB limit before sending, and maps the server refusal too', async () => {
        const stream = uniqueStream();
        const big = Array.from({ length: 3 }, () => newEvent('big/blob', { blob: 'x'.repeat(400_000) }));
        await expect(store.appendToStream(stream, big)).rejects.toMatchObject({ code: 'AppendTooLarge' });
        // With the adapter's limit raised, the server's own MaxAppendSize (1 MiB unless configured) refuses it.
        const lenient = await open({ maxAppendBytes: 64 * 1024 * 1024 });
        try {
          await expect(lenient.appendToStream(stream, big)).rejects.toMatchObject({ code: 'AppendTooLarge' });
        } finally {
          await lenient.close();
        }
        expect(await store.streamRevision(stream)).toBeUndefined();
      });

      it('migrates a SQLite store into the server, and a second run copies nothing', async () => {
        const directory = tempDirectory();
        const source = SqliteEventStore.open(directory.path('source.db'));
        try {
          const streams = await fillSource(source, 4, 7);
          const first = await migrateStore({ from: source, to: store });
          expect(first).toMatchObject({ streams: 4, events: 28, eventsCopied: 28 });
          await expectSameStreams(source, store, streams);
          const second = await migrateStore({ from: source, to: store });
          expect(second).toMatchObject({ eventsCopied: 0, eventsAlreadyPresent: 28 });
        } finally {
          await source.close();
          directory.cleanup();
        }
      }, 60_000);
    });
  },
);
