import type { EventId } from '@teamlog/events';
import type { CommitParticipant, EventToAppend, RecordedEvent, StreamName } from '@teamlog/store';
import { FoldAhead } from '../src/fold-ahead';

const stream = (name: string): StreamName => name as StreamName;
const events = (...ids: string[]): EventToAppend[] =>
  ids.map((id) => ({ id: id as EventId, type: 't', data: { id }, metadata: undefined }));

/** A participant that records what it is staged and how often it is sent back. */
const recording = () => {
  const staged: RecordedEvent[] = [];
  let aborts = 0;
  const participant: CommitParticipant = {
    checkpoint: undefined,
    stage: (batch) => staged.push(...batch),
    prepare: () => undefined,
    committed: () => undefined,
    aborted: () => {
      aborts += 1;
    },
  };
  const fold = new FoldAhead(
    { foldAheadParticipants: () => ({ participants: [participant], last: 10n }), aborted: () => participant.aborted() },
    () => 1_000,
  );
  return { fold, staged, aborts: () => aborts };
};

describe('a unit folded ahead as it is staged', () => {
  it('hands each batch at the positions after the store and the revisions after each head', () => {
    const { fold, staged } = recording();
    const heads = new Map([[stream('a'), 4n]]);
    expect(fold.stage(stream('a'), 0, events('1', '2'), (name) => heads.get(name))).toBe(true);
    expect(fold.stage(stream('a'), 2, events('3'), (name) => heads.get(name))).toBe(true);
    expect(fold.stage(stream('b'), 0, events('4'), (name) => heads.get(name))).toBe(true);
    expect(staged.map((event) => [event.streamName, event.revision, event.position.commit])).toEqual([
      ['a', 5n, 11n],
      ['a', 6n, 12n],
      ['a', 7n, 13n],
      ['b', 0n, 14n],
    ]);
    expect(staged.every((event) => event.recordedAt.getTime() === 1_000)).toBe(true);
    expect(fold.recordedAt).toBe(1_000);
  });

  it('hands revisions as numbers (`revisionNumber`, the fold needs no BigInt) and the same ids and payloads', () => {
    const { fold, staged } = recording();
    fold.stage(stream('a'), 0, events('1', '2'), () => 4n);
    expect(staged.map((event) => [event.revisionNumber, event.id, event.type, event.data, event.metadata])).toEqual([
      [5, '1', 't', { id: '1' }, undefined],
      [6, '2', 't', { id: '2' }, undefined],
    ]);
    expect(staged.map((event) => event.position)).toEqual([
      { commit: 11n, prepare: 11n },
      { commit: 12n, prepare: 12n },
    ]);
  });

  it('hands revisions past the exact numbers as BigInts', () => {
    const { fold, staged } = recording();
    const head = BigInt(Number.MAX_SAFE_INTEGER);
    fold.stage(stream('a'), 0, events('1'), () => head);
    expect(staged.map((event) => [event.revisionNumber, event.revision, event.position.commit])).toEqual([
      [undefined, head + 1n, 11n],
    ]);
  });

  it("hands the writer's verdict on the payload on with each event", () => {
    const { fold, staged } = recording();
    const [checked, unchecked] = events('1', '2') as [EventToAppend, EventToAppend];
    fold.stage(stream('a'), 0, [{ ...checked, catalog: true }, unchecked], () => undefined);
    expect(staged.map((event) => event.catalog)).toEqual([true, false]);
  });

  it('stops and sends the participants back when a stream is staged again after another', () => {
    const { fold, staged, aborts } = recording();
    fold.stage(stream('a'), 0, events('1'), () => undefined);
    fold.stage(stream('b'), 0, events('2'), () => undefined);
    expect(fold.stage(stream('a'), 1, events('3'), () => undefined)).toBe(false);
    expect(fold.active).toBe(false);
    expect(aborts()).toBe(1);
    expect(fold.stage(stream('c'), 0, events('4'), () => undefined)).toBe(false);
    expect(staged).toHaveLength(2);
  });

  it('holds only while nothing committed since it began and no head it read moved', () => {
    const { fold } = recording();
    fold.stage(stream('a'), 0, events('1'), () => 2n);
    expect(fold.holds(10n, () => 2n)).toBe(true);
    expect(fold.holds(11n, () => 2n)).toBe(false);
    expect(fold.holds(10n, () => 3n)).toBe(false);
  });

  it('sends the participants back once on an abort, never after a commit settled it', () => {
    const aborted = recording();
    aborted.fold.stage(stream('a'), 0, events('1'), () => undefined);
    aborted.fold.restore();
    aborted.fold.restore();
    expect(aborted.aborts()).toBe(1);
    const settled = recording();
    settled.fold.stage(stream('a'), 0, events('1'), () => undefined);
    settled.fold.settle();
    settled.fold.restore();
    expect(settled.aborts()).toBe(0);
    settled.fold.abandon();
    expect(settled.aborts()).toBe(1);
  });

  it('does not start without participants that can fold ahead', () => {
    const fold = new FoldAhead({ foldAheadParticipants: () => undefined, aborted: () => undefined }, () => 0);
    expect(fold.stage(stream('a'), 0, events('1'), () => undefined)).toBe(false);
    expect(fold.active).toBe(false);
    expect(fold.holds(0n, () => undefined)).toBe(false);
  });
});
