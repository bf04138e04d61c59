import type Database from 'better-sqlite3';
import type { ConnectionHold } from './connection-hold';
import { recordedFromKept } from './kept-unit-events';
import { FoldAhead, type FoldAheadHost } from './fold-ahead';
import { type StagedRow, packStagedRows } from './staged-row-buffer';
import type { WriterThread } from './sqlite-writer-thread';
import { routeWrites } from './write-route';
import {
  type EventDigest,
  type EventToAppend,
  eventDigest,
  type RecordedEvent,
  type StageAppendsOptions,
  type StagedAppends,
  type StagedStreamResult,
  StagingLedger,
  type StreamName,
  assertValidBatch,
} from '@teamlog/store';

/** What a unit on the writer thread needs from the store that opened it. */
export interface WriterUnitHost extends FoldAheadHost {
  /** The importing thread's connection: it reads what is committed (heads, held ids), never the unit's rows. */
  readonly db: Database.Database;
  readonly writer: WriterThread;
  /** Whether the store's rows carry hash-chain digests (this thread computes them while it can). */
  readonly chained: boolean;
  readonly clock: () => Date;
  readonly assertOpen: () => void;
  /** Which unit holds the store's write transaction (one at a time; the store's own appends wait for it). */
  readonly hold: ConnectionHold;
  readonly hasParticipants: () => boolean;
  /** Inside the unit's transaction, one page of the unit's events after another, in `$all` order; a throw rolls the unit back. */
  readonly prepareParticipants: (events: readonly RecordedEvent[]) => void;
  /** A row of `events` as the store hands it on. */
  readonly recorded: (row: unknown) => RecordedEvent;
  readonly committed: (results: readonly StagedStreamResult[]) => void;
  readonly maxKeptBytes?: number;
  readonly maxBufferedBytes?: number;
}

const maxKeptBytes = 64 * 1024 * 1024;
/* As the one-thread unit's (sqlite-written-unit.ts): a small unit never holds the file's write lock while it reads. */
const maxBufferedBytes = 8 * 1024 * 1024;
/*
 * Row batches posted and not yet written before the importing thread waits: two keep the writer
 * busy while the next is read and parsed, and bound the bytes in flight between the threads.
 */
const maxPendingBatches = 2;
/** The views' statements posted in one message, and messages pending, at the commit. */
const statementsPerMessage = 32;
const maxPendingStatements = 2;
const participantPage = 2_000;

/** One batch while the unit still keeps its rows in memory, packed as it will cross. */
interface BufferedBatch {
  readonly stream: StreamName;
  readonly rows: ArrayBuffer;
  readonly digests: string | undefined;
}

/**
 * A unit of appends written by the store's writer thread (sqlite-writer-thread.ts): this thread
 * reads, parses, validates, encodes each batch into one buffer and folds the views; the writer
 * gives the rows their positions and digests, inserts them, and writes the views' rows in the
 * same transaction (routed to it at the commit: write-route.ts). A small unit keeps its packed
 * batches in memory and hands them over at the commit; past `maxBufferedBytes` the writer takes
 * the write lock and every later batch is written as it comes. An abort, a refused row or a killed
 * process leaves nothing of the unit. This thread never reads the unit's rows back while the fold
 * holds: it planned their positions (fold-ahead.ts).
 */
