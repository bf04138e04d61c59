import { randomUUID } from 'node:crypto';
import type { EventId } from '@teamlog/events';
import {
  type GlobalPosition,
  HeadsOnlyEventStore,
  InMemoryEventStore,
  type RecordedEvent,
  comparePositions,
  streamName,
} from '@teamlog/store';
import {
  InMemoryViewStore,
  type LoadedViews,
  type Projection,
  ProjectionRunner,
  type ViewStore,
  defaultBatchSize,
  ProjectionError,
} from '@teamlog/projections';

/** A projection that lists what it saw, so a skipped or repeated event shows. */
const seen: Projection<string[]> = {
  name: 'seen',
  initial: () => [],
  evolve: (state, event) => [...state, `${event.streamName}:${event.revision}`],
};

const append = async (store: InMemoryEventStore, stream: string, count: number): Promise<GlobalPosition> => {
  const result = await store.appendToStream(
    streamName(stream),
    Array.from({ length: count }, (_, n) => ({ id: randomUUID() as EventId, type: 'test/event', data: { n } })),
  );
  return result.position;
};

/** Keeps what was committed, like a durable store, and can be told to fail. */
class RecordingViewStore implements ViewStore<string[]> {
  committed: LoadedViews<string[]> = { state: [], checkpoint: undefined };
  commits: GlobalPosition[] = [];
  failNext = false;

  async load(): Promise<LoadedViews<string[]>> {
    return { state: [...this.committed.state], checkpoint: this.committed.checkpoint };
  }

  async commit(state: string[], checkpoint: GlobalPosition): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    this.committed = { state: [...state], checkpoint };
    this.commits.push(checkpoint);
  }

  async reset(): Promise<LoadedViews<string[]>> {
    this.committed = { state: [], checkpoint: undefined };
    return this.load();
  }
}

describe('projection runner', () => {
  it('catches up from the checkpoint, committing each batch with the position of its last event', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 5);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 2 });
    expect(await runner.catchUp()).toBe(5);
    expect(views.commits).toHaveLength(3);
    expect(views.committed.state).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'a:4']);
    const last = await append(store, 'b', 1);
    expect(await runner.catchUp()).toBe(1);
    expect(runner.checkpoint).toEqual(last);
  });

  it('given a restart, when it catches up again, then it starts after the committed checkpoint: nothing repeated', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 3);
    const views = new RecordingViewStore();
    await new ProjectionRunner(store, seen, views).catchUp();
    await append(store, 'a', 2);
    const restarted = new ProjectionRunner(store, seen, views);
    expect(await restarted.catchUp()).toBe(2);
    expect(views.committed.state).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'a:4']);
  });

  it('given a failed commit, then the runner returns to the committed views and the next catch-up applies the batch once', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 2);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 10 });
    await runner.catchUp();
    await append(store, 'a', 2);
    views.failNext = true;
    await expect(runner.catchUp()).rejects.toMatchObject({ code: 'ProjectionCommitFailed' });
    expect(runner.state).toEqual(['a:0', 'a:1']);
    await runner.catchUp();
    expect(runner.state).toEqual(['a:0', 'a:1', 'a:2', 'a:3']);
    expect(views.committed.state).toEqual(runner.state);
  });

  it('given a batch waiting for its commit, then the folded position is that of the state, ahead of the checkpoint', async () => {
    const store = new InMemoryEventStore();
    const first = await append(store, 'a', 1);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 10 });
    await runner.catchUp();
    const last = await append(store, 'a', 2);
    let release: () => void = () => undefined;
    const committed = views.commit.bind(views);
    views.commit = async (state, checkpoint) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return committed(state, checkpoint);
    };
    const caughtUp = runner.catchUp();
    while (runner.state.length < 3) await new Promise((resolve) => setImmediate(resolve));
    expect(runner.checkpoint).toEqual(first);
    expect(runner.foldedPosition).toEqual(last);
    release();
    await caughtUp;
    expect(runner.checkpoint).toEqual(last);
    expect(runner.foldedPosition).toEqual(last);
  });

  it('rebuilds from zero to the same views', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 3);
    await append(store, 'b', 2);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 2 });
    await runner.catchUp();
    const caughtUp = [...runner.state];
    expect(await runner.rebuild()).toBe(5);
    expect(runner.state).toEqual(caughtUp);
  });

  it('follows new appends live and commits when the feed goes quiet', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 2);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 1000 });
    runner.start();
    const position = await append(store, 'b', 3);
    await runner.waitFor(position);
    expect(views.committed.state).toEqual(['a:0', 'a:1', 'b:0', 'b:1', 'b:2']);
    expect(comparePositions(runner.checkpoint as GlobalPosition, position)).toBe(0);
    await runner.stop();
  });

  it('runs one activity at a time', async () => {
    const store = new InMemoryEventStore();
    const runner = new ProjectionRunner(store, seen, new InMemoryViewStore(seen));
    runner.start();
    await expect(runner.catchUp()).rejects.toMatchObject({ code: 'ProjectionBusy' });
    expect(() => runner.start()).toThrow(expect.objectContaining({ code: 'ProjectionBusy' }));
    await runner.stop();
    await expect(runner.catchUp()).resolves.toBe(0);
  });

  it('rejects waiting for a position once the live run stops', async () => {
    const store = new InMemoryEventStore();
    const runner = new ProjectionRunner(store, seen, new InMemoryViewStore(seen));
    runner.start();
    const waiting = runner.waitFor({ commit: 10n ** 12n, prepare: 10n ** 12n });
    await runner.stop();
    await expect(waiting).rejects.toMatchObject({ code: 'ProjectionStopped' });
  });

  it('never applies an event at or before what it already folded, even if the store repeats it', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 2);
    const events: RecordedEvent[] = [];
    for await (const event of store.readAll()) events.push(event);
    const repeating = Object.assign(Object.create(store) as InMemoryEventStore, {
      readAll: async function* () {
        yield* events;
        yield* events;
      },
    });
    const runner = new ProjectionRunner(repeating, seen, new InMemoryViewStore(seen));
    expect(await runner.catchUp()).toBe(2);
    expect(runner.state).toEqual(['a:0', 'a:1']);
  });
});

