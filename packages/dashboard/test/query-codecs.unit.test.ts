import type * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/Either';
import { formatValidationErrors } from '@teamlog/events';
import {
  AsOfParam,
  AuditCodeParam,
  BooleanParam,
  InboxStatusParam,
  LegacyStatusParam,
  SeqParam,
  SessionIdParam,
  TeamIdParam,
} from '../src/query-codecs';

const accepts = <A>(codec: t.Decoder<unknown, A>, input: string): A => {
  const decoded = codec.decode(input);
  if (isLeft(decoded))
    throw new Error(`expected ${JSON.stringify(input)} to decode: ${formatValidationErrors(decoded.left).message}`);
  return decoded.right;
};

const refusal = (codec: t.Decoder<unknown, unknown>, input: unknown): string => {
  const decoded = codec.decode(input);
  if (isRight(decoded)) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return formatValidationErrors(decoded.left).message;
};

describe('query parameter codecs', () => {
  it('SessionIdParam and TeamIdParam take any non-empty id up to 512 characters', () => {
    expect(accepts(SessionIdParam, '{{session:1}}@index/snapshots')).toBe('{{session:1}}@index/snapshots');
    expect(accepts(TeamIdParam, 'lead-1')).toBe('lead-1');
    expect(refusal(SessionIdParam, '')).toBe('expected a session id (1 to 512 characters), got ""');
    expect(refusal(TeamIdParam, 'x'.repeat(513))).toMatch(
      /^expected a team id \(the Lead's session id\) \(1 to 512 characters\), got "x{57}\.\.\."$/,
    );
  });

  it('SeqParam takes integers from -1 (a session header) up', () => {
    expect(accepts(SeqParam, '0')).toBe(0);
    expect(accepts(SeqParam, '-1')).toBe(-1);
    expect(accepts(SeqParam, '1234')).toBe(1234);
    for (const bad of ['-2', '1.5', 'abc', '', ' 3', '1e3', '99999999999999999']) {
      expect(refusal(SeqParam, bad)).toBe(`expected an integer seq ≥ -1, got ${JSON.stringify(bad)}`);
    }
  });

  it('BooleanParam takes exactly true or false', () => {
    expect(accepts(BooleanParam, 'true')).toBe(true);
    expect(accepts(BooleanParam, 'false')).toBe(false);
    expect(refusal(BooleanParam, 'yes')).toBe('expected true or false, got "yes"');
    expect(refusal(BooleanParam, 'TRUE')).toBe('expected true or false, got "TRUE"');
  });

  it('status and code parameters take one of their listed values and name them when refusing', () => {
    expect(accepts(InboxStatusParam, 'canceled')).toBe('canceled');
    expect(accepts(LegacyStatusParam, 'undelivered')).toBe('undelivered');
    expect(accepts(AuditCodeParam, 'header-sender-mismatch')).toBe('header-sender-mismatch');
    expect(refusal(InboxStatusParam, 'done')).toBe('expected one of pending, claimed, canceled, got "done"');
    expect(refusal(LegacyStatusParam, 'lost')).toBe('expected one of delivered, undelivered, got "lost"');
    expect(refusal(AuditCodeParam, 'nope')).toMatch(
      /^expected one of header-sender-mismatch, .*undecodable-event, .*message-id-reused, revoked-session, got "nope"$/,
    );
  });

  it('AsOfParam takes a global position or a UTC time and encodes it back', () => {
    expect(accepts(AsOfParam, '42')).toEqual({ position: { commit: 42n, prepare: 42n } });
    expect(accepts(AsOfParam, '42/40')).toEqual({ position: { commit: 42n, prepare: 40n } });
    expect(accepts(AsOfParam, '2026-09-26T12:00:00Z')).toEqual({ time: Date.UTC(2026, 8, 26, 12) });
    expect(accepts(AsOfParam, '2026-09-26T12:00Z')).toEqual({ time: Date.UTC(2026, 8, 26, 12) });
    expect(AsOfParam.encode({ position: { commit: 7n, prepare: 7n } })).toBe('7/7');
    expect(AsOfParam.encode({ time: Date.UTC(2026, 8, 26, 12) })).toBe('2026-09-26T12:00:00.000Z');
  });

  it('AsOfParam refuses local times, dates without a time and words', () => {
    for (const bad of [
      '2026-09-26',
      '2026-09-26T12:00:00',
      '2026-09-26T12:00:00+02:00',
      'yesterday',
      '-3',
      '2026-13-45T99:00:00Z',
    ]) {
      expect(refusal(AsOfParam, bad)).toBe(
        `expected a global position (e.g. 42 or 42/42) or a UTC time (e.g. 2026-09-26T12:00:00Z), got ${JSON.stringify(bad)}`,
      );
    }
  });
});
