import { isLeft, isRight } from 'fp-ts/Either';
import { asOfOption, describeAsOf, parseAsOf } from '../src/as-of-argument';

describe('parseAsOf', () => {
  it('reads one number as a position whose commit and prepare are equal (SQLite)', () => {
    expect(parseAsOf('120', 'replay')).toEqual({ _tag: 'Right', right: { position: { commit: 120n, prepare: 120n } } });
  });

  it('reads commit/prepare as an EventStoreDB position', () => {
    expect(parseAsOf('7340/7300', 'replay')).toEqual({
      _tag: 'Right',
      right: { position: { commit: 7340n, prepare: 7300n } },
    });
  });

  it('reads an ISO 8601 time as epoch milliseconds', () => {
    expect(parseAsOf('2026-09-21T00:00:00Z', 'replay')).toEqual({
      _tag: 'Right',
      right: { time: Date.UTC(2026, 8, 21) },
    });
  });

  it('reads a bare date', () => {
    const parsed = parseAsOf('2026-09-21', 'replay');
    expect(isRight(parsed) && 'time' in parsed.right).toBe(true);
  });

  it.each(['yesterday', '-3', '12/ab', '2026-13-45T99:00:00Z', ''])(
    'rejects %p as a usage error of the command',
    (text) => {
      const parsed = parseAsOf(text, 'roster');
      expect(isLeft(parsed) && parsed.left).toMatchObject({ code: 'UsageError' });
      expect(isLeft(parsed) && parsed.left.fault.command).toBe('roster');
    },
  );

  it('describes a position as commit/prepare and a time as ISO 8601', () => {
    expect(describeAsOf({ position: { commit: 5n, prepare: 5n } })).toBe('5/5');
    expect(describeAsOf({ time: Date.UTC(2026, 8, 21) })).toBe('2026-09-21T00:00:00.000Z');
  });

  it('asOfOption is undefined without the flag and throws the usage error for a bad value', () => {
    expect(asOfOption(undefined, 'replay')).toBeUndefined();
    expect(() => asOfOption('soon', 'replay')).toThrow(expect.objectContaining({ code: 'UsageError' }));
  });
});
