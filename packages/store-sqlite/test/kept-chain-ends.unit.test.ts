import type { EventDigest, StreamName } from '@teamlog/store';
import { KeptChainEnds } from '../src/kept-chain-ends';

const stream = (name: string): StreamName => name as StreamName;
const digest = (text: string): EventDigest => text as EventDigest;

describe('the chain ends a connection keeps', () => {
  it('given an end planned in the transaction under way, when looked up in it, then it is planned and not yet committed', () => {
    const ends = new KeptChainEnds();
    ends.begin();
    ends.plan(stream('s'), ends.entry(stream('s')), 0n, digest('d0'));
    const entry = ends.entry(stream('s'));
    expect(ends.isPlanned(entry)).toBe(true);
    expect(entry?.plannedRevision).toBe(0n);
    expect(entry?.plannedDigest).toBe('d0');
    expect(ends.precedes(entry, 1n)).toBe(false);
  });

  it('given a committed transaction, when the next one looks, then the planned end is the committed one and nothing is planned', () => {
    const ends = new KeptChainEnds();
    ends.begin();
    ends.plan(stream('s'), ends.entry(stream('s')), 0n, digest('d0'));
    ends.plan(stream('s'), ends.entry(stream('s')), 1n, digest('d1'));
    ends.commit();
    ends.begin();
    const entry = ends.entry(stream('s'));
    expect(ends.isPlanned(entry)).toBe(false);
    expect(ends.precedes(entry, 2n)).toBe(true);
    expect(entry?.digest).toBe('d1');
    expect(ends.precedes(entry, 1n)).toBe(false);
  });

  it('given a transaction that never committed, when the next one looks, then its plan is neither planned nor committed', () => {
    const ends = new KeptChainEnds();
    ends.begin();
    ends.plan(stream('s'), ends.entry(stream('s')), 0n, digest('d0'));
    ends.commit();
    ends.begin();
    ends.plan(stream('s'), ends.entry(stream('s')), 1n, digest('rolled back'));
    ends.begin();
    const entry = ends.entry(stream('s'));
    expect(ends.isPlanned(entry)).toBe(false);
    expect(ends.precedes(entry, 1n)).toBe(true);
    expect(entry?.digest).toBe('d0');
    ends.commit();
    expect(ends.entry(stream('s'))?.digest).toBe('d0');
  });

  it('given more streams than the limit, when committed, then the first kept are forgotten', () => {
    const ends = new KeptChainEnds(2);
    ends.begin();
    for (const name of ['a', 'b', 'c']) ends.plan(stream(name), undefined, 0n, digest(name));
    ends.commit();
    expect(ends.size).toBe(2);
    expect(ends.entry(stream('a'))).toBeUndefined();
    expect(ends.entry(stream('c'))?.digest).toBe('c');
  });

  it('given another connection wrote, when cleared, then no end is kept', () => {
    const ends = new KeptChainEnds();
    ends.begin();
    ends.plan(stream('s'), undefined, 0n, digest('d0'));
    ends.commit();
    ends.clear();
    expect(ends.entry(stream('s'))).toBeUndefined();
  });
});
