import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  type ChainBreak,
  type EventStore,
  type StreamHead,
  checkLink,
  finishChainWalk,
  startChainWalk,
  streamName,
} from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { collect, describeEventStoreConformance, newEvent } from '@teamlog/store-conformance';
import { tempStoreFile } from './temp-store-file';

/* Units of appends written on the store's second thread (sqlite-writer-thread.ts) keep every promise of the port. */

const openThreaded = () => {
  const { file, cleanup } = tempStoreFile();
  const store = SqliteEventStore.open(file, { writerThread: true });
  return {
    store,
    dispose: async () => {
      await store.close();
      cleanup();
    },
  };
};

describeEventStoreConformance('SqliteEventStore (file, WAL, units written on a second thread)', async () =>
  openThreaded(),
);

const walk = async (store: EventStore): Promise<{ breaks: ChainBreak[]; heads: StreamHead[] }> => {
  const state = startChainWalk();
  for await (const link of store.readStoredLinks?.() ?? []) checkLink(state, link);
  return finishChainWalk(state);
};

describe('the writer thread', () => {
  it('chains a unit from the head its stream has at the commit, also when another append came in between', async () => {
    const { store, dispose } = openThreaded();
    try {
      const stream = streamName('session-moved');
      await store.appendToStream(stream, [newEvent('a/b', { n: 0 })]);
      const unit = store.stageAppends();
      await unit.append(stream, [newEvent('a/b', { n: 1 }), newEvent('a/b', { n: 2 })], { expectedRevision: 'any' });
      await store.appendToStream(stream, [newEvent('a/c', { n: 9 })]);
      await unit.commit();
      const other = streamName('session-still');
      const second = store.stageAppends();
      await second.append(other, [newEvent('a/b', { n: 1 })], { expectedRevision: 'no_stream' });
      await second.append(other, [newEvent('a/b', { n: 2 })]);
      await second.commit();
      const { breaks, heads } = await walk(store);
      expect(breaks).toEqual([]);
      expect(heads.map((head) => [head.streamName, head.revision])).toEqual(
        expect.arrayContaining([
          [stream, 3n],
          [other, 1n],
        ]),
      );
      expect((await collect(store.readStream(stream))).map((event) => event.data)).toEqual([
        { n: 0 },
        { n: 9 },
        { n: 1 },
        { n: 2 },
      ]);
    } finally {
      await dispose();
    }
  });

  it('keeps two units open at once apart, each committing its own rows', async () => {
    const { store, dispose } = openThreaded();
    try {
      const [left, right] = [streamName('session-left'), streamName('session-right')];
      const first = store.stageAppends();
      const second = store.stageAppends();
      await first.append(left, [newEvent('a/b', { n: 1 })], { expectedRevision: 'no_stream' });
      await second.append(right, [newEvent('a/b', { n: 10 })], { expectedRevision: 'no_stream' });
      await first.commit();
      await second.append(right, [newEvent('a/b', { n: 11 })]);
      await second.commit();
      expect((await collect(store.readStream(left))).map((event) => event.data)).toEqual([{ n: 1 }]);
      expect((await collect(store.readStream(right))).map((event) => event.data)).toEqual([{ n: 10 }, { n: 11 }]);
      expect((await walk(store)).breaks).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it('lets a process that closes its store carry on after the close, with nothing else to wait for', () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const script = `
        const { SqliteEventStore } = require('@teamlog/store-sqlite');
        (async () => {
          const store = SqliteEventStore.open(process.argv[1], { writerThread: true });
          const unit = store.stageAppends();
          await unit.append('session-exit', [{ id: '0190d000-0000-7000-8000-000000000001', type: 'a/b', data: {} }], { expectedRevision: 'no_stream' });
          await unit.commit();
          await store.close();
          console.log('closed');
        })();`;
      const child = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8', timeout: 120_000 });
      expect(child.stderr).toBe('');
      expect(child.stdout).toBe('closed\n');
    } finally {
      cleanup();
    }
  });

  it('leaves nothing of a unit whose process is killed while the writer holds its rows, and keeps every committed one', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const script = `
        const { SqliteEventStore } = require('@teamlog/store-sqlite');
        const event = (n) => ({ id: '0190d000-0000-7000-8000-' + String(n).padStart(12, '0'), type: 'a/b', data: { n } });
        (async () => {
          const store = SqliteEventStore.open(process.argv[1], { writerThread: true, maxBufferedUnitBytes: 1 });
          const committed = store.stageAppends();
          await committed.append('session-kept', [event(1), event(2)], { expectedRevision: 'no_stream' });
          await committed.commit();
          const unit = store.stageAppends();
          for (let batch = 0; batch < 20; batch += 1)
            await unit.append('session-killed', Array.from({ length: 50 }, (_, i) => event(100 + batch * 50 + i)));
          // At most two batches wait: the writer holds the others in its open transaction.
          console.log('staged');
          setInterval(() => undefined, 1000);
        })();`;
      const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      for await (const line of createInterface({ input: child.stdout })) if (line === 'staged') break;
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const store = SqliteEventStore.open(file);
      try {
        expect((await collect(store.readAll())).map((event) => `${event.streamName}@${event.revision}`)).toEqual([
          'session-kept@0',
          'session-kept@1',
        ]);
        expect((await walk(store)).breaks).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  });

  it('tells its opener once, when the first unit starts the writer thread, and not before', async () => {
    const { file, cleanup } = tempStoreFile();
    const started = jest.fn();
    const store = SqliteEventStore.open(file, { writerThread: true, writerThreadStarted: started });
    try {
      await store.appendToStream(streamName('session-plain'), [newEvent('a/b', { n: 0 })]);
      expect(started).not.toHaveBeenCalled();
      for (const n of [1, 2]) {
        const unit = store.stageAppends();
        await unit.append(streamName(`session-unit-${n}`), [newEvent('a/b', { n })], { expectedRevision: 'no_stream' });
        await unit.commit();
      }
      expect(started).toHaveBeenCalledTimes(1);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('writes nothing of an aborted unit and lets the next one commit', async () => {
    const { store, dispose } = openThreaded();
    try {
      const stream = streamName('session-aborted');
      const dropped = store.stageAppends();
      await dropped.append(stream, [newEvent('a/b', { n: 1 })], { expectedRevision: 'no_stream' });
      await dropped.abort();
      expect(await store.streamRevision(stream)).toBeUndefined();
      const kept = store.stageAppends();
      await kept.append(stream, [newEvent('a/b', { n: 2 })], { expectedRevision: 'no_stream' });
      await kept.commit();
      expect((await collect(store.readStream(stream))).map((event) => event.data)).toEqual([{ n: 2 }]);
    } finally {
      await dispose();
    }
  });
});
