import type { AppendResult, AppendSettled, StreamName } from '@teamlog/store';
import { PendingAppend } from '../src/pending-append';

const stream = 'session-s' as StreamName;

const pending = (settled?: AppendSettled<unknown>): PendingAppend => new PendingAppend(stream, [], [], 'any', settled);

describe('an append waiting for its group commit', () => {
  it('given an append planned into a group insert, when its result is read, then it is the append itself with its revision and its last row position', () => {
    const append = pending();
    append.revision = 7n;
    append.planned(41);
    expect(append.result).toBe(append);
    expect(append.failed).toBe(false);
    expect(append.nextExpectedRevision).toBe(7n);
    expect(append.position).toEqual({ commit: 41n, prepare: 41n });
  });

  it('given a planned append, when a plain caller takes its result, then it gets a plain object it may keep', () => {
    const append = pending();
    append.revision = 2n;
    append.planned(9);
    const result = append.plainResult();
    expect(result).not.toBe(append);
    expect(result).toStrictEqual({ nextExpectedRevision: 2n, position: { commit: 9n, prepare: 9n } });
  });

  it('given a result set by a one-by-one write, when a plain caller takes it, then it is that result', () => {
    const append = pending();
    const written: AppendResult = { nextExpectedRevision: 3n, position: { commit: 5n, prepare: 5n } };
    append.result = written;
    expect(append.plainResult()).toBe(written);
  });

  it('given two appends, when each is resolved, then each one promise settles with its own value', async () => {
    const first = pending();
    const second = pending();
    second.reject(new Error('refused'));
    first.resolve('first');
    await expect(first.promise).resolves.toBe('first');
    await expect(second.promise).rejects.toThrow('refused');
  });
});
