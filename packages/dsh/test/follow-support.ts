import { promises as fs, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EventStore, RecordedEvent, StreamName } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import {
  type FollowBatch,
  type FollowOptions,
  type SessionLogFollower,
  followSessionLogs,
  importSessionLogs,
} from '../src';

export const fixturesRoot = join(__dirname, '..', '..', '..', 'fixtures');

/** A follower under test, with every batch it reported and a way to wait for a condition. */
export interface Following {
  readonly follower: SessionLogFollower;
  readonly batches: FollowBatch[];
  /** Resolves once `check` holds (checked after every batch and every 20 ms), or rejects after `ms`. */
  until(what: string, check: () => boolean | Promise<boolean>, ms?: number): Promise<void>;
}

/** Followers still running: a test that timed out never reached its own `stop`, so `stopFollowers` stops them. */
const running = new Set<{ stop(): Promise<unknown> }>();

/** Stop every follower a test left running (call it in afterEach), so no watcher or timer outlives its test. */
export const stopFollowers = async (): Promise<void> => {
  const left = [...running];
  running.clear();
  await Promise.all(left.map((follower) => follower.stop().catch(() => undefined)));
};

export const follow = async (root: string, store: EventStore, options: FollowOptions = {}): Promise<Following> => {
  const batches: FollowBatch[] = [];
  const follower = await followSessionLogs(root, store, {
    settleMs: 5,
    ...options,
    onBatch: (batch) => batches.push(batch),
  });
  running.add(follower);
  return {
    follower,
    batches,
    until: async (what, check, ms = 10_000) => {
      const deadline = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting until ${what}; batches: ${JSON.stringify(batches.map(({ number, files, appended, warnings }) => ({ number, files, appended, warnings })))}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
};

export const readStream = async (store: EventStore, stream: StreamName): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  if ((await store.streamRevision(stream)) === undefined) return events;
  for await (const event of store.readStream(stream)) events.push(event);
  return events;
};

export const streamLength = async (store: EventStore, stream: StreamName): Promise<number> => {
  const revision = await store.streamRevision(stream);
  return revision === undefined ? 0 : Number(revision) + 1;
};

/** Every stream of a SQLite store, each as [id, type, data, metadata] rows (positions and times differ between stores). */
export const storeContents = async (store: SqliteEventStore): Promise<Record<string, unknown[]>> => {
  const contents: Record<string, unknown[]> = {};
  for (const { streamName } of store.listStreams().sort((a, b) => (a.streamName < b.streamName ? -1 : 1))) {
    contents[streamName] = (await readStream(store, streamName)).map((event) => [
      event.id,
      event.type,
      event.data,
      event.metadata ?? null,
    ]);
  }
  return contents;
};

/** What a one-shot import of the final files stores: the reference a follower must end equal to. */
export const oneShotContents = async (root: string, file: string): Promise<Record<string, unknown[]>> => {
  const store = SqliteEventStore.open(file);
  try {
    const report = await importSessionLogs(root, store);
    if (report.appended === 0) throw new Error(`the one-shot import of ${root} appended nothing`);
    return await storeContents(store);
  } finally {
    await store.close();
  }
};

/** The lines of a log file, each with its newline. */
export const linesOf = (file: string): string[] => readFileSync(file, 'utf8').split(/(?<=\n)/);

export const append = async (file: string, text: string | Uint8Array): Promise<void> => {
  await fs.mkdir(dirname(file), { recursive: true });
  await fs.appendFile(file, text);
};
