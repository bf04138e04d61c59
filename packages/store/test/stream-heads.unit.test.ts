import { StreamHeads, streamName } from '@teamlog/store';

const stream = (n: number) => streamName(`s-${n}`);

describe('stream heads', () => {
  it('given more streams than the limit, then the least recently used fall out and the rest keep their heads', () => {
    const heads = new StreamHeads(4);
    for (let n = 1; n <= 4; n += 1) heads.set(stream(n), BigInt(n));
    // Stream 1 is looked at again, so stream 2 is now the least recently used.
    heads.get(stream(1));
    heads.get(stream(3));
    heads.set(stream(5), 5n);
    heads.set(stream(6), 6n);
    expect(heads.size).toBe(4);
    expect(heads.get(stream(2))).toBeUndefined();
    expect(heads.get(stream(1))).toEqual({ revision: 1n });
    expect(heads.get(stream(5))).toEqual({ revision: 5n });
  });

  it('given a stream used within the last half of the limit, then many new streams never evict it', () => {
    const heads = new StreamHeads(100);
    heads.set(stream(0), 0n);
    for (let n = 1; n <= 1000; n += 1) {
      heads.set(stream(n), BigInt(n));
      expect(heads.get(stream(0))).toEqual({ revision: 0n });
    }
    expect(heads.size).toBe(100);
  });

  it('given a head handed out, when the stream moves on, then the holder still has the head it was given', () => {
    const heads = new StreamHeads();
    heads.set(stream(1), 1n);
    const seen = heads.get(stream(1));
    heads.set(stream(1), 2n);
    expect(seen).toEqual({ revision: 1n });
    expect(heads.get(stream(1))).toEqual({ revision: 2n });
  });
});
