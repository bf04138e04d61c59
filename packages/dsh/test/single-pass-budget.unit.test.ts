import { SinglePassBudget, bufferedEventOverheadBytes, projectionWarmUpBytes } from '../src/single-pass-budget';

const perEvent = (lineBytes: number): number => lineBytes + bufferedEventOverheadBytes;

describe('the single-pass budget', () => {
  it('admits events while their estimate (line bytes + overhead per event) fits, then refuses for good', () => {
    const budget = new SinglePassBudget(3 * perEvent(100), undefined);
    expect([2, 3, 4].map((line) => budget.admit(line, 100))).toEqual([true, true, true]);
    expect(budget.admit(5, 100)).toBe(false);
    expect(budget.admit(6, 0)).toBe(false);
  });

  it('counts the line of a packed row once for all its members', () => {
    const budget = new SinglePassBudget(100 + 3 * bufferedEventOverheadBytes, undefined);
    expect([1, 2, 3].map(() => budget.admit(7, 100))).toEqual([true, true, true]);
    expect(budget.admit(7, 100)).toBe(false);
  });

  it('refuses from the start a raw file larger than the budget, and everything with a budget of 0', () => {
    expect(new SinglePassBudget(1000, 1001).admit(2, 1)).toBe(false);
    expect(new SinglePassBudget(1000, 1000).admit(2, 1)).toBe(true);
    expect(new SinglePassBudget(0, undefined).admit(2, 0)).toBe(false);
  });

  it('projects a raw file from the share read once past the warm-up, and stops early when it will not fit', () => {
    const lineBytes = 1024;
    const lines = projectionWarmUpBytes / lineBytes;
    // 10 warm-ups of lines would take about 14 MiB; the budget is 12 MiB and the file 10 MiB.
    const fileBytes = 10 * projectionWarmUpBytes;
    const budget = new SinglePassBudget(12 * projectionWarmUpBytes, fileBytes);
    const admitted = Array.from({ length: lines }, (_, k) => budget.admit(k + 2, lineBytes));
    expect(admitted.slice(0, -1).every((ok) => ok)).toBe(true);
    expect(admitted[admitted.length - 1]).toBe(false);
    // The same file with room for it is admitted whole.
    const roomy = new SinglePassBudget(15 * projectionWarmUpBytes, fileBytes);
    expect(Array.from({ length: 10 * lines }, (_, k) => roomy.admit(k + 2, lineBytes)).every((ok) => ok)).toBe(true);
  });
});
