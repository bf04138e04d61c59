/** A seeded pseudo-random source (mulberry32): the same seed always gives the same sequence. */
export interface DeterministicRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound). */
  below(bound: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

export const deterministicRandom = (seed: number): DeterministicRandom => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (bound) => Math.floor(next() * bound),
    chance: (p) => next() < p,
  };
};
