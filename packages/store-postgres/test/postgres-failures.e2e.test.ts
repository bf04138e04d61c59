import { resolve } from 'node:path';
import { createTestDatabase, startThrowawayCluster } from '@teamlog/postgres-testing';
import { type RecordedEvent, streamName } from '@teamlog/store';
import { collect, newEvent } from '@teamlog/store-conformance';
import { openPostgresStore } from '@teamlog/store-postgres';
import { type RunningChild, runChild, untilLines } from '../../../test/support/child-process';
import { databaseForFile, withStore } from './test-database';

/* Real writer processes against the real server: contention, a writer killed mid-append, a server restart. */

const writer = (args: readonly string[]): RunningChild => runChild(resolve(__dirname, 'writer-child.js'), args);
/** The child's output without the store's log lines. */
const reportedBy = (child: RunningChild): string[] => child.lines.filter((line) => !line.startsWith('log '));
const loggedBy = (child: RunningChild): string[] => child.lines.filter((line) => line.startsWith('log '));
const dense = (events: readonly RecordedEvent[]) => events.every((event, index) => event.revision === BigInt(index));
const exitedCleanly = async (children: readonly RunningChild[]) => {
  const codes = await Promise.all(children.map((child) => child.exited));
  expect({ codes, stderr: children.map((child) => child.stderr()).join('') }).toEqual({
    codes: children.map(() => 0),
    stderr: '',
  });
};

describe('PostgresEventStore under failures, with writer processes on the real server', () => {
  const database = databaseForFile('failures');

  it("4 writer processes x 1,000 appends into shared streams with expected-revision retries: no gap, no duplicate, each writer's order kept", async () => {
    const prefix = `shared-${process.pid}-${Date.now().toString(36)}`;
    const streams = 8;
    const writers = Array.from({ length: 4 }, () => writer(['cas', database().url, prefix, String(streams), '1000']));
    await exitedCleanly(writers);
    await withStore(database().url, async (store) => {
      const stored: RecordedEvent[] = [];
      for (let index = 0; index < streams; index += 1) {
        const events = await collect(store.readStream(streamName(`${prefix}-${index}`)));
        expect(dense(events)).toBe(true);
        stored.push(...events);
      }
      const reported = writers.flatMap(reportedBy);
      expect(reported).toHaveLength(4_000);
      expect(stored).toHaveLength(4_000);
      expect(new Set(stored.map((event) => event.id))).toEqual(new Set(reported));
      for (const child of writers) {
        const mine = new Set(reportedBy(child));
        for (let index = 0; index < streams; index += 1) {
          const order = stored
            .filter((event) => event.streamName === `${prefix}-${index}` && mine.has(event.id))
            .map((event) => event.id);
          expect(order).toEqual(reportedBy(child).filter((id) => order.includes(id as RecordedEvent['id'])));
        }
      }
    });
  }, 180_000);

  it('a writer killed with SIGKILL mid-append: every id it reported is stored exactly once, only whole appends are, and the stream stays writable', async () => {
    const stream = streamName(`killed-${process.pid}-${Date.now().toString(36)}`);
    const victim = writer(['batches', database().url, stream, '100000', '50']);
    await untilLines(victim, 1_000);
    victim.child.kill('SIGKILL');
    await victim.exited;
    await withStore(database().url, async (store) => {
      const events = await collect(store.readStream(stream));
      expect(dense(events)).toBe(true);
      expect(events.length % 50).toBe(0);
      const stored = events.map((event) => event.id);
      expect(new Set(stored).size).toBe(stored.length);
      const ids = new Set<string>(stored);
      expect(reportedBy(victim).every((id) => ids.has(id))).toBe(true);
      // The server ended the killed writer's transaction with its connection: its stream lock is gone.
      const last = await store.streamRevision(stream);
      await expect(
        store.appendToStream(stream, [newEvent()], { expectedRevision: last ?? 'no_stream' }),
      ).resolves.toBeDefined();
    });
  }, 120_000);

  it('the server restarted mid-run: writers reconnect, every append that returned is stored once, every one that threw is stored whole or not at all', async () => {
    const cluster = await startThrowawayCluster();
    try {
      const { url } = await createTestDatabase(cluster.url, 'restart');
      await withStore(url, async () => undefined); // migrate before the writers race
      const prefix = `restart-${Date.now().toString(36)}`;
      const writers = Array.from({ length: 3 }, () => writer(['outcomes', url, prefix, '400']));
      await Promise.all(writers.map((child) => untilLines(child, 60)));
      await cluster.restart();
      await exitedCleanly(writers);
      const store = await openPostgresStore(url);
      try {
        const stored = new Map<string, number>();
        for (const event of (await collect(store.readAll())).filter((recorded) =>
          recorded.streamName.startsWith(prefix),
        ))
          stored.set(event.id, (stored.get(event.id) ?? 0) + 1);
        const lines = writers.flatMap(reportedBy);
        expect(lines).toHaveLength(1_200);
        // The restart happened under the writers: their stores retried or reconnected.
        expect(writers.flatMap(loggedBy).some((line) => /retry|reconnect/.test(line))).toBe(true);
        for (const line of lines) {
          const [outcome, ...rest] = line.split(' ');
          const ids = outcome === 'ok' ? rest : rest.slice(0, 2);
          const counts = ids.map((id) => stored.get(id) ?? 0);
          if (outcome === 'ok') expect(counts).toEqual([1, 1]);
          else
            expect([
              [0, 0],
              [1, 1],
            ]).toContainEqual(counts);
        }
        for (const child of writers) {
          const own = streamName(`${prefix}-${child.child.pid ?? 0}`);
          expect(dense(await collect(store.readStream(own)))).toBe(true);
        }
      } finally {
        await store.close();
      }
    } finally {
      await cluster.stop();
    }
  }, 180_000);
});
