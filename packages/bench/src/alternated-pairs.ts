/** One run of the measured case and one of its counterpart, back to back. */
export interface Pair<R> {
  readonly measured: R;
  readonly counterpart: R;
  readonly counterpartFirst: boolean;
}

/**
 * `count` pairs of runs, each pair back to back: the counterpart first in odd pairs and second in
 * even ones, so neither side always runs after the other (a warmer cache, a load that just ended).
 * `run` is the pair's number from 1.
 */
export const alternatedPairs = async <R>(
  count: number,
  measured: (run: number) => Promise<R>,
  counterpart: (run: number) => Promise<R>,
): Promise<readonly Pair<R>[]> => {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`pairs must be a positive count, got ${count}`);
  const pairs: Pair<R>[] = [];
  for (let run = 1; run <= count; run += 1) {
    if (run % 2 === 1) {
      const first = await counterpart(run);
      pairs.push({ measured: await measured(run), counterpart: first, counterpartFirst: true });
    } else {
      const first = await measured(run);
      pairs.push({ measured: first, counterpart: await counterpart(run), counterpartFirst: false });
    }
  }
  return pairs;
};
