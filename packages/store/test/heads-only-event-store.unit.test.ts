import type { EventId } from '@teamlog/events';
import {
  type CommitParticipant,
  type EventToAppend,
  HeadsOnlyEventStore,
  type RecordedEvent,
  SelfRecordedEvent,
  foldedBatchEvents,
  streamName,
} from '@teamlog/store';

const events = (prefix: string, count: number): EventToAppend[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}` as EventId,
    type: 'x/event',
    data: { index },
  }));

const collect = async (iterable: AsyncIterable<RecordedEvent>): Promise<RecordedEvent[]> => {
  const found: RecordedEvent[] = [];
  for await (const event of iterable) found.push(event);
  return found;
};

/** A participant that records what each commit handed it. */
const recorder = (): CommitParticipant & { readonly commits: RecordedEvent[][]; readonly outcomes: string[] } => {
  const commits: RecordedEvent[][] = [];
  const outcomes: string[] = [];
  let checkpoint: RecordedEvent['position'] | undefined;
  let pending: RecordedEvent[] = [];
  return {
    commits,
    outcomes,
    get checkpoint() {
      return checkpoint;
    },
    prepare: (recorded) => {
      pending = [...recorded];
    },
    committed: () => {
      commits.push(pending);
      checkpoint = pending[pending.length - 1]?.position ?? checkpoint;
      outcomes.push('committed');
    },
    aborted: () => void outcomes.push('aborted'),
  };
};

const a = streamName('session-a');
const b = streamName('sessionheader-a');

describe('the heads-only store of a one-shot replay', () => {
  it("hands a unit's events, the very data objects staged, to its participants in one commit, in staging order", async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    const header = events('h', 1);
    const body = events('e', 5);
    const unit = store.stageAppends();
    await unit.append(b, header, { expectedRevision: 'no_stream' });
    await unit.append(a, body.slice(0, 3), { expectedRevision: 'no_stream' });
    await unit.append(a, body.slice(3), { expectedRevision: 2n });
    const results = await unit.commit();
    expect(results.map((result) => [result.streamName, result.nextExpectedRevision, result.events])).toEqual([
      [b, 0n, 1],
      [a, 4n, 5],
    ]);
    expect(views.commits).toHaveLength(1);
    const handed = views.commits[0] as RecordedEvent[];
    expect(handed.map((event) => [event.streamName, event.revision])).toEqual([
      [b, 0n],
      [a, 0n],
      [a, 1n],
      [a, 2n],
      [a, 3n],
      [a, 4n],
    ]);
    expect(handed[1]?.data).toBe(body[0]?.data);
    expect(await store.streamRevision(a)).toBe(4n);
    expect(store.knownRevision(a)).toEqual({ revision: 4n });
  });

  it('records each event without reading its id, and with its revision as a number beside the BigInt one', async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    let idsRead = 0;
    const counted = events('e', 4).map(
      (event): EventToAppend => ({
        type: event.type,
        data: event.data,
        get id() {
          idsRead += 1;
          return event.id;
        },
      }),
    );
    await store.appendToStream(a, counted, { expectedRevision: 'no_stream' });
    expect(idsRead).toBe(0);
    const handed = views.commits[0] as RecordedEvent[];
    expect(handed.map((event) => [event.revisionNumber, event.revision])).toEqual([
      [0, 0n],
      [1, 1n],
      [2, 2n],
      [3, 3n],
    ]);
    expect(handed.map((event) => event.position.commit === event.position.prepare)).toEqual([true, true, true, true]);
    const [last] = await collect(store.readStream(a, { direction: 'backwards', maxCount: 1 }));
    expect(last?.id).toBe('e-3');
    expect(idsRead).toBe(1);
  });

  it("keeps each stream's head only: its first and last event are read, its middle is refused", async () => {
    const store = new HeadsOnlyEventStore();
    await store.appendToStream(a, events('e', 3));
    await store.appendToStream(a, events('f', 2), { expectedRevision: 2n });
    expect((await collect(store.readStream(a, { maxCount: 1 }))).map((event) => event.id)).toEqual(['e-0']);
    expect(
      (await collect(store.readStream(a, { direction: 'backwards', from: 'end', maxCount: 1 }))).map(
        (event) => event.id,
      ),
    ).toEqual(['f-1']);
    await expect(collect(store.readStream(a))).rejects.toMatchObject({ code: 'PayloadsNotKept' });
    await expect(collect(store.readStream(a, { from: 2n, maxCount: 1 }))).rejects.toThrow(
      /stream session-a: only its first and last event are kept: this store keeps no events/,
    );
    await expect(collect(store.readStream(b))).rejects.toMatchObject({ code: 'StreamNotFound' });
  });

  it('reads a stream of one or two events whole', async () => {
    const store = new HeadsOnlyEventStore();
    await store.appendToStream(b, events('h', 2));
    expect((await collect(store.readStream(b))).map((event) => event.id)).toEqual(['h-0', 'h-1']);
    expect((await collect(store.readStream(b, { direction: 'backwards' }))).map((event) => event.id)).toEqual([
      'h-1',
      'h-0',
    ]);
  });

  it('checks expected revisions against the heads, at append and at commit, writing nothing of a failed unit', async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    await store.appendToStream(a, events('e', 2), { expectedRevision: 'no_stream' });
    await expect(store.appendToStream(a, events('f', 1), { expectedRevision: 0n })).rejects.toMatchObject({
      code: 'WrongExpectedVersion',
    });
    const unit = store.stageAppends();
    await unit.append(b, events('h', 1), { expectedRevision: 'no_stream' });
    await unit.append(a, events('g', 1), { expectedRevision: 'no_stream' });
    await expect(unit.commit()).rejects.toMatchObject({ code: 'WrongExpectedVersion' });
    expect(await store.streamRevision(b)).toBeUndefined();
    expect(await store.streamRevision(a)).toBe(1n);
    expect(views.commits).toHaveLength(1);
  });

  it('refuses an event with an empty type, and (keeping no ids) compares no ids', async () => {
    const store = new HeadsOnlyEventStore();
    await expect(store.appendToStream(a, [{ id: 'x' as EventId, type: '', data: {} }])).rejects.toMatchObject({
      code: 'InvalidAppend',
    });
    await store.appendToStream(a, events('same', 1));
    await expect(store.appendToStream(b, events('same', 1))).resolves.toMatchObject({ nextExpectedRevision: 0n });
  });

  it('reads nothing from $all at its head, and refuses to read what lies behind it', async () => {
    const store = new HeadsOnlyEventStore();
    expect(await collect(store.readAll())).toEqual([]);
    const { position } = await store.appendToStream(a, events('e', 2));
    expect(await collect(store.readAll({ fromPosition: position }))).toEqual([]);
    await expect(collect(store.readAll())).rejects.toMatchObject({ code: 'PayloadsNotKept' });
    expect(() => store.subscribeToAll()).toThrow(expect.objectContaining({ code: 'PayloadsNotKept' }));
  });

  it('refuses a commit a participant that joined late would miss events of, and the commit writes nothing', async () => {
    const store = new HeadsOnlyEventStore();
    await store.appendToStream(a, events('e', 1));
    const late = recorder();
    store.participate(late);
    await expect(store.appendToStream(a, events('f', 1))).rejects.toThrow(
      /a commit participant joined after events were committed/,
    );
    expect(await store.streamRevision(a)).toBe(0n);
    expect(late.commits).toEqual([]);
  });

  it('fails the commit for every participant when one throws, and keeps nothing of it', async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    store.participate({
      checkpoint: undefined,
      prepare: () => {
        throw new Error('fold failed');
      },
      committed: () => undefined,
      aborted: () => undefined,
    });
    await expect(store.appendToStream(a, events('e', 2))).rejects.toThrow('fold failed');
    expect(views.outcomes).toEqual(['aborted']);
    expect(await store.streamRevision(a)).toBeUndefined();
  });
});

/** A participant that folds a unit as it is staged, recording every call in order. */
const folder = (): CommitParticipant & { readonly calls: string[] } => {
  const calls: string[] = [];
  let checkpoint: RecordedEvent['position'] | undefined;
  let folded: RecordedEvent['position'] | undefined;
  return {
    calls,
    get checkpoint() {
      return checkpoint;
    },
    stage: (recorded) => {
      calls.push(`stage ${recorded.map((event) => `${event.streamName}@${event.revision}`).join(',')}`);
      folded = recorded[recorded.length - 1]?.position ?? folded;
    },
    prepare: (recorded) => void calls.push(`prepare ${recorded.length}`),
    committed: () => {
      checkpoint = folded;
      calls.push('committed');
    },
    aborted: () => {
      folded = checkpoint;
      calls.push('aborted');
    },
  };
};

/** An event to append that the store may record as itself. */
class OwnRecord extends SelfRecordedEvent {
  readonly type = 'x/event';
  readonly metadata = undefined;
  readonly catalog = false;
  lettingGo = 0;

  constructor(
    readonly id: EventId,
    readonly data: { readonly index: number },
  ) {
    super();
  }

  protected override recorded(): void {
    this.lettingGo += 1;
  }
}

const ownRecords = (prefix: string, count: number): OwnRecord[] =>
  Array.from({ length: count }, (_, index) => new OwnRecord(`${prefix}-${index}` as EventId, { index }));

describe('an event the heads-only store records as itself', () => {
  it('is handed to the participants as the very object appended, with its stream, revision and position filled in', async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    const appended = ownRecords('e', 3);
    await store.appendToStream(a, appended, { expectedRevision: 'no_stream' });
    const unit = store.stageAppends();
    const more = ownRecords('f', 2);
    await unit.append(a, more, { expectedRevision: 2n });
    await unit.commit();
    const handed = views.commits.flat();
    expect(handed).toHaveLength(5);
    [...appended, ...more].forEach((event, index) => expect(handed[index]).toBe(event));
    expect(handed.map((event) => [event.streamName, event.revisionNumber, event.revision])).toEqual([
      [a, 0, 0n],
      [a, 1, 1n],
      [a, 2, 2n],
      [a, 3, 3n],
      [a, 4, 4n],
    ]);
    const commits = handed.map((event) => event.position.commit);
    expect(commits.every((commit, index) => index === 0 || commit > (commits[index - 1] as bigint))).toBe(true);
    expect(handed.every((event) => event.position.prepare === event.position.commit)).toBe(true);
    expect(appended.map((event) => event.lettingGo)).toEqual([1, 1, 1]);
    const [last] = await collect(store.readStream(a, { direction: 'backwards', maxCount: 1 }));
    expect(last).toBe(more[1]);
  });

  it('is handed on in the very array appended when every event of the batch is, and in a new one otherwise', async () => {
    const store = new HeadsOnlyEventStore();
    const handed: (readonly RecordedEvent[])[] = [];
    const views = recorder();
    store.participate({
      get checkpoint() {
        return views.checkpoint;
      },
      prepare: (recorded) => {
        handed.push(recorded);
        views.prepare(recorded);
      },
      committed: () => views.committed(),
      aborted: () => views.aborted(),
    });
    const own = ownRecords('e', 3);
    await store.appendToStream(a, own, { expectedRevision: 'no_stream' });
    const mixed: EventToAppend[] = [...ownRecords('f', 2), ...events('g', 1)];
    await store.appendToStream(a, mixed, { expectedRevision: 2n });
    expect(handed[0]).toBe(own);
    expect(handed[1]).not.toBe(mixed);
    expect(handed[1]?.slice(0, 2)).toEqual(mixed.slice(0, 2));
    expect(handed[1]?.map((event) => [event.id, event.revisionNumber])).toEqual([
      ['f-0', 3],
      ['f-1', 4],
      ['g-0', 5],
    ]);
  });

  it('is recorded elsewhere as a new record when appended again, its first record unchanged', async () => {
    const store = new HeadsOnlyEventStore();
    const views = recorder();
    store.participate(views);
    const [event] = ownRecords('e', 1) as [OwnRecord];
    await store.appendToStream(a, [event], { expectedRevision: 'no_stream' });
    await store.appendToStream(b, [event], { expectedRevision: 'no_stream' });
    const [first, again] = views.commits.flat() as [RecordedEvent, RecordedEvent];
    expect(first).toBe(event);
    expect(again).not.toBe(event);
    expect([first.streamName, first.revisionNumber]).toEqual([a, 0]);
    expect([again.streamName, again.revisionNumber, again.id, again.data]).toEqual([b, 0, 'e-0', { index: 0 }]);
    expect(again.position.commit > first.position.commit).toBe(true);
    expect(event.lettingGo).toBe(1);
  });
});

describe('a unit of the heads-only store, folded as it is staged', () => {
  it('hands each batch to the participants as it is staged, then commits them with nothing left to hand', async () => {
    const store = new HeadsOnlyEventStore();
    const views = folder();
    store.participate(views);
    const unit = store.stageAppends();
    await unit.append(b, events('h', 1), { expectedRevision: 'no_stream' });
    await unit.append(a, events('e', 2), { expectedRevision: 'no_stream' });
    expect(views.calls).toEqual(['stage sessionheader-a@0', 'stage session-a@0,session-a@1']);
    await unit.append(a, events('f', 1), { expectedRevision: 1n });
    const results = await unit.commit();
    expect(views.calls).toEqual([
      'stage sessionheader-a@0',
      'stage session-a@0,session-a@1',
      'stage session-a@2',
      'prepare 0',
      'committed',
    ]);
    expect(results.map((result) => [result.streamName, result.nextExpectedRevision, result.events])).toEqual([
      [b, 0n, 1],
      [a, 2n, 3],
    ]);
    expect(await store.streamRevision(a)).toBe(2n);
    expect((await collect(store.readStream(a, { maxCount: 1 })))[0]?.id).toBe('e-0');
  });

  it('asks for small batches when it folds each one as staged, and for none when it holds them to the commit', () => {
    const folding = new HeadsOnlyEventStore();
    folding.participate(folder());
    expect(folding.stageAppends().batchEvents).toBe(foldedBatchEvents);
    const holding = new HeadsOnlyEventStore();
    holding.participate(recorder());
    expect(holding.stageAppends().batchEvents).toBeUndefined();
  });

  it('records a batch split into batches of the size it asks for at the positions it records the batch whole', async () => {
    const positionsOf = async (sizes: readonly number[]): Promise<string[]> => {
      const store = new HeadsOnlyEventStore();
      const views = folder();
      const seen: string[] = [];
      store.participate({
        ...views,
        stage: (recorded) => recorded.forEach((event) => seen.push(String(event.position.commit))),
      });
      const unit = store.stageAppends();
      let expected: bigint | 'no_stream' = 'no_stream';
      for (const size of sizes) {
        await unit.append(a, events('e', size), { expectedRevision: expected });
        expected = (expected === 'no_stream' ? -1n : expected) + BigInt(size);
      }
      await unit.commit();
      return seen;
    };
    const whole = await positionsOf([600]);
    expect(await positionsOf([foldedBatchEvents, foldedBatchEvents, 600 - 2 * foldedBatchEvents])).toEqual(whole);
  });

  it('has the participants drop what they folded when the unit is aborted, and keeps nothing of it', async () => {
    const store = new HeadsOnlyEventStore();
    const views = folder();
    store.participate(views);
    const unit = store.stageAppends();
    await unit.append(a, events('e', 3), { expectedRevision: 'no_stream' });
    await unit.abort();
    expect(views.calls).toEqual(['stage session-a@0,session-a@1,session-a@2', 'aborted']);
    expect(await store.streamRevision(a)).toBeUndefined();
  });

  it('has the participants drop what they folded when the commit finds the expectation unmet', async () => {
    const store = new HeadsOnlyEventStore();
    await store.appendToStream(a, events('e', 1));
    const views = folder();
    const { position } = await store.appendToStream(b, events('h', 1));
    Object.defineProperty(views, 'checkpoint', { get: () => position });
    store.participate(views);
    const unit = store.stageAppends();
    await unit.append(a, events('f', 1), { expectedRevision: 'no_stream' });
    await expect(unit.commit()).rejects.toMatchObject({ code: 'WrongExpectedVersion' });
    expect(views.calls).toEqual(['stage session-a@1', 'aborted']);
    expect(await store.streamRevision(a)).toBe(0n);
  });

  it('refuses any other append while a unit holds staged events, and takes them again once it is over', async () => {
    const store = new HeadsOnlyEventStore();
    const unit = store.stageAppends();
    await unit.append(a, events('e', 1), { expectedRevision: 'no_stream' });
    await expect(store.appendToStream(b, events('h', 1))).rejects.toThrow(/a unit of this store holds staged events/);
    const other = store.stageAppends();
    await expect(other.append(b, events('h', 1))).rejects.toMatchObject({ code: 'InvalidAppend' });
    await unit.commit();
    await expect(store.appendToStream(b, events('h', 1))).resolves.toMatchObject({ nextExpectedRevision: 0n });
  });

  it('may be staged while its input is validated only while its participants hold nothing, which an abort restores exactly', async () => {
    const store = new HeadsOnlyEventStore();
    expect(store.stageAppends().stagesWhileValidating).toBe(false);
    store.participate(folder());
    const first = store.stageAppends();
    expect(first.stagesWhileValidating).toBe(true);
    await first.append(a, events('e', 1), { expectedRevision: 'no_stream' });
    await first.commit();
    expect(store.stageAppends().stagesWhileValidating).toBe(false);
  });

  it('refuses as a race the first batch of a unit staged while validating when another commit came after the unit began, folding nothing', async () => {
    const store = new HeadsOnlyEventStore();
    const views = folder();
    store.participate(views);
    const unit = store.stageAppends();
    expect(unit.stagesWhileValidating).toBe(true);
    await store.appendToStream(b, events('h', 1));
    await expect(unit.append(a, events('e', 1), { expectedRevision: 'no_stream' })).rejects.toMatchObject({
      code: 'WrongExpectedVersion',
    });
    await unit.abort();
    expect(views.calls).toEqual(['prepare 1', 'committed']);
    expect(await store.streamRevision(a)).toBeUndefined();
  });

  it("refuses a batch of a stream whose earlier batches another stream's followed", async () => {
    const store = new HeadsOnlyEventStore();
    const unit = store.stageAppends();
    await unit.append(a, events('e', 1), { expectedRevision: 'no_stream' });
    await unit.append(b, events('h', 1), { expectedRevision: 'no_stream' });
    await expect(unit.append(a, events('f', 1), { expectedRevision: 0n })).rejects.toThrow(
      /a stream's batches must follow each other/,
    );
  });
});

/** A folder that says, per batch, whether it could undo it: `undoes` decides from the batch's first stream. */
const undoer = (undoes: (stream: string) => boolean) => {
  const views = folder();
  const positions: bigint[] = [];
  const stage = views.stage?.bind(views);
  return Object.assign(views, {
    positions,
    stage: (recorded: readonly RecordedEvent[]) => {
      for (const event of recorded) positions.push(event.position.commit);
      stage?.(recorded);
    },
    undoesStaged: (recorded: readonly RecordedEvent[]) => {
      const stream = String(recorded[0]?.streamName);
      views.calls.push(`undoes ${stream}?`);
      return undoes(stream);
    },
  });
};

/** The participants' first unit: one event of stream `a`, folded as staged from empty views. */
const seed = async (store: HeadsOnlyEventStore): Promise<void> => {
  const unit = store.stageAppends();
  await unit.append(a, events('e', 1), { expectedRevision: 'no_stream' });
  await unit.commit();
};

describe('a unit of the heads-only store staged onto participants that hold something and can undo it', () => {
  it('is staged while its input is validated, folds each batch its participants can undo, and an abort leaves not even its positions', async () => {
    const store = new HeadsOnlyEventStore();
    const views = undoer(() => true);
    store.participate(views);
    await seed(store);
    const c = streamName('session-c');

    const unit = store.stageAppends();
    expect(unit.stagesWhileValidating).toBe(true);
    await unit.append(b, events('h', 1), { expectedRevision: 'no_stream' });
    await unit.append(c, events('f', 2), { expectedRevision: 'no_stream' });
    await unit.abort();
    const again = store.stageAppends();
    await again.append(b, events('h', 1), { expectedRevision: 'no_stream' });
    await again.append(c, events('f', 2), { expectedRevision: 'no_stream' });
    await again.commit();

    expect(views.calls).toEqual([
      'stage session-a@0',
      'prepare 0',
      'committed',
      'undoes sessionheader-a?',
      'stage sessionheader-a@0',
      'undoes session-c?',
      'stage session-c@0,session-c@1',
      'aborted',
      'undoes sessionheader-a?',
      'stage sessionheader-a@0',
      'undoes session-c?',
      'stage session-c@0,session-c@1',
      'prepare 0',
      'committed',
    ]);
    expect(views.positions.slice(4)).toEqual(views.positions.slice(1, 4));
    expect(await store.streamRevision(c)).toBe(1n);
  });

  it('holds a batch a participant cannot undo, and every later one, to the commit, so an abort has only the folded ones to undo', async () => {
    const held = async (end: 'commit' | 'abort') => {
      const store = new HeadsOnlyEventStore();
      const views = undoer((stream) => stream !== String(a));
      store.participate(views);
      await seed(store);
      const unit = store.stageAppends();
      await unit.append(b, events('h', 1), { expectedRevision: 'no_stream' });
      await unit.append(a, events('f', 2), { expectedRevision: 0n });
      await unit.append(streamName('session-c'), events('g', 1), { expectedRevision: 'no_stream' });
      await (end === 'commit' ? unit.commit() : unit.abort());
      return { calls: views.calls.slice(3), revision: await store.streamRevision(a) };
    };

    expect(await held('commit')).toEqual({
      calls: ['undoes sessionheader-a?', 'stage sessionheader-a@0', 'undoes session-a?', 'prepare 3', 'committed'],
      revision: 2n,
    });
    expect(await held('abort')).toEqual({
      calls: ['undoes sessionheader-a?', 'stage sessionheader-a@0', 'undoes session-a?', 'aborted'],
      revision: 0n,
    });
  });

  it('folds nothing as staged when its first batch cannot be undone, and its abort tells the participants nothing', async () => {
    const store = new HeadsOnlyEventStore();
    const views = undoer(() => false);
    store.participate(views);
    await seed(store);
    const unit = store.stageAppends();
    await unit.append(a, events('f', 2), { expectedRevision: 0n });
    await unit.abort();
    expect(views.calls).toEqual(['stage session-a@0', 'prepare 0', 'committed', 'undoes session-a?']);
    expect(await store.streamRevision(a)).toBe(0n);
  });
});

describe('a unit of the heads-only store whose participants fold runs of a type from their ends', () => {
  /** Events of the given types, in order. */
  const typed = (prefix: string, types: readonly string[]): EventToAppend[] =>
    types.map((type, index) => ({ id: `${prefix}-${index}` as EventId, type, data: { index } }));
  const run = (count: number): string[] => Array.from({ length: count }, () => 'x/chunk');
  const batch = typed('e', ['x/event', ...run(5), 'x/event', ...run(2), 'x/event', ...run(4)]);

  const staged = async (foldsRunEndsOf: string | undefined, holding = false): Promise<RecordedEvent[]> => {
    const store = new HeadsOnlyEventStore();
    const handed: RecordedEvent[] = [];
    const views = folder();
    store.participate({
      get checkpoint() {
        return views.checkpoint;
      },
      committed: () => views.committed(),
      aborted: () => views.aborted(),
      ...(foldsRunEndsOf === undefined ? {} : { foldsRunEndsOf }),
      ...(holding ? { undoesStaged: () => false } : {}),
      stage: (recorded) => {
        handed.push(...recorded);
        views.stage?.(recorded);
      },
      prepare: (recorded) => {
        handed.push(...recorded);
        views.prepare(recorded);
      },
    });
    if (holding) await seed(store);
    const stream = holding ? streamName('session-c') : a;
    const unit = store.stageAppends();
    await unit.append(stream, batch, { expectedRevision: 'no_stream' });
    await unit.commit();
    const [first] = await collect(store.readStream(stream, { maxCount: 1 }));
    const [last] = await collect(store.readStream(stream, { direction: 'backwards', maxCount: 1 }));
    expect(first?.id).toBe('e-0');
    expect(last?.id).toBe(`e-${batch.length - 1}`);
    expect(await store.streamRevision(stream)).toBe(BigInt(batch.length - 1));
    return holding ? handed.slice(1) : handed;
  };
  const revisions = (events: readonly RecordedEvent[]): bigint[] => events.map((event) => event.revision);

  it('hands them only the first and last event of each run of three or more, at the positions they take in the whole batch', async () => {
    const whole = await staged(undefined);
    const ends = await staged('x/chunk');
    expect(revisions(whole)).toEqual(Array.from({ length: batch.length }, (_, index) => BigInt(index)));
    expect(revisions(ends)).toEqual([0n, 1n, 5n, 6n, 7n, 8n, 9n, 10n, 13n]);
    const positionOf = new Map(whole.map((event) => [event.revision, event.position]));
    for (const event of ends) expect(event.position).toEqual(positionOf.get(event.revision));
  });

  it('hands every event of a batch it holds to the commit, at the same positions', async () => {
    const whole = await staged(undefined, true);
    const held = await staged('x/chunk', true);
    expect(revisions(held)).toEqual(revisions(whole));
    expect(held.map((event) => event.position)).toEqual(whole.map((event) => event.position));
  });
});
