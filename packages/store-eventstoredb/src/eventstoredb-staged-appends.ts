import type { EventData } from '@eventstore/db-client';
import {
  type AppendOptions,
  type AppendResult,
  type EventToAppend,
  InMemoryStaging,
  type StagedAppends,
  type StagedStreamResult,
  type StreamName,
  assertExpectedRevision,
} from '@teamlog/store';
import { eventSizeOnDisk } from './append-size';
import { chainEvents } from './eventstoredb-event-chain';
import { appendTooLarge } from './eventstoredb-errors';

/** What a unit needs from the store that opened it. */
export interface EventStoreDbStagingHost {
  readonly append: (
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ) => Promise<AppendResult>;
  readonly revision: (stream: StreamName) => Promise<bigint | undefined>;
  readonly assertOpen: () => void;
  /** The bytes (as the server counts them) a unit may hold in memory until its commit. */
  readonly maxStagedBytes: number;
  /** The server's MaxAppendSize: a stream's events are written in appends of at most this many bytes. */
  readonly maxAppendBytes: number;
}

interface SizedEvent {
  readonly event: EventToAppend;
  readonly bytes: number;
}

/** Consecutive runs of events of at most `limit` bytes each (one event larger than that fails before anything is sent). */
const appendsOf = (stream: StreamName, events: readonly SizedEvent[], limit: number): EventToAppend[][] => {
  const appends: EventToAppend[][] = [];
  let current: EventToAppend[] = [];
  let bytes = 0;
  for (const { event, bytes: size } of events) {
    if (size > limit) throw appendTooLarge(stream, size, limit, 1);
    if (current.length > 0 && bytes + size > limit) {
      appends.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) appends.push(current);
  return appends;
};

/**
 * A unit of staged appends on EventStoreDB, which has no transaction over several streams, nor
 * over several appends to one stream: this unit falls short of all-or-nothing, and says how.
 * The events wait in memory (at most `maxStagedBytes`, else StagedAppendsTooLarge). The commit
 * first checks every stream's expectation and the size of every event, so a conflict or an
 * oversized event writes nothing; then it writes stream after stream, in staging order, each in
 * appends of at most the server's MaxAppendSize, every append expecting the revision the previous
 * one left. A failure part-way (a writer racing in, a lost connection) leaves the earlier appends
 * written: a valid prefix, which the importer's next run of the same file completes.
 */
export const eventStoreDbStagedAppends = (host: EventStoreDbStagingHost): StagedAppends => {
  host.assertOpen();
  const staging = new InMemoryStaging<SizedEvent>(host.maxStagedBytes, 'EventStoreDB', {
    // Sized as sent: chained (a digest is the same length whatever it chains after).
    encode: (event) => ({ event, bytes: eventSizeOnDisk(chainEvents([event], undefined)[0] as EventData) }),
    bytes: (event) => event.bytes,
  });
  return {
    append: async (stream, events, options) => {
      host.assertOpen();
      staging.stage(stream, events, options);
    },
    commit: async () => {
      const streams = staging.take();
      host.assertOpen();
      const plans = [];
      for (const staged of streams) {
        const last = await host.revision(staged.stream);
        assertExpectedRevision(staged.stream, staged.expected, last);
        plans.push({ staged, last, appends: appendsOf(staged.stream, staged.encoded, host.maxAppendBytes) });
      }
      const results: StagedStreamResult[] = [];
      for (const { staged, last, appends } of plans) {
        let expected: bigint | 'no_stream' = last ?? 'no_stream';
        let result: AppendResult | undefined;
        for (const events of appends) {
          result = await host.append(staged.stream, events, { expectedRevision: expected });
          expected = result.nextExpectedRevision;
        }
        result ??= await host.append(staged.stream, [], { expectedRevision: expected });
        results.push({ ...result, streamName: staged.stream, events: staged.events });
      }
      return results;
    },
    abort: async () => staging.abort(),
  };
};
