import { alternatedPairs } from '../src/alternated-pairs';

describe('alternatedPairs (each replay run back to back with a baseline run, the order alternated)', () => {
  it('runs the counterpart first in odd pairs and second in even ones, each pair back to back', async () => {
    const order: string[] = [];
    const pairs = await alternatedPairs(
      3,
      async (run) => {
        order.push(`replay ${run}`);
        return `replay ${run}`;
      },
      async (run) => {
        order.push(`baseline ${run}`);
        return `baseline ${run}`;
      },
    );
    expect(order).toEqual(['baseline 1', 'replay 1', 'replay 2', 'baseline 2', 'baseline 3', 'replay 3']);
    expect(pairs).toEqual([
      { measured: 'replay 1', counterpart: 'baseline 1', counterpartFirst: true },
      { measured: 'replay 2', counterpart: 'baseline 2', counterpartFirst: false },
      { measured: 'replay 3', counterpart: 'baseline 3', counterpartFirst: true },
    ]);
  });

  it('refuses a count that is not a positive integer', async () => {
    const run = async () => 0;
    await expect(alternatedPairs(0, run, run)).rejects.toThrow(RangeError);
    await expect(alternatedPairs(1.5, run, run)).rejects.toThrow(RangeError);
  });
});
