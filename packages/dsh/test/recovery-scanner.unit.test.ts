import type { LogicalEvent } from '../src/logical-event';
import { RecoveryScanner } from '../src/recovery-scanner';

const event = (seq: number, type = 'user/message'): LogicalEvent => ({ type, seq, time: 0, data: {} });
const events = (...list: LogicalEvent[]) => ({ kind: 'events' as const, events: list });
const unparsable = (rawType?: string) => ({
  kind: 'problem' as const,
  reason: 'unparsable-line' as const,
  detail: 'not JSON',
  ...(rawType === undefined ? {} : { rawType }),
});

describe('the recovery rule (docs/rules.md#recovery-damaged-tail)', () => {
  it('accepts a run of events at the expected seqs at once, or none of it', () => {
    const scanner = new RecoveryScanner();
    expect(scanner.acceptRun(1, 24)).toBe(false);
    expect(scanner.acceptRun(0, 0)).toBe(false);
    expect(scanner.expectedSeq).toBe(0);
    expect(scanner.acceptRun(0, 24)).toBe(true);
    expect(scanner.expectedSeq).toBe(24);
    scanner.record(3, events(event(25)));
    expect(scanner.acceptRun(24, 2)).toBe(false);
    expect(scanner.finish(undefined)).toMatchObject({ reason: 'seq-gap', keptEvents: 24 });
  });

  it('given dense seqs and no tail, when finished, then nothing was recovered', () => {
    const scanner = new RecoveryScanner();
    expect(scanner.record(2, events(event(0), event(1)))).toEqual({ kind: 'accept', events: [event(0), event(1)] });
    expect(scanner.finish(undefined)).toBeNull();
  });

  it('given a torn tail, then it is dropped and reported with its line', () => {
    const scanner = new RecoveryScanner();
    scanner.record(2, events(event(0)));
    expect(scanner.finish({ line: 3, reason: 'torn-tail' })).toMatchObject({
      reason: 'torn-tail',
      line: 3,
      keptEvents: 1,
      droppedLines: 1,
    });
  });

  it('given a seq gap and no later turn/end, then the prefix before the gap is kept', () => {
    const scanner = new RecoveryScanner();
    scanner.record(2, events(event(0)));
    expect(scanner.record(3, events(event(2)))).toEqual({ kind: 'drop' });
    expect(scanner.record(4, events(event(3, 'step/start')))).toEqual({ kind: 'drop' });
    expect(scanner.finish(undefined)).toMatchObject({ reason: 'seq-gap', line: 3, keptEvents: 1, droppedLines: 2 });
  });

  it('given a seq gap, when a turn/end follows, then the whole file is rejected', () => {
    const scanner = new RecoveryScanner();
    scanner.record(2, events(event(0)));
    scanner.record(3, events(event(2)));
    expect(scanner.record(4, events(event(3, 'turn/end')))).toMatchObject({
      kind: 'reject',
      damage: { problem: { line: 3, reason: 'seq-gap' }, turnEndLine: 4 },
    });
  });

  it('given an unparsable line, when a later line is a turn/end (even a malformed one), then the file is rejected', () => {
    const scanner = new RecoveryScanner();
    scanner.record(2, events(event(0)));
    expect(scanner.record(3, unparsable())).toEqual({ kind: 'drop' });
    expect(scanner.record(4, unparsable('turn/end'))).toMatchObject({ kind: 'reject', damage: { turnEndLine: 4 } });
  });

  it('given a duplicated seq, then it is a gap', () => {
    const scanner = new RecoveryScanner();
    scanner.record(2, events(event(0), event(1)));
    expect(scanner.record(3, events(event(1)))).toEqual({ kind: 'drop' });
    expect(scanner.finish(undefined)).toMatchObject({ reason: 'seq-gap', keptEvents: 2 });
  });

  it('given a gap inside a packed row, then the members before it are kept', () => {
    const scanner = new RecoveryScanner();
    expect(scanner.record(2, events(event(0), event(1), event(5)))).toEqual({
      kind: 'accept',
      events: [event(0), event(1)],
    });
    expect(scanner.finish(undefined)).toMatchObject({ reason: 'seq-gap', keptEvents: 2 });
  });

  it('given the first problem is itself a turn/end with a gap, then the file is rejected', () => {
    const scanner = new RecoveryScanner();
    expect(scanner.record(2, events(event(1, 'turn/end')))).toMatchObject({ kind: 'reject' });
  });
});