export const sqliteWriterUnit = (host: WriterUnitHost, options: StageAppendsOptions = {}): StagedAppends => {
  const { db, hold, writer } = host;
  host.assertOpen();
  const owner = {};
  const ledger = new StagingLedger();
  const head = db.prepare<[string], { revision: number | bigint }>(
    'SELECT revision FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
  );
  /* Committed heads only: the writer's rows are not visible on this connection until the commit. */
  const headRevision = (stream: StreamName): bigint | undefined => {
    const row = head.get(stream);
    return row === undefined ? undefined : BigInt(row.revision);
  };

  let kept: Map<StreamName, EventToAppend[]> | undefined =
    host.hasParticipants() && options.callerHoldsEvents === true ? new Map() : undefined;
  let keptBytes = 0;
  let buffered: BufferedBatch[] = [];
  let bufferedBytes = 0;
  /** Whether the writer holds the write transaction for this unit. */
  let held = false;
  let before = 0n;
  let recordedAt: number | undefined;
  const recordedAtNow = (): number => (recordedAt ??= host.clock().getTime());
  const ahead = new FoldAhead(host, recordedAtNow);

  /*
   * The hash chain is computed here, where the rows are encoded, from each stream's committed head
   * (this connection never sees the writer's rows), so the writer only inserts. It holds while
   * nothing commits between the unit's first digest and the writer's lock (the store's last
   * position then is the one read first); otherwise the writer chains the unit itself.
   */
  const lastDigest = db.prepare<[string], { digest: string | null }>(
    host.chained
      ? 'SELECT digest FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1'
      : 'SELECT NULL AS digest',
  );
  const lastPosition = db.prepare<[], { position: number | bigint | null }>(
    'SELECT MAX(position) AS position FROM events',
  );
  let chainedFrom: bigint | undefined;
  let chainsHere = host.chained;
  const chainEnds = new Map<StreamName, EventDigest | undefined>();
  const digestsOf = (stream: StreamName, rows: readonly StagedRow[]): string | undefined => {
    if (!chainsHere) return undefined;
    chainedFrom ??= BigInt(lastPosition.get()?.position ?? 0);
    let previous = chainEnds.has(stream)
      ? chainEnds.get(stream)
      : ((lastDigest.get(stream)?.digest ?? undefined) as EventDigest | undefined);
    let digests = '';
    for (const [, type, data, metadata] of rows) {
      previous = eventDigest(previous, { type, data, metadata });
      digests += previous;
    }
    chainEnds.set(stream, previous);
    return digests;
  };

  const expectedOf = (stream: StreamName) =>
    ledger.streams.find((staged) => staged.stream === stream)?.expected ?? 'any';
  const send = (batch: BufferedBatch): void => {
    writer.post(
      {
        kind: 'rows',
        stream: batch.stream,
        expected: expectedOf(batch.stream),
        recordedAt: recordedAtNow(),
        rows: batch.rows,
        digests: chainsHere ? batch.digests : undefined,
      },
      maxPendingBatches,
      [batch.rows],
    );
  };
  /** A write failed on the writer (its transaction is rolled back): any call answers why, and throws it. */
  const assertWriterHealthy = (): void => {
    if (writer.unitFailed) writer.call({ kind: 'results', streams: [] });
  };

  /** The writer takes the write lock in a transaction held until the unit's end, and gets what was kept. */
  const begin = (): void => {
    host.assertOpen();
    if (!hold.tryTake(owner) || db.inTransaction) throw new Error('the SQLite connection is in another transaction');
    try {
      const reply = writer.call({ kind: 'begin' });
      if (reply.kind !== 'begun') throw new Error(`the writer thread answered ${reply.kind} to begin`);
      before = reply.before;
    } catch (error) {
      hold.release(owner);
      throw error;
    }
    held = true;
    hold.writesAfter(owner, before);
    // Something committed since this thread began chaining: its digests may start from an old head.
    if (chainedFrom !== undefined && chainedFrom !== before) chainsHere = false;
    // Another connection committed since the fold began: the participants start again, read back at the commit.
    if (ahead.active && !ahead.holds(before, headRevision)) ahead.stop();
    const batches = buffered;
    buffered = [];
    bufferedBytes = 0;
    for (const batch of batches) send(batch);
  };
  const rollBack = (): void => {
    if (held) writer.call({ kind: 'rollback' });
    held = false;
    hold.release(owner);
  };
  const drop = (): void => {
    buffered = [];
    bufferedBytes = 0;
    kept = undefined;
    try {
      rollBack();
    } catch {
      // The unit is dropped either way: the writer rolled back, or its thread is gone.
      held = false;
      hold.release(owner);
    }
  };

  /** The participants' rows go to the writer's transaction while they are prepared. */
  const prepareRouted = (events: readonly RecordedEvent[]): void => {
    let statements: Array<readonly [string, readonly unknown[]]> = [];
    const flush = (): void => {
      if (statements.length === 0) return;
      writer.post({ kind: 'sql', statements }, maxPendingStatements);
      statements = [];
    };
    const unroute = routeWrites(db, {
      run: (sql, params) => {
        statements.push([sql, params]);
        if (statements.length >= statementsPerMessage) flush();
      },
    });
    try {
      host.prepareParticipants(events);
    } finally {
      unroute();
    }
    flush();
  };

  const handToParticipants = (results: readonly StagedStreamResult[]): void => {
    if (!host.hasParticipants()) return;
    if (ahead.active) {
      prepareRouted([]);
      return;
    }
    if (kept !== undefined) {
      const recorded = recordedFromKept(kept, results, new Date(recordedAtNow()));
      if (recorded.length > 0) prepareRouted(recorded);
      return;
    }
    // The fold did not hold: the unit's rows are read back from the writer's transaction, page by page.
    for (let after = before; ; ) {
      const reply = writer.call({ kind: 'read', after, max: participantPage });
      if (reply.kind !== 'rows') throw new Error(`the writer thread answered ${reply.kind} to read`);
      const page = reply.rows.map((row) => host.recorded(row));
      if (page.length > 0) prepareRouted(page);
      if (page.length < participantPage) return;
      after = (page[page.length - 1] as RecordedEvent).position.commit;
    }
  };

  return {
    stagesWhileValidating: true,
    append: async (stream: StreamName, events: readonly EventToAppend[], options) => {
      host.assertOpen();
      assertValidBatch(stream, events);
      // Encoded before staging: a value JSON cannot hold fails this call and stages nothing. The
      // writer's own text of the data is kept as it is (docs/rules.md#stored-data-bytes).
      const rows = events.map(
        (event): StagedRow => [
          event.id,
          event.type,
          event.dataText ?? JSON.stringify(event.data),
          event.metadata === undefined ? null : JSON.stringify(event.metadata),
        ],
      );
      const first = ledger.streams.find((staged) => staged.stream === stream)?.events ?? 0;
      ledger.stage(stream, events.length, options);
      const packed = packStagedRows(rows);
      const digests = digestsOf(stream, rows);
      if (kept !== undefined) {
        const objects = kept.get(stream) ?? [];
        for (const event of events) objects.push(event);
        kept.set(stream, objects);
        keptBytes += packed.byteLength;
        if (keptBytes > (host.maxKeptBytes ?? maxKeptBytes)) kept = undefined;
      }
      try {
        if (host.hasParticipants() && ahead.stage(stream, first, events, headRevision)) kept = undefined;
        if (held) {
          assertWriterHealthy();
          send({ stream, rows: packed, digests });
        } else {
          buffered.push({ stream, rows: packed, digests });
          bufferedBytes += packed.byteLength;
          if (bufferedBytes > (host.maxBufferedBytes ?? maxBufferedBytes) && !hold.held && !db.inTransaction) begin();
        }
      } catch (error) {
        drop();
        ahead.restore();
        if (!ledger.finished) ledger.finish();
        throw error;
      }
    },
    commit: async () => {
      ledger.finish();
      try {
        while (!held && hold.held) await hold.settled();
        if (!held) begin();
        const reply = writer.call({
          kind: 'results',
          streams: ledger.streams.map((staged) => ({ stream: staged.stream, expected: staged.expected })),
        });
        if (reply.kind !== 'results') throw new Error(`the writer thread answered ${reply.kind} to results`);
        const outcome = [...reply.results];
        handToParticipants(outcome.filter((result) => result.events > 0));
        writer.call({ kind: 'commit' });
        held = false;
        hold.release(owner);
        ahead.settle();
        host.committed(outcome);
        return outcome;
      } catch (error) {
        drop();
        ahead.abandon();
        throw error;
      } finally {
        buffered = [];
        kept = undefined;
      }
    },
    abort: async () => {
      if (ledger.finished) return;
      ledger.finish();
      drop();
      ahead.restore();
    },
  };
};
