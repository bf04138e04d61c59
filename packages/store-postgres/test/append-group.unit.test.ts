import type { EventId } from '@teamlog/events';
import { streamName } from '@teamlog/store';
import { type GroupAppend, appendGroupParameters, outcomeOf, outcomesOf } from '@teamlog/store-postgres';

const id = (n: number): EventId => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}` as EventId;
const stream = streamName('session-a');
const append = (expectedRevision: GroupAppend['expectedRevision'], ...ids: number[]): GroupAppend => ({
  stream,
  expectedRevision,
  recordedAt: new Date(Date.UTC(2026, 0, 1)),
  events: ids.map((n) => ({ id: id(n), type: 't/x', data: { n }, ...(n % 2 === 0 ? { metadata: { time: n } } : {}) })),
});
const row = (
  fields: Partial<Record<'outcome' | 'last_revision' | 'transaction_id' | 'last_position', string | null>> & {
    stored?: unknown;
  },
) => ({
  outcome: 'appended',
  last_revision: null,
  transaction_id: null,
  last_position: null,
  stored: null,
  ...fields,
});

describe('one group commit as parameters of teamlog.append_group', () => {
  it('lists streams, expectations, counts and times per append, then every event in request order', () => {
    const parameters = appendGroupParameters([append('no_stream', 1, 2), append(4n, 3)]);
    expect(parameters).toEqual([
      [stream, stream],
      ['no_stream', '4'],
      [2, 1],
      ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
      [id(1), id(2), id(3)],
      ['t/x', 't/x', 't/x'],
      ['{"n":1}', '{"n":2}', '{"n":3}'],
      [null, '{"time":2}', null],
    ]);
  });
});

describe('the answer for one append', () => {
  it('appended: the last revision and the (transaction, position) of the last event', () => {
    expect(
      outcomeOf(append('any', 1), row({ last_revision: '3', transaction_id: '900', last_position: '17' })),
    ).toEqual({
      ok: true,
      result: { nextExpectedRevision: 3n, position: { commit: 900n, prepare: 17n } },
    });
  });

  it('a row the codec refuses: that append fails, saying which field of the answer was wrong', () => {
    const outcome = outcomeOf(append('any', 1), row({ outcome: 'appended', last_revision: 3 as unknown as string }));
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.objectContaining({ name: 'StoreError', code: 'StoreFailure' }),
    });
    expect(outcome.ok ? '' : outcome.error.message).toMatch(
      /unexpected answer from teamlog\.append_group: .*last_revision/,
    );
  });

  it('wrong expected version: the actual revision, or no_stream', () => {
    const stale = outcomeOf(append(1n, 1), row({ outcome: 'wrong_expected_version', last_revision: '5' }));
    expect(stale).toMatchObject({ ok: false, error: expect.objectContaining({ code: 'WrongExpectedVersion' }) });
    expect(stale.ok ? undefined : stale.error).toMatchObject({ fault: { expected: 1n, actual: 5n } });
    const missing = outcomeOf(
      append('stream_exists', 1),
      row({ outcome: 'wrong_expected_version', last_revision: '-1' }),
    );
    expect(missing.ok ? undefined : missing.error).toMatchObject({ fault: { actual: 'no_stream' } });
  });

  it('stored: the original result for the same batch, DuplicateEventId for a partial repeat', () => {
    const stored = [
      { id: id(1), stream, revision: '0', transaction: '50', position: '1' },
      { id: id(2), stream, revision: '1', transaction: '50', position: '2' },
    ];
    expect(outcomeOf(append('no_stream', 1, 2), row({ outcome: 'stored', stored }))).toEqual({
      ok: true,
      result: { nextExpectedRevision: 1n, position: { commit: 50n, prepare: 2n } },
    });
    const partial = outcomeOf(append('any', 1, 3), row({ outcome: 'stored', stored: stored.slice(0, 1) }));
    expect(partial.ok ? undefined : partial.error).toMatchObject({ code: 'DuplicateEventId' });
  });

  it('an answer of another shape fails that append with a store error', () => {
    const odd = outcomeOf(append('any', 1), { outcome: 'maybe' });
    expect(odd.ok ? undefined : odd.error).toMatchObject({ code: 'StoreFailure' });
    expect(
      outcomesOf(
        [append('any', 1), append('any', 2)],
        [row({ last_revision: '0', transaction_id: '1', last_position: '1' })],
      )[1]?.ok,
    ).toBe(false);
  });
});
