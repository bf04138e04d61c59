import type { EventId } from '@teamlog/events';
import { type CommitParticipant, type GlobalPosition, type RecordedEvent, streamName } from '@teamlog/store';
import { SqliteEventStore } from '../src';
import { tempStoreFile } from './temp-store-file';

/*
 * A unit's participants fold each batch as it is staged, at the positions and revisions the
 * commit's copy gives (docs/rules.md#one-pass-import); the commit keeps that fold only if nothing
 * moved meanwhile, and otherwise has them start again from their committed state.
 */

type Call = readonly [string, ...string[]];

/** A participant that records what it is handed, as `stream@revision#position`. */
const recordingParticipant = (): CommitParticipant & { readonly calls: Call[] } => {
  const calls: Call[] = [];
  let committed: GlobalPosition | undefined;
  let folded: GlobalPosition | undefined;
  const describe = (events: readonly RecordedEvent[]) =>
    events.map((event) => `${event.streamName}@${event.revision}#${event.position.commit}`);
  const fold = (events: readonly RecordedEvent[]) => {
    const last = events[events.length - 1];
    if (last !== undefined) folded = last.position;
  };
  return {
    calls,
    get checkpoint() {
      return folded ?? committed;
    },
    stage: (events) => {
      calls.push(['stage', ...describe(events)]);
      fold(events);
    },
    prepare: (events) => {
      calls.push(['prepare', ...describe(events)]);
      fold(events);
    },
    committed: () => {
      calls.push(['committed']);
      committed = folded;
    },
    aborted: () => {
      calls.push(['aborted']);
      folded = undefined;
    },
  };
};

let seq = 0;
const events = (count: number) =>
  Array.from({ length: count }, () => {
    seq += 1;
    return { id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}` as EventId, type: 'x', data: { seq } };
  });

const stored = async (store: SqliteEventStore): Promise<string[]> => {
  const all: string[] = [];
  for await (const event of store.readAll()) all.push(`${event.streamName}@${event.revision}#${event.position.commit}`);
  return all;
};

describe.each([
  ['on the importing thread', false],
  ['by the writer thread', true],
])('a SQLite unit folded as it is staged, written %s', (_, writerThread) => {
  let temp: ReturnType<typeof tempStoreFile>;
  let store: SqliteEventStore;
  beforeEach(() => {
    temp = tempStoreFile();
    store = SqliteEventStore.open(temp.file, { writerThread });
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it('hands each batch to the participants as staged, at the positions the commit gives, and prepares nothing again', async () => {
    await store.appendToStream(streamName('a'), events(1));
    const participant = recordingParticipant();
    // The participant holds what is committed (position 1) before the unit begins.
    participant.prepare((await collect(store)).slice());
    participant.committed();
    participant.calls.length = 0;
    store.participate(participant);
    const unit = store.stageAppends();
    await unit.append(streamName('a'), events(2), { expectedRevision: 0n });
    await unit.append(streamName('a'), events(1), { expectedRevision: 2n });
    await unit.append(streamName('b'), events(1));
    expect(participant.calls).toEqual([
      ['stage', 'a@1#2', 'a@2#3'],
      ['stage', 'a@3#4'],
      ['stage', 'b@0#5'],
    ]);
    await unit.commit();
    expect(participant.calls.slice(3)).toEqual([['prepare'], ['committed']]);
    expect(await stored(store)).toEqual(['a@0#1', 'a@1#2', 'a@2#3', 'a@3#4', 'b@0#5']);
  });

  it('drops the fold and hands the events read back when another connection commits between staging and commit', async () => {
    const participant = recordingParticipant();
    store.participate(participant);
    const other = SqliteEventStore.open(temp.file);
    try {
      const unit = store.stageAppends();
      await unit.append(streamName('a'), events(2));
      await other.appendToStream(streamName('c'), events(1));
      await unit.commit();
      expect(participant.calls).toEqual([
        ['stage', 'a@0#1', 'a@1#2'],
        ['aborted'],
        ['prepare', 'c@0#1', 'a@0#2', 'a@1#3'],
        ['committed'],
      ]);
      expect(await stored(store)).toEqual(['c@0#1', 'a@0#2', 'a@1#3']);
    } finally {
      await other.close();
    }
  });

  it('stops folding ahead when a stream is staged again after another (the copy writes stream after stream)', async () => {
    const participant = recordingParticipant();
    store.participate(participant);
    const unit = store.stageAppends();
    await unit.append(streamName('a'), events(1));
    await unit.append(streamName('b'), events(1));
    await unit.append(streamName('a'), events(1));
    await unit.commit();
    expect(participant.calls).toEqual([
      ['stage', 'a@0#1'],
      ['stage', 'b@0#2'],
      ['aborted'],
      ['prepare', 'a@0#1', 'a@1#2', 'b@0#3'],
      ['committed'],
    ]);
  });

  it('has the participants drop the fold when the unit is aborted', async () => {
    const participant = recordingParticipant();
    store.participate(participant);
    const unit = store.stageAppends();
    await unit.append(streamName('a'), events(2));
    await unit.abort();
    expect(participant.calls).toEqual([['stage', 'a@0#1', 'a@1#2'], ['aborted']]);
    expect(await stored(store)).toEqual([]);
  });
});

const collect = async (store: SqliteEventStore): Promise<RecordedEvent[]> => {
  const all: RecordedEvent[] = [];
  for await (const event of store.readAll()) all.push(event);
  return all;
};

describe('the batches a SQLite unit on the importing thread asks for', () => {
  let temp: ReturnType<typeof tempStoreFile>;
  let store: SqliteEventStore;
  beforeEach(() => {
    temp = tempStoreFile();
    store = SqliteEventStore.open(temp.file);
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it('are 64 events when its participants fold it as it is staged (each batch dies young)', async () => {
    store.participate(recordingParticipant());
    const unit = store.stageAppends();
    expect(unit.batchEvents).toBe(64);
    await unit.abort();
  });

  it("are the caller's when nothing folds the unit as it is staged", async () => {
    const plain = store.stageAppends();
    expect(plain.batchEvents).toBeUndefined();
    await plain.abort();
    store.participate({ ...recordingParticipant(), stage: undefined });
    const unfolded = store.stageAppends();
    expect(unfolded.batchEvents).toBeUndefined();
    await unfolded.abort();
  });
});
