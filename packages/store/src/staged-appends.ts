import type { AppendOptions, AppendResult, EventToAppend, ExpectedRevision } from './event-store';
import { invalidAppend } from './store-errors';
import type { StreamName } from './stream-name';

/** What one stream of a committed unit got: its last revision and position, and how many events were written. */
export interface StagedStreamResult extends AppendResult {
  readonly streamName: StreamName;
  readonly events: number;
}

/**
 * Appends to one or more streams that become visible together, or not at all: a file import
 * writes a session's header stream and its session stream as one unit, whatever its size.
 *
 * - `append` stages a batch; nothing is visible to any reader before `commit`. Later batches of a
 *   stream continue it: an expected revision given with them must be the one the earlier batches
 *   lead to (checked at once); the stream's first expectation is checked against the store at
 *   commit.
 * - `commit` writes every staged batch, in staging order of the streams (so `$all` holds them in
 *   that order), or nothing. Expected revisions are always checked: a unit is never taken as an
 *   idempotent retry, so a concurrent writer of the same events makes it fail with
 *   WrongExpectedVersion, and an id stored before fails it with DuplicateEventId.
 * - `abort` drops what was staged; a unit that failed or was committed has nothing to drop.
 *
 * Adapters document their limits: where the staged events are kept (SQLite: in memory up to a
 * budget, then written in place under a transaction held to the commit; PostgreSQL, EventStoreDB: memory, bounded by an option, `StagedAppendsTooLarge` past
 * it), and EventStoreDB, which has no multi-stream transaction, says how it falls short.
 */
export interface StagedAppends {
  /**
   * True when the unit may be staged before its input is fully validated: staging keeps nothing
   * in memory that grows with the unit, and an abort leaves the store and its commit participants
   * as they were (SQLite: a held transaction rolled back, views restored from the file). An importer then stages
   * each chunk as it validates it, in one read (docs/rules.md#one-pass-import). Absent: validate first.
   */
  readonly stagesWhileValidating?: boolean;
  /**
   * The most events a batch should hold, for a unit that hands each staged batch to its commit
   * participants at once and keeps none of it (the heads-only store): a batch's objects then die
   * while young instead of outliving a scavenge (docs/benchmarks.md). A caller may split any batch
   * into consecutive batches of this many (the last one shorter): the unit records them as it
   * would the batch whole. Absent: the caller's size.
   */
  readonly batchEvents?: number;
  append(stream: StreamName, events: readonly EventToAppend[], options?: AppendOptions): Promise<void>;
  commit(): Promise<readonly StagedStreamResult[]>;
  abort(): Promise<void>;
}

/** How a unit is used, as a hint to the store. */
export interface StageAppendsOptions {
  /**
   * The caller keeps every staged event object alive until the commit anyway (a single-pass
   * import): a store that hands a commit's events to participants may hand these very objects
   * instead of reading them back. Without it the store keeps nothing it does not need.
   */
  readonly callerHoldsEvents?: boolean;
}

/** One stream of a unit: the expectation of its first batch and how many events are staged. */
export interface StagedStream {
  readonly stream: StreamName;
  readonly expected: ExpectedRevision;
  events: number;
}

const describe = (expected: ExpectedRevision | undefined): string =>
  typeof expected === 'bigint' ? expected.toString() : String(expected);

/**
 * The bookkeeping every adapter's unit shares: streams in staging order, the expectation rule
 * for later batches, and the unit's life (open, then committed or aborted, once).
 */
export class StagingLedger {
  private readonly byName = new Map<StreamName, StagedStream>();
  private readonly ordered: StagedStream[] = [];
  private done = false;

  /** Streams in the order their first batch was staged. */
  get streams(): readonly StagedStream[] {
    return this.ordered;
  }

  get events(): number {
    return this.ordered.reduce((sum, stream) => sum + stream.events, 0);
  }

  /** Record a batch (throws InvalidAppend when the unit is over or the expectation does not continue the stream). */
  stage(stream: StreamName, count: number, options: AppendOptions = {}): StagedStream {
    this.assertOpen();
    const given = options.expectedRevision;
    const existing = this.byName.get(stream);
    if (existing === undefined) {
      const staged: StagedStream = { stream, expected: given ?? 'any', events: count };
      this.byName.set(stream, staged);
      this.ordered.push(staged);
      return staged;
    }
    if (!continues(existing, given)) {
      throw invalidAppend(
        `stream ${stream}: a staged batch expects revision ${describe(given)}, but the unit's earlier batches (expecting ${describe(existing.expected)}, ${existing.events} events) lead elsewhere`,
      );
    }
    existing.events += count;
    return existing;
  }

  /** Marks the unit over (commit or abort); a second call throws. */
  finish(): void {
    this.assertOpen();
    this.done = true;
  }

  get finished(): boolean {
    return this.done;
  }

  private assertOpen(): void {
    if (this.done) throw invalidAppend('this unit of staged appends was already committed or aborted');
  }
}

const continues = (staged: StagedStream, given: ExpectedRevision | undefined): boolean => {
  if (given === undefined || given === 'any') return true;
  if (given === 'stream_exists')
    return staged.events > 0 || staged.expected === 'stream_exists' || typeof staged.expected === 'bigint';
  if (given === 'no_stream') return staged.events === 0 && staged.expected === 'no_stream';
  const base =
    staged.expected === 'no_stream' ? -1n : typeof staged.expected === 'bigint' ? staged.expected : undefined;
  return base !== undefined && base + BigInt(staged.events) === given;
};

/** The revision a stream's first expectation says it is at, for the results of a unit. */
export const revisionAfter = (last: bigint | undefined, events: number): bigint => (last ?? -1n) + BigInt(events);
