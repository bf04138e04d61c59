import type { WritableEvent } from '@teamlog/events';
import { streamName } from '@teamlog/store';
import { AppendJournal } from '../src/append-journal';

const turn = (n: number) => ({ type: 'turn/start', data: { turn: n } }) as WritableEvent;
const stream = streamName('session-s-1');

describe('the journal of what this engine appended', () => {
  it('given batches that cover a fold’s gap exactly, then it hands over those events with their revisions', () => {
    const journal = new AppendJournal(4);
    journal.record(stream, 3n, [turn(1), turn(2)]);
    journal.record(stream, 5n, [turn(3)]);
    expect(journal.between(stream, 3n, 5n)?.map(({ revision, event }) => [revision, event.data])).toEqual([
      [4n, { turn: 2 }],
      [5n, { turn: 3 }],
    ]);
  });

  it('given a gap it did not write (another writer, or an entry gone), then it answers nothing and the fold reads the store', () => {
    const journal = new AppendJournal(4);
    journal.record(stream, 3n, [turn(1)]);
    journal.record(stream, 6n, [turn(2)]);
    expect(journal.between(stream, 3n, 6n)).toBeUndefined();
    expect(journal.between(stream, undefined, 3n)).toBeUndefined();
    expect(journal.between(streamName('session-other'), 1n, 2n)).toBeUndefined();
  });

  it('keeps a bounded number of streams and batches', () => {
    const journal = new AppendJournal(2, 2);
    journal.record(streamName('session-a'), 0n, [turn(1)]);
    journal.record(streamName('session-b'), 0n, [turn(1)]);
    journal.record(streamName('session-c'), 0n, [turn(1)]);
    expect(journal.between(streamName('session-a'), undefined, 0n)).toBeUndefined();
    journal.record(stream, 0n, [turn(1)]);
    journal.record(stream, 1n, [turn(2)]);
    journal.record(stream, 2n, [turn(3)]);
    expect(journal.between(stream, undefined, 2n)).toBeUndefined();
    expect(journal.between(stream, 0n, 2n)).toHaveLength(2);
  });
});
