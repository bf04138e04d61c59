import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { type EventId, compileValidator, decodeWith } from '@teamlog/events';
import {
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  type StoredIdentity,
  type StreamName,
  resolveRetry,
  storeFailure,
  wrongExpectedVersion,
} from '@teamlog/store';
import { positionOf, startOfAll } from './global-position-mapping';

/* One group commit as one call of teamlog.append_group (migrations/postgres), and its answer per append. */

export interface GroupAppend {
  readonly stream: StreamName;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
  readonly recordedAt: Date;
}

export type AppendOutcome =
  | { readonly ok: true; readonly result: AppendResult }
  | { readonly ok: false; readonly error: Error };

export const appendGroupSql =
  'SELECT outcome, last_revision::text AS last_revision, transaction_id, last_position::text AS last_position, stored ' +
  'FROM teamlog.append_group($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::json[], $8::json[])';

const expectedText = (expected: ExpectedRevision): string =>
  typeof expected === 'bigint' ? expected.toString() : expected;

/** The function's eight array parameters: per append (stream, expectation, event count, time), then every event in order. */
export const appendGroupParameters = (group: readonly GroupAppend[]): unknown[] => {
  const events = group.flatMap((append) => append.events);
  return [
    group.map((append) => append.stream),
    group.map((append) => expectedText(append.expectedRevision)),
    group.map((append) => append.events.length),
    group.map((append) => append.recordedAt.toISOString()),
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => event.dataText ?? JSON.stringify(event.data)),
    events.map((event) => (event.metadata === undefined ? null : JSON.stringify(event.metadata))),
  ];
};

const StoredEventRow = t.type(
  { id: t.string, stream: t.string, revision: t.string, transaction: t.string, position: t.string },
  'StoredEventRow',
);
const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** One row of teamlog.append_group per append, in request order. */
export const AppendGroupRow = t.type(
  {
    outcome: t.keyof({ appended: null, wrong_expected_version: null, stored: null }),
    last_revision: nullable(t.string),
    transaction_id: nullable(t.string),
    last_position: nullable(t.string),
    stored: nullable(t.array(StoredEventRow)),
  },
  'AppendGroupRow',
);
export type AppendGroupRow = t.TypeOf<typeof AppendGroupRow>;

const isAppendGroupRow = compileValidator(AppendGroupRow);
const decodeRow = decodeWith(AppendGroupRow, 'append_group');

const storedIdentities = (rows: ReadonlyArray<t.TypeOf<typeof StoredEventRow>>): Map<EventId, StoredIdentity> =>
  new Map(
    rows.map((row) => [
      row.id as EventId,
      {
        streamName: row.stream as StreamName,
        revision: BigInt(row.revision),
        position: positionOf(row.transaction, row.position),
      },
    ]),
  );

const failure = (detail: string): AppendOutcome => ({
  ok: false,
  error: storeFailure(detail, { failure: 'server', operation: 'append' }),
});

/** A batch whose ids are stored is a retry: the port's shared rules give the original result or DuplicateEventId. */
const retried = (append: GroupAppend, stored: AppendGroupRow['stored']): AppendOutcome => {
  if (stored === null || stored.length === 0)
    return failure(
      `stream ${append.stream}: a unique constraint refused the append, but none of its event ids is stored`,
    );
  try {
    const result = resolveRetry(append.stream, append.events, storedIdentities(stored));
    return result === undefined
      ? failure(`stream ${append.stream}: no stored event matched the retry`)
      : { ok: true, result };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
};

/** What the database answered for one append. */
export const outcomeOf = (append: GroupAppend, row: unknown): AppendOutcome => {
  // The compiled check gives the codec's verdict (the codec passes a row on unchanged); only a refused row is decoded, to say why.
  if (!isAppendGroupRow(row)) {
    const decoded = decodeRow(row);
    if (isLeft(decoded)) return failure(`unexpected answer from teamlog.append_group: ${decoded.left.message}`);
  }
  const answer = row as AppendGroupRow;
  const last = answer.last_revision === null ? -1n : BigInt(answer.last_revision);
  switch (answer.outcome) {
    case 'appended': {
      const position =
        answer.transaction_id === null || answer.last_position === null
          ? startOfAll
          : positionOf(answer.transaction_id, answer.last_position);
      return { ok: true, result: { nextExpectedRevision: last, position } };
    }
    case 'wrong_expected_version':
      return {
        ok: false,
        error: wrongExpectedVersion(append.stream, append.expectedRevision, last < 0n ? 'no_stream' : last),
      };
    case 'stored':
      return retried(append, answer.stored);
    default: {
      const unreachable: never = answer.outcome;
      return unreachable;
    }
  }
};

/** Every append's outcome; a missing row (which the function never leaves out) fails that append. */
export const outcomesOf = (group: readonly GroupAppend[], rows: readonly unknown[]): AppendOutcome[] =>
  group.map((append, index) =>
    index < rows.length ? outcomeOf(append, rows[index]) : failure(`no answer for the append to ${append.stream}`),
  );