describe('projection runner commit cadence', () => {
  const allPositions = async (store: InMemoryEventStore): Promise<GlobalPosition[]> => {
    const positions: GlobalPosition[] = [];
    for await (const event of store.readAll()) positions.push(event.position);
    return positions;
  };

  /** The number of events each commit held, from the committed checkpoints. */
  const eventsPerCommit = (commits: readonly GlobalPosition[], positions: readonly GlobalPosition[]): number[] =>
    commits.map((commit) => positions.findIndex((position) => comparePositions(position, commit) === 0) + 1);

  it('given a clock that moves 250 ms per event, then a catch-up commits 1000 ms after the first uncommitted event, and at the end', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 12);
    let now = 0;
    const slow: Projection<string[]> = {
      ...seen,
      evolve: (state, event) => {
        now += 250;
        return seen.evolve(state, event);
      },
    };
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, slow, views, {
      batchSize: 100,
      commitIntervalMs: 1000,
      monotonicClock: () => now,
    });
    expect(await runner.catchUp()).toBe(12);
    expect(eventsPerCommit(views.commits, await allPositions(store))).toEqual([5, 10, 12]);
    expect(views.committed.state).toHaveLength(12);
  });

  it('given the same clock and a smaller batch size, then the batch size comes first', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 12);
    let now = 0;
    const slow: Projection<string[]> = {
      ...seen,
      evolve: (state, event) => {
        now += 250;
        return seen.evolve(state, event);
      },
    };
    const views = new RecordingViewStore();
    await new ProjectionRunner(store, slow, views, {
      batchSize: 4,
      commitIntervalMs: 1000,
      monotonicClock: () => now,
    }).catchUp();
    expect(eventsPerCommit(views.commits, await allPositions(store))).toEqual([4, 8, 12]);
  });

  it('given no options and a clock that stands still, then a catch-up commits every defaultBatchSize events', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', defaultBatchSize + 1);
    const views = new RecordingViewStore();
    await new ProjectionRunner(store, seen, views, { monotonicClock: () => 0 }).catchUp();
    expect(eventsPerCommit(views.commits, await allPositions(store))).toEqual([defaultBatchSize, defaultBatchSize + 1]);
  });

  it('given a live run, then it commits as soon as the feed goes quiet, long before the batch size or interval', async () => {
    const store = new InMemoryEventStore();
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, {
      batchSize: 1000,
      commitIntervalMs: 60_000,
      monotonicClock: () => 0,
    });
    runner.start();
    const first = await append(store, 'a', 1);
    await runner.waitFor(first);
    const second = await append(store, 'a', 2);
    await runner.waitFor(second);
    expect(views.commits.length).toBeGreaterThanOrEqual(2);
    expect(views.committed.state).toEqual(['a:0', 'a:1', 'a:2']);
    await runner.stop();
  });
});

describe('projection runner beside another runner', () => {
  it('given views committed elsewhere, then it reloads them, writes nothing of its own batch and reads on from their checkpoint', async () => {
    const store = new InMemoryEventStore();
    await append(store, 'a', 4);
    const views = new RecordingViewStore();
    const runner = new ProjectionRunner(store, seen, views, { batchSize: 2 });
    // Another runner commits the first two events while this one is folding them.
    const all: RecordedEvent[] = [];
    for await (const event of store.readAll()) all.push(event);
    const elsewhere = { state: ['a:0', 'a:1'], checkpoint: (all[1] as RecordedEvent).position };
    let first = true;
    views.commit = async function (this: RecordingViewStore, state: string[], checkpoint: GlobalPosition) {
      if (first) {
        first = false;
        this.committed = elsewhere;
        throw new ProjectionError({
          code: 'ViewsChangedElsewhere',
          projection: 'seen',
          expected: 'none',
          found: '1/1',
        });
      }
      return RecordingViewStore.prototype.commit.call(this, state, checkpoint);
    };
    expect(await runner.catchUp()).toBe(4);
    expect(views.committed.state).toEqual(['a:0', 'a:1', 'a:2', 'a:3']);
  });
});

describe('a runner folding inline with a projection that folds batches', () => {
  /** Lists what it saw, a batch as `from..to` of the events it is handed; folds runs of `test/chunk` from their ends. */
  const batches: Projection<string[]> = {
    ...seen,
    evolveBatch: (state, events, from) => [...state, `${from}..${events.length}`],
    foldsRunEndsOf: 'test/chunk',
  };

  it("hands a commit's events after its checkpoint to the projection's batch fold, and names its run type to the store", async () => {
    const store = new HeadsOnlyEventStore();
    const runner = new ProjectionRunner(store, batches, new InMemoryViewStore(batches));
    await runner.load();
    const detach = runner.foldInline();
    const unit = store.stageAppends();
    const types = ['test/event', 'test/chunk', 'test/chunk', 'test/chunk', 'test/chunk', 'test/event'];
    await unit.append(
      streamName('s'),
      types.map((type, n) => ({ id: randomUUID() as EventId, type, data: { n } })),
      { expectedRevision: 'no_stream' },
    );
    await unit.commit();
    detach?.();
    // The store left out the run's two middle events: the projection was handed four.
    expect(runner.state).toEqual(['0..4']);
  });
});
