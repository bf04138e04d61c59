import type { PoolClient } from 'pg';
import {
  type AppendResult,
  duplicateEventId,
  type EventToAppend,
  type ExpectedRevision,
  InMemoryStaging,
  type StagedAppends,
  type StagedStreamResult,
  type StreamName,
  wrongExpectedVersion,
  isStoreError,
} from '@teamlog/store';
import { appendGroupSql, outcomeOf } from './append-group';
import { streamHeadSql } from './stream-queries';

/** What a unit needs from the store that opened it. */
export interface PostgresStagingHost {
  readonly connect: () => Promise<PoolClient>;
  /** Runs a whole commit again after a dropped connection or a restarting server (the store's retry policy). */
  readonly retry: <A>(run: () => Promise<A>) => Promise<A>;
  readonly clock: () => Date;
  readonly assertOpen: () => void;
  /** The bytes of encoded events a unit may hold in memory. */
  readonly maxStagedBytes: number;
  /** After a commit: the transaction that wrote it, for read-your-writes and other processes' subscriptions. */
  readonly committed: (transaction: bigint) => void;
  readonly failure: (operation: string, error: unknown) => unknown;
}

interface EncodedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
}

const expectedText = (expected: ExpectedRevision): string =>
  typeof expected === 'bigint' ? expected.toString() : expected;

const holds = (expected: ExpectedRevision, last: bigint | undefined): boolean =>
  expected === 'any' ||
  (expected === 'no_stream'
    ? last === undefined
    : expected === 'stream_exists'
      ? last !== undefined
      : last === expected);

/**
 * A unit of staged appends on PostgreSQL: the events wait in memory, encoded (at most
 * `maxStagedBytes`, else StagedAppendsTooLarge and nothing is written), and the commit is one
 * transaction on a connection of its own calling teamlog.append_group with one append per
 * stream: if any append is refused the transaction is rolled back, so the unit is all or nothing.
 */
export const postgresStagedAppends = (host: PostgresStagingHost): StagedAppends => {
  host.assertOpen();
  const staging = new InMemoryStaging<EncodedEvent>(host.maxStagedBytes, 'PostgreSQL', {
    encode: (event) => ({
      id: event.id,
      type: event.type,
      data: event.dataText ?? JSON.stringify(event.data),
      metadata: event.metadata === undefined ? null : JSON.stringify(event.metadata),
    }),
    bytes: (event) => event.data.length + (event.metadata?.length ?? 0),
  });

  const refusal = async (
    client: PoolClient,
    stream: StreamName,
    expected: ExpectedRevision,
    answer: unknown,
    events: readonly EncodedEvent[],
  ): Promise<Error> => {
    const head = await client.query<{ last_revision: string }>(streamHeadSql, [stream]);
    const last =
      head.rows[0] === undefined || head.rows[0].last_revision === '-1'
        ? undefined
        : BigInt(head.rows[0].last_revision);
    // A unit is never an idempotent retry: its expectation decides first.
    if (!holds(expected, last)) return wrongExpectedVersion(stream, expected, last ?? 'no_stream');
    if ((answer as { outcome?: string } | undefined)?.outcome === 'stored') {
      return duplicateEventId(
        (events[0]?.id ?? '') as EventToAppend['id'],
        stream,
        'an id of the unit is already stored; nothing of the unit was written',
      );
    }
    const outcome = outcomeOf({ stream, events: [], expectedRevision: expected, recordedAt: host.clock() }, answer);
    return outcome.ok
      ? new Error(`stream ${stream}: teamlog.append_group did not append the unit's events`)
      : outcome.error;
  };

  return {
    append: async (stream, events, options) => {
      host.assertOpen();
      staging.stage(stream, events, options);
    },
    commit: async () => {
      const streams = staging.take();
      host.assertOpen();
      const recordedAt = host.clock().toISOString();
      const all = streams.flatMap((staged) => staged.encoded);
      const parameters = [
        streams.map((staged) => staged.stream),
        streams.map((staged) => expectedText(staged.expected)),
        streams.map((staged) => staged.encoded.length),
        streams.map(() => recordedAt),
        all.map((event) => event.id),
        all.map((event) => event.type),
        all.map((event) => event.data),
        all.map((event) => event.metadata),
      ];
      // A transaction the connection dropped under is rolled back by the server and sent again whole.
      // If only the COMMIT's answer was lost, the unit did commit: sent again, its expectations refuse
      // it (WrongExpectedVersion) and the caller re-reads, as after any race; a unit is never a retry.
      const once = async (): Promise<StagedStreamResult[]> => {
        const client = await host.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const { rows } = await client.query(appendGroupSql, parameters);
          const results: StagedStreamResult[] = [];
          for (const [index, staged] of streams.entries()) {
            const outcome = outcomeOf(
              {
                stream: staged.stream,
                events: [],
                expectedRevision: staged.expected,
                recordedAt: new Date(recordedAt),
              },
              rows[index],
            );
            const answer = rows[index] as { outcome?: string } | undefined;
            if (answer?.outcome !== 'appended' || !outcome.ok) {
              const error = await refusal(client, staged.stream, staged.expected, rows[index], staged.encoded);
              await client.query('ROLLBACK');
              throw error;
            }
            const result: AppendResult = outcome.result;
            results.push({ ...result, streamName: staged.stream, events: staged.encoded.length });
          }
          await client.query('COMMIT');
          return results;
        } catch (error) {
          // A broken connection must not go back to the pool mid-transaction.
          broken = !(isStoreError(error, 'WrongExpectedVersion') || isStoreError(error, 'DuplicateEventId'));
          throw error;
        } finally {
          client.release(broken);
        }
      };
      let results: StagedStreamResult[];
      try {
        results = await host.retry(once);
      } catch (error) {
        if (isStoreError(error, 'WrongExpectedVersion') || isStoreError(error, 'DuplicateEventId')) throw error;
        throw host.failure('append', error);
      }
      const newest = results.reduce((max, result) => (result.position.commit > max ? result.position.commit : max), 0n);
      if (newest > 0n) host.committed(newest);
      return results;
    },
    abort: async () => staging.abort(),
  };
};
